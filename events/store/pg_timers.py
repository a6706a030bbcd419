"""Durable timers on PostgreSQL (see ``events.store.timers`` for the contract).

A claim is one statement: it leases up to ``limit`` due rows that no other timekeeper holds
(``FOR UPDATE SKIP LOCKED``, so two timekeepers never wait on each other or take the same
row) and returns them with the database's clock, which is the clock the due times were set
by. Appends that add a timer ``NOTIFY paiju_timers:<schema>`` at commit; ``wait_for_timers``
listens on a connection of its own and wakes at once, and its caller never relies on it (it
sleeps at most until the next due time it read, then looks again).
"""

from __future__ import annotations

import threading
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from events.envelope import check_id
from events.store.timers import DueTimer

Row = tuple[Any, ...]

CLAIM = (
    "UPDATE timers t SET lease_until = now() + make_interval(secs => %(lease)s),"
    " attempts = t.attempts + 1"
    " FROM (SELECT stream_id, timer_key FROM timers"
    " WHERE due_at <= now() AND (lease_until IS NULL OR lease_until < now())"
    " ORDER BY due_at LIMIT %(limit)s FOR UPDATE SKIP LOCKED) AS due"
    " WHERE t.stream_id = due.stream_id AND t.timer_key = due.timer_key"
    " RETURNING t.stream_id, t.timer_key, t.due_at, t.command, t.attempts, now(), t.lease_until"
)


class PostgresTimers:
    """Mixed into ``PostgresEventStore``: the timekeeper's side of the timers table."""

    conninfo: str
    timer_channel: str
    _pool: ConnectionPool[psycopg.Connection[Row]]
    _timer_listener: psycopg.Connection[Row] | None
    _timer_listen_lock: threading.Lock

    def _init_timers(self) -> None:
        self._timer_listener = None
        self._timer_listen_lock = threading.Lock()

    def claim_due_timers(self, limit: int = 100, lease: float = 10.0) -> list[DueTimer]:
        with self._pool.connection() as conn:
            rows = conn.execute(CLAIM, {"lease": lease, "limit": limit}).fetchall()
        due = [DueTimer(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]
        return sorted(due, key=lambda t: t.due_at)

    def seconds_to_next_timer(self) -> float | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT extract(epoch FROM min(greatest(due_at, coalesce(lease_until, due_at)))"
                " - now()) FROM timers"
            ).fetchone()
        return None if row is None or row[0] is None else max(0.0, float(row[0]))

    def wait_for_timers(self, timeout: float) -> bool:
        """True when an append added a timer (or the listener had to be set up), else False
        after ``timeout``; one thread listens at a time, the others sleep."""
        if not self._timer_listen_lock.acquire(blocking=False):
            threading.Event().wait(timeout)
            return False
        try:
            if self._timer_listener is None or self._timer_listener.closed:
                conn: psycopg.Connection[Row] = psycopg.connect(self.conninfo, autocommit=True)
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.timer_channel)))
                self._timer_listener = conn
                return True  # a timer may have come before LISTEN took hold: look again
            woken = False
            for _ in self._timer_listener.notifies(timeout=max(0.0, timeout), stop_after=1):
                woken = True
            return woken
        except psycopg.Error:
            if self._timer_listener is not None:
                self._timer_listener.close()
            self._timer_listener = None
            threading.Event().wait(min(timeout, 0.5))
            return False
        finally:
            self._timer_listen_lock.release()

    def close_timer_listener(self) -> None:
        with self._timer_listen_lock:
            if self._timer_listener is not None:
                self._timer_listener.close()
                self._timer_listener = None

    def drop_timer(self, stream_id: str, key: str) -> bool:
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            cur = conn.execute(
                "DELETE FROM timers WHERE stream_id = %s AND timer_key = %s", (stream_id, key)
            )
            return cur.rowcount > 0

    def timers_of(self, stream_id: str) -> list[DueTimer]:
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT stream_id, timer_key, due_at, command, attempts, now(),"
                " coalesce(lease_until, due_at) FROM timers WHERE stream_id = %s"
                " ORDER BY due_at, timer_key",
                (stream_id,),
            ).fetchall()
        return [DueTimer(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]
