"""Command outcomes in the SQLite store (mixed into ``SqliteEventStore``).

``record_outcome`` inserts unless the command id has an outcome (``ON CONFLICT DO NOTHING``)
and answers with the row that is there: the first outcome wins, whoever records it. A waiter
in the same process is woken at once by a condition shared by every store object on the file;
one in another process finds the row by polling (``poll_interval``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from events.envelope import RecordedEvent, check_id
from events.hashchain import format_time
from events.outcomes import CommandOutcome, receipt_of

_RECORDED: dict[str, threading.Condition] = {}
_RECORDED_LOCK = threading.Lock()
_WAKES: dict[tuple[str, str], set[Callable[[], None]]] = {}
"""(file, command id) -> who asked to be woken when its outcome is recorded in this process."""

OUTCOME_COLUMNS = (
    "sequence, command_id, table_id, status, code, reason, first_version, last_version,"
    " first_position, last_position, actor_kind, actor_seat, correlation_id, recorded_at"
)


def _recorded_for(path: str) -> threading.Condition:
    key = os.path.realpath(path)
    with _RECORDED_LOCK:
        return _RECORDED.setdefault(key, threading.Condition())


def on_recorded(path: str, command_id: str, wake: Callable[[], None]) -> Callable[[], None]:
    """Call ``wake`` when this process records the outcome of ``command_id`` on ``path``."""
    key = (os.path.realpath(path), command_id)
    with _RECORDED_LOCK:
        _WAKES.setdefault(key, set()).add(wake)

    def stop() -> None:
        with _RECORDED_LOCK:
            waiting = _WAKES.get(key)
            if waiting is not None:
                waiting.discard(wake)
                if not waiting:
                    del _WAKES[key]

    return stop


def _wake(path: str, command_id: str) -> None:
    with _RECORDED_LOCK:
        wakes = list(_WAKES.get((os.path.realpath(path), command_id), ()))
    for wake in wakes:
        wake()


def outcome_from_row(row: tuple[Any, ...] | sqlite3.Row) -> CommandOutcome:
    """An outcome from a row in ``OUTCOME_COLUMNS`` order (either store)."""
    names = [name.strip() for name in OUTCOME_COLUMNS.split(",")]
    values = dict(zip(names, row, strict=True))
    if isinstance(values["recorded_at"], str):
        values["recorded_at"] = datetime.fromisoformat(values["recorded_at"])
    return CommandOutcome.model_validate(values)


def outcome_params(outcome: CommandOutcome) -> tuple[Any, ...]:
    """The values to insert, in ``OUTCOME_COLUMNS`` order without ``sequence``."""
    o = outcome
    return (
        o.command_id,
        o.table_id,
        o.status,
        o.code,
        o.reason,
        o.first_version,
        o.last_version,
        o.first_position,
        o.last_position,
        o.actor_kind,
        o.actor_seat,
        o.correlation_id,
    )


_INSERT = (f"INSERT INTO command_outcomes ({OUTCOME_COLUMNS.split(',', 1)[1]})"
           " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")  # fmt: skip


def _insert_params(outcome: CommandOutcome) -> tuple[Any, ...]:
    return (*outcome_params(outcome), format_time(outcome.recorded_at))


class SqliteOutcomes:
    """Needs the store's ``path``, ``poll_interval`` and per-thread ``_conn()``."""

    path: str
    poll_interval: float
    _writer: threading.RLock  # the store's writer_lock_for(path)

    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def record_outcome(self, outcome: CommandOutcome) -> CommandOutcome:
        check_id("command_id", outcome.command_id)
        check_id("table_id", outcome.table_id)
        with self._writer:  # this process's writers queue here, not in SQLite's busy handler
            self._conn().execute(_INSERT + " ON CONFLICT (command_id) DO NOTHING",
                                 _insert_params(outcome))  # fmt: skip
        recorded = self.load_outcome(outcome.command_id)
        assert recorded is not None  # just inserted, or there before: rows are never deleted
        self._outcome_recorded(outcome.command_id)
        return recorded

    def _insert_outcome(self, conn: sqlite3.Connection, outcome: CommandOutcome,
                        events: list[RecordedEvent]) -> None:  # fmt: skip
        """In an append's transaction: its accepted outcome, naming the events it recorded,
        recorded when they were."""
        conn.execute(_INSERT, _insert_params(receipt_of(outcome, events)))

    def _outcome_recorded(self, command_id: str) -> None:
        """Wake this process's waiters on the file, and those of ``command_id``."""
        condition = _recorded_for(self.path)
        with condition:
            condition.notify_all()
        _wake(self.path, command_id)

    def load_outcome(self, command_id: str) -> CommandOutcome | None:
        check_id("command_id", command_id)
        row = (
            self._conn()
            .execute(
                f"SELECT {OUTCOME_COLUMNS} FROM command_outcomes WHERE command_id = ?",
                (command_id,),
            )
            .fetchone()
        )
        return None if row is None else outcome_from_row(row)

    def wait_for_outcome(self, command_id: str, timeout: float) -> CommandOutcome | None:
        deadline = time.monotonic() + timeout
        condition = _recorded_for(self.path)
        while True:
            with condition:  # held while reading: a notify cannot slip between read and wait
                found = self.load_outcome(command_id)
                remaining = deadline - time.monotonic()
                if found is not None or remaining <= 0:
                    return found
                condition.wait(min(remaining, self.poll_interval))

    def refusals_for(
        self, table_id: str, seat: int, after: int = 0, limit: int = 100
    ) -> list[CommandOutcome]:
        check_id("table_id", table_id)
        return self._refusals(
            " AND table_id = ? AND actor_seat = ?", (table_id, seat), after, limit
        )

    def refusals_after(self, after: int = 0, limit: int = 500) -> list[CommandOutcome]:
        return self._refusals("", (), after, limit)

    def _refusals(self, where: str, params: tuple[Any, ...], after: int, limit: int
                  ) -> list[CommandOutcome]:  # fmt: skip
        """The refusals after ``after`` that also match ``where``, in the order recorded."""
        rows = (
            self._conn()
            .execute(
                f"SELECT {OUTCOME_COLUMNS} FROM command_outcomes WHERE status = 'refused'{where}"
                " AND sequence > ? ORDER BY sequence LIMIT ?",
                (*params, after, limit),
            )
            .fetchall()
        )
        return [outcome_from_row(r) for r in rows]

    def last_outcome_sequence(self) -> int:
        row = (
            self._conn()
            .execute("SELECT COALESCE(MAX(sequence), 0) FROM command_outcomes")
            .fetchone()
        )
        return int(row[0])
