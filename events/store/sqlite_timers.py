"""Durable timers on the embedded store (see ``events.store.timers`` for the contract).

Times are Unix seconds. A claim runs under ``BEGIN IMMEDIATE`` (the database's one write
lock), so two timekeepers, in threads or processes, never lease the same row. A timekeeper in
the process that appended is woken at once (a condition per database file); one in another
process finds new timers at its next look (``wait_for_timers`` returns at its timeout).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from events.envelope import check_id
from events.store.timers import DueTimer, Timer

_WAKEUPS: dict[tuple[str, str], threading.Condition] = {}
_WRITERS: dict[str, threading.RLock] = {}
_WAKEUPS_LOCK = threading.Lock()


def wakeup_for(path: str, what: str) -> threading.Condition:
    """One condition per database file and per kind of news (``appended``, ``timers``) per
    process, shared by every store object on the file."""
    key = (os.path.realpath(path), what)
    with _WAKEUPS_LOCK:
        return _WAKEUPS.setdefault(key, threading.Condition())


def timer_wakeup_for(path: str) -> threading.Condition:
    return wakeup_for(path, "timers")


def writer_lock_for(path: str) -> threading.RLock:
    """One lock per database file per process, held around each write transaction.

    Threads of one process then queue for the database's write lock here, and the one that
    ends hands it straight to the next; without it they wait in SQLite's busy handler, which
    sleeps in steps growing to 100 ms and lets a writer starve: with a timekeeper's threads
    firing beside a dealer, a ``BEGIN IMMEDIATE`` waited up to 430 ms on a database whose
    commits took at most 10 ms (docs/performance.md, "Timer lateness"). Other processes still
    meet at the database's lock and its busy timeout."""
    key = os.path.realpath(path)
    with _WAKEUPS_LOCK:
        return _WRITERS.setdefault(key, threading.RLock())


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def replace_timers(
    conn: sqlite3.Connection, stream_id: str, timers: Sequence[Timer], now: float
) -> bool:
    """Inside an append's transaction: the stream's timers become ``timers``; True if one is new."""
    keys = [t.key for t in timers]
    marks = ",".join("?" * len(keys))
    conn.execute(
        f"DELETE FROM timers WHERE stream_id = ? AND timer_key NOT IN ({marks})",
        (stream_id, *keys),
    )
    added = False
    for timer in timers:
        cur = conn.execute(
            "INSERT OR IGNORE INTO timers (stream_id, timer_key, due_at, command, created_at)"
            " VALUES (?,?,?,?,?)",
            (
                stream_id,
                timer.key,
                now + timer.seconds,
                json.dumps(timer.command, separators=(",", ":"), ensure_ascii=False),
                now,
            ),
        )
        added = added or cur.rowcount > 0
    return added


class SqliteTimers:
    """Mixed into ``SqliteEventStore``: the timekeeper's side of the timers table."""

    path: str
    _timers_woken: threading.Condition
    _writer: threading.RLock  # writer_lock_for(path)
    _conn: Callable[[], sqlite3.Connection]  # the store's connection for this thread

    def claim_due_timers(self, limit: int = 100, lease: float = 10.0) -> list[DueTimer]:
        conn = self._conn()
        with self._writer:
            return self._claim(conn, limit, lease)

    def _claim(self, conn: sqlite3.Connection, limit: int, lease: float) -> list[DueTimer]:
        conn.execute("BEGIN IMMEDIATE")
        try:
            now = time.time()
            rows = conn.execute(
                "SELECT stream_id, timer_key, due_at, command, attempts FROM timers"
                " WHERE due_at <= ? AND (lease_until IS NULL OR lease_until < ?)"
                " ORDER BY due_at LIMIT ?",
                (now, now, limit),
            ).fetchall()
            conn.executemany(
                "UPDATE timers SET lease_until = ?, attempts = attempts + 1"
                " WHERE stream_id = ? AND timer_key = ?",
                [(now + lease, r[0], r[1]) for r in rows],
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return [
            DueTimer(
                r[0], r[1], _when(r[2]), json.loads(r[3]), r[4] + 1, _when(now), _when(now + lease)
            )
            for r in rows
        ]

    def seconds_to_next_timer(self) -> float | None:
        """Seconds until the next row is claimable (0 if one is now); None if there is none."""
        row = (
            self._conn()
            .execute("SELECT min(max(due_at, coalesce(lease_until, due_at))) FROM timers")
            .fetchone()
        )
        return None if row[0] is None else max(0.0, float(row[0]) - time.time())

    def wait_for_timers(self, timeout: float) -> bool:
        """Wait until an append in this process adds a timer (True) or ``timeout`` passes."""
        with self._timers_woken:
            return self._timers_woken.wait(max(0.0, timeout))

    def _wake_timekeepers(self) -> None:
        with self._timers_woken:
            self._timers_woken.notify_all()

    def drop_timer(self, stream_id: str, key: str) -> bool:
        check_id("stream_id", stream_id)
        with self._writer:
            cur = self._conn().execute(
                "DELETE FROM timers WHERE stream_id = ? AND timer_key = ?", (stream_id, key)
            )
        return cur.rowcount > 0

    def timers_of(self, stream_id: str) -> list[DueTimer]:
        check_id("stream_id", stream_id)
        rows: list[Any] = (
            self._conn()
            .execute(
                "SELECT stream_id, timer_key, due_at, command, attempts, lease_until FROM timers"
                " WHERE stream_id = ? ORDER BY due_at, timer_key",
                (stream_id,),
            )
            .fetchall()
        )
        now = time.time()
        return [
            DueTimer(
                r[0], r[1], _when(r[2]), json.loads(r[3]), r[4], _when(now), _when(r[5] or 0.0)
            )
            for r in rows
        ]
