"""Command outcomes in the PostgreSQL store (mixed into ``PostgresEventStore``).

``record_outcome`` inserts unless the command id has an outcome (``ON CONFLICT DO NOTHING``),
notifies ``paiju_outcomes:<schema>`` with the command id when it did, and answers with the row
that is there: the first outcome wins, whoever records it. Waiters share one listening
connection per store object (a daemon thread started by the first wait); each also re-reads
every ``poll_interval``, so a lost connection or a notification missed while reconnecting
only makes the answer later, never lost.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool

from events.envelope import check_id
from events.outcomes import CommandOutcome
from events.store.outcomes_sqlite import OUTCOME_COLUMNS, outcome_from_row, outcome_params

Row = tuple[Any, ...]
_LAZY_LOCK = threading.Lock()
_INSERT_COLUMNS = OUTCOME_COLUMNS.split(",", 1)[1]
_RECORD = (
    f"WITH inserted AS (INSERT INTO command_outcomes ({_INSERT_COLUMNS})"
    " VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
    f" ON CONFLICT (command_id) DO NOTHING RETURNING {OUTCOME_COLUMNS})"
    " SELECT inserted.*, pg_notify(%s, command_id) FROM inserted"
)


class OutcomeListener:
    """One LISTEN connection waking the waiters of one store object, by command id."""

    def __init__(self, conninfo: str, channel: str) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._waiters: defaultdict[str, set[Callable[[], None]]] = defaultdict(set)
        self._thread = threading.Thread(target=self._run, name="paiju-outcomes", daemon=True)
        self._thread.start()

    def register(self, command_id: str) -> threading.Event:
        woken = threading.Event()
        self.on_notified(command_id, woken.set)
        return woken

    def unregister(self, command_id: str, woken: threading.Event) -> None:
        self.forget(command_id, woken.set)

    def on_notified(self, command_id: str, wake: Callable[[], None]) -> None:
        with self._lock:
            self._waiters[command_id].add(wake)

    def forget(self, command_id: str, wake: Callable[[], None]) -> None:
        with self._lock:
            waiting = self._waiters.get(command_id)
            if waiting is not None:
                waiting.discard(wake)
                if not waiting:
                    del self._waiters[command_id]

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)

    def _wake(self, command_id: str) -> None:
        with self._lock:
            wakes = list(self._waiters.get(command_id, ()))
        for wake in wakes:
            wake()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._wake(note.payload)
            except psycopg.Error:
                self.listening.clear()
                self._stop.wait(0.5)  # the server is away: waiters poll meanwhile


class PostgresOutcomes:
    """Needs the store's ``conninfo``, ``schema``, ``poll_interval`` and ``_pool``."""

    conninfo: str
    schema: str
    poll_interval: float
    _pool: ConnectionPool[psycopg.Connection[Row]]

    @property
    def _outcome_channel(self) -> str:
        return f"paiju_outcomes:{self.schema}"

    def record_outcome(self, outcome: CommandOutcome) -> CommandOutcome:
        check_id("command_id", outcome.command_id)
        check_id("table_id", outcome.table_id)
        with self._pool.connection() as conn:
            inserted = conn.execute(
                _RECORD,
                (*outcome_params(outcome), outcome.recorded_at, self._outcome_channel),
            ).fetchone()
            if inserted is not None:  # this one is the first: the row as stored, in one trip
                return outcome_from_row(inserted[:-1])
            recorded = self._load_outcome(conn, outcome.command_id)
        assert recorded is not None  # just inserted, or there before: rows are never deleted
        return recorded

    def load_outcome(self, command_id: str) -> CommandOutcome | None:
        check_id("command_id", command_id)
        with self._pool.connection() as conn:
            return self._load_outcome(conn, command_id)

    def _load_outcome(
        self, conn: psycopg.Connection[Row], command_id: str
    ) -> CommandOutcome | None:
        row = conn.execute(
            f"SELECT {OUTCOME_COLUMNS} FROM command_outcomes WHERE command_id = %s",
            (command_id,),
        ).fetchone()
        return None if row is None else outcome_from_row(row)

    def wait_for_outcome(self, command_id: str, timeout: float) -> CommandOutcome | None:
        deadline = time.monotonic() + timeout
        listener = self._outcome_listener()
        woken = listener.register(command_id)  # before the first read: no wake-up slips by
        try:
            listener.listening.wait(min(timeout, 1.0))
            while True:
                found = self.load_outcome(command_id)
                remaining = deadline - time.monotonic()
                if found is not None or remaining <= 0:
                    return found
                woken.wait(min(remaining, self.poll_interval))
                woken.clear()
        finally:
            listener.unregister(command_id, woken)

    def on_outcome(self, command_id: str, wake: Callable[[], None]) -> Callable[[], None]:
        listener = self._outcome_listener()
        listener.on_notified(command_id, wake)
        return lambda: listener.forget(command_id, wake)

    def _outcome_listener(self) -> OutcomeListener:
        with _LAZY_LOCK:
            listener: OutcomeListener | None = self.__dict__.get("_outcomes_listener")
            if listener is None:
                listener = OutcomeListener(self.conninfo, self._outcome_channel)
                self.__dict__["_outcomes_listener"] = listener
            return listener

    def close_outcomes(self) -> None:
        """Stop the listening thread, if a wait started one."""
        listener: OutcomeListener | None = self.__dict__.pop("_outcomes_listener", None)
        if listener is not None:
            with contextlib.suppress(RuntimeError):
                listener.stop()

    def refusals_for(
        self, table_id: str, seat: int, after: int = 0, limit: int = 100
    ) -> list[CommandOutcome]:
        check_id("table_id", table_id)
        return self._refusals(
            " AND table_id = %s AND actor_seat = %s", (table_id, seat), after, limit
        )

    def refusals_after(self, after: int = 0, limit: int = 500) -> list[CommandOutcome]:
        return self._refusals("", (), after, limit)

    def _refusals(self, where: str, params: tuple[Any, ...], after: int, limit: int
                  ) -> list[CommandOutcome]:  # fmt: skip
        """The refusals after ``after`` that also match ``where``, in the order recorded."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {OUTCOME_COLUMNS} FROM command_outcomes WHERE status = 'refused'{where}"
                " AND sequence > %s ORDER BY sequence LIMIT %s",
                (*params, after, limit),
            ).fetchall()
        return [outcome_from_row(r) for r in rows]

    def last_outcome_sequence(self) -> int:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT COALESCE(MAX(sequence), 0) FROM command_outcomes").fetchone()
        return int(row[0]) if row is not None else 0
