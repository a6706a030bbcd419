"""The embedded event store: one SQLite file, WAL mode, same contract as PostgreSQL.

Global order: an append runs in ``BEGIN IMMEDIATE``, which takes the database's
single write lock before anything is read; positions (``AUTOINCREMENT``) are
drawn under it and the lock is held until commit. Writers therefore commit one
at a time in position order, and a reader's snapshot always holds a prefix of
the positions: a tailer can never overtake an event that commits later.

Any number of threads and processes may share the file; each thread gets its own
connection. ``wait_for_events`` polls (``poll_interval``), and is woken at once
by appends made in the same process.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from events.envelope import JSONDict, NewEvent, RecordedEvent, check_id, utc_now
from events.fairness import commit_seed
from events.hashchain import GENESIS_HASH, command_digest, format_time
from events.outcomes import CommandOutcome
from events.store.base import (
    EVENT_COLUMNS,
    CommandConflictError,
    ConcurrencyError,
    CorruptRowError,
    OutcomeRecordedError,
    RejectedBatchError,
    SeedError,
    Snapshot,
    check_append_args,
    decode_json_column,
    draft_batch,
    row_to_event,
    unencodable,
)
from events.store.migrations import migrate_sqlite
from events.store.outcomes_sqlite import SqliteOutcomes
from events.store.placements import SqlitePlacements
from events.store.requests_sqlite import SqliteRequests
from events.store.sqlite_timers import (
    SqliteTimers,
    replace_timers,
    timer_wakeup_for,
    wakeup_for,
    writer_lock_for,
)
from events.store.timers import Timer, check_timers


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _decode(row: sqlite3.Row | tuple[Any, ...]) -> RecordedEvent:
    values = list(row)
    stream_id, version = values[1], values[2]
    values[6] = decode_json_column(stream_id, version, "payload", values[6])
    try:
        values[7] = datetime.fromisoformat(values[7])
    except (TypeError, ValueError):
        raise CorruptRowError(
            f"stream {stream_id!r} version {version}: the stored time {values[7]!r} is not a time"
        ) from None
    if values[11] is not None:
        values[11] = decode_json_column(stream_id, version, "command", values[11])
    return row_to_event(values)


class SqliteEventStore(
    SqliteTimers, SqliteOutcomes, SqliteRequests, SqlitePlacements
):  # outcomes: events.store.outcomes_sqlite
    def __init__(
        self, path: str | Path, *, busy_timeout: float = 30.0, poll_interval: float = 0.05
    ) -> None:
        self.path = str(path)
        self.busy_timeout = busy_timeout
        self.poll_interval = poll_interval
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._appended = wakeup_for(self.path, "appended")
        self._timers_woken = timer_wakeup_for(self.path)
        self._writer = writer_lock_for(self.path)
        migrate_sqlite(self._conn())

    # -- connections -------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
            )
            self._enable_wal(conn)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def _enable_wal(self, conn: sqlite3.Connection) -> None:
        """Switch a new database to WAL. The switch needs the database to itself and SQLite
        answers "database is locked" at once, without its busy handler, while another
        connection opens the same new file; so it is retried until the busy timeout."""
        deadline = time.monotonic() + self.busy_timeout
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(self.poll_interval)

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    # -- appending ---------------------------------------------------------
    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str | None = None,
        command: JSONDict | None = None,
        timers: Sequence[Timer] | None = None,
        outcome: CommandOutcome | None = None,
    ) -> list[RecordedEvent]:
        check_append_args(stream_id, expected_version, command_id, outcome, len(events))
        check_timers(stream_id, timers)
        new_timer = False
        try:
            digest = command_digest(stream_id, command)
        except UnicodeEncodeError as error:
            raise unencodable(stream_id, error) from None
        conn = self._conn()
        with self._writer:  # see writer_lock_for
            conn.execute("BEGIN IMMEDIATE")
            try:
                if command_id is not None:
                    found = conn.execute(
                        "SELECT stream_id, digest, first_version, last_version FROM commands"
                        " WHERE command_id = ?",
                        (command_id,),
                    ).fetchone()
                    if found is not None:
                        conn.execute("ROLLBACK")
                        if found[0] != stream_id or found[1] != digest:
                            raise CommandConflictError(command_id, stream_id, found[0])
                        return self._read_range(stream_id, found[2], found[3])
                    if (
                        outcome is not None
                        and conn.execute(
                            "SELECT 1 FROM command_outcomes WHERE command_id = ?", (command_id,)
                        ).fetchone()
                    ):
                        conn.execute("ROLLBACK")
                        raise OutcomeRecordedError(command_id, stream_id)
                head = conn.execute(
                    "SELECT version, hash FROM events WHERE stream_id = ? ORDER BY version DESC LIMIT 1",
                    (stream_id,),
                ).fetchone()
                version, prev_hash = (head[0], head[1]) if head else (0, GENESIS_HASH)
                if version != expected_version:
                    raise ConcurrencyError(stream_id, expected_version, version)
                drafts = draft_batch(
                    stream_id, expected_version, prev_hash, events, command_id, command
                )
                command_json = None if command is None else _dumps(command)
                recorded: list[RecordedEvent] = []
                for d in drafts:
                    e = d.event
                    (position,) = conn.execute(
                        "INSERT INTO events (stream_id, version, event_id, type, schema_version, payload,"
                        " recorded_at, actor_kind, actor_seat, command_id, command, rules_version,"
                        " prev_hash, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING position",
                        (
                            stream_id,
                            d.version,
                            str(e.event_id),
                            e.type,
                            e.schema_version,
                            _dumps(e.payload),
                            format_time(d.recorded_at),
                            e.actor.kind,
                            e.actor.seat,
                            command_id,
                            command_json,
                            e.rules_version,
                            d.prev_hash,
                            d.hash,
                        ),
                    ).fetchone()
                    recorded.append(d.recorded(int(position)))
                if command_id is not None:
                    conn.execute(
                        "INSERT INTO commands (command_id, stream_id, digest, first_version,"
                        " last_version, recorded_at) VALUES (?,?,?,?,?,?)",
                        (
                            command_id,
                            stream_id,
                            digest,
                            expected_version + 1,
                            expected_version + len(drafts),
                            format_time(utc_now()),
                        ),
                    )
                if timers is not None:
                    new_timer = replace_timers(conn, stream_id, timers, time.time())
                if outcome is not None:
                    self._insert_outcome(conn, outcome, recorded)
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise RejectedBatchError(stream_id, str(exc)) from exc
                if isinstance(exc, UnicodeEncodeError):
                    raise unencodable(stream_id, exc) from None
                raise
        if recorded:
            with self._appended:
                self._appended.notify_all()
        if outcome is not None:
            self._outcome_recorded(outcome.command_id)
        if new_timer:
            self._wake_timekeepers()
        return recorded

    def find_command(
        self, command_id: str, stream_id: str, command: JSONDict | None
    ) -> list[RecordedEvent] | None:
        check_id("command_id", command_id)
        check_id("stream_id", stream_id)
        found = (
            self._conn()
            .execute(
                "SELECT stream_id, digest, first_version, last_version FROM commands"
                " WHERE command_id = ?",
                (command_id,),
            )
            .fetchone()
        )
        if found is None:
            return None
        if found[0] != stream_id or found[1] != command_digest(stream_id, command):
            raise CommandConflictError(command_id, stream_id, found[0])
        return self._read_range(stream_id, found[2], found[3])

    # -- reading -----------------------------------------------------------
    def _read_range(self, stream_id: str, first: int, last: int) -> list[RecordedEvent]:
        rows = (
            self._conn()
            .execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version BETWEEN ? AND ?"
                " ORDER BY version",
                (stream_id, first, last),
            )
            .fetchall()
        )
        return [_decode(r) for r in rows]

    def read_stream(self, stream_id: str, from_version: int = 1) -> list[RecordedEvent]:
        check_id("stream_id", stream_id)
        rows = (
            self._conn()
            .execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version >= ?"
                " ORDER BY version",
                (stream_id, from_version),
            )
            .fetchall()
        )
        return [_decode(r) for r in rows]

    def read_event(self, stream_id: str, version: int) -> RecordedEvent | None:
        check_id("stream_id", stream_id)
        row = (
            self._conn()
            .execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = ? AND version = ?",
                (stream_id, version),
            )
            .fetchone()
        )
        return None if row is None else _decode(row)

    def read_all(self, from_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        rows = (
            self._conn()
            .execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE position >= ? ORDER BY position LIMIT ?",
                (from_position, limit),
            )
            .fetchall()
        )
        return [_decode(r) for r in rows]

    def stream_version(self, stream_id: str) -> int:
        check_id("stream_id", stream_id)
        row = (
            self._conn()
            .execute("SELECT max(version) FROM events WHERE stream_id = ?", (stream_id,))
            .fetchone()
        )
        return int(row[0] or 0)

    def last_position(self) -> int:
        row = self._conn().execute("SELECT max(position) FROM events").fetchone()
        return int(row[0] or 0)

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            if self.last_position() > after_position:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            with self._appended:
                self._appended.wait(min(remaining, self.poll_interval))

    # -- snapshots ---------------------------------------------------------
    def save_snapshot(
        self, stream_id: str, version: int, state: bytes | JSONDict, schema: str
    ) -> None:
        check_id("stream_id", stream_id)
        as_json, as_bytes = (
            (None, bytes(state)) if isinstance(state, bytes) else (_dumps(state), None)
        )
        with self._writer:
            self._save_snapshot(stream_id, version, schema, as_json, as_bytes)

    def _save_snapshot(
        self, stream_id: str, version: int, schema: str, as_json: str | None, as_bytes: bytes | None
    ) -> None:
        self._conn().execute(
            "INSERT INTO snapshots (stream_id, version, schema_tag, state_json, state_bytes,"
            " created_at) VALUES (?,?,?,?,?,?) ON CONFLICT (stream_id) DO UPDATE SET"
            " version = excluded.version, schema_tag = excluded.schema_tag,"
            " state_json = excluded.state_json, state_bytes = excluded.state_bytes,"
            " created_at = excluded.created_at WHERE excluded.version >= snapshots.version",
            (stream_id, version, schema, as_json, as_bytes, format_time(utc_now())),
        )

    def load_snapshot(self, stream_id: str, schema: str | None = None) -> Snapshot | None:
        check_id("stream_id", stream_id)
        row = (
            self._conn()
            .execute(
                "SELECT version, schema_tag, state_json, state_bytes, created_at FROM snapshots"
                " WHERE stream_id = ?",
                (stream_id,),
            )
            .fetchone()
        )
        if row is None or (schema is not None and row[1] != schema):
            return None
        state: bytes | JSONDict = bytes(row[3]) if row[3] is not None else json.loads(row[2])
        return Snapshot(stream_id, row[0], row[1], state, datetime.fromisoformat(row[4]))

    def delete_snapshots(self, stream_id: str | None = None) -> int:
        if stream_id is None:
            cur = self._conn().execute("DELETE FROM snapshots")
        else:
            cur = self._conn().execute("DELETE FROM snapshots WHERE stream_id = ?", (stream_id,))
        return cur.rowcount

    # -- sealed seeds ------------------------------------------------------
    def seal_seed(self, stream_id: str, hand: int, seed: str) -> str:
        check_id("stream_id", stream_id)
        check_id("seed", seed)
        commitment = commit_seed(seed)
        conn = self._conn()
        with self._writer:
            conn.execute(
                "INSERT INTO sealed_seeds (stream_id, hand, seed, commitment, sealed_at)"
                " VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING",
                (stream_id, hand, seed, commitment, format_time(utc_now())),
            )
        if self.load_seed(stream_id, hand) != seed:
            raise SeedError(f"stream {stream_id!r} hand {hand}: another seed is already sealed")
        return commitment

    def load_seed(self, stream_id: str, hand: int) -> str:
        check_id("stream_id", stream_id)
        row = (
            self._conn()
            .execute(
                "SELECT seed FROM sealed_seeds WHERE stream_id = ? AND hand = ?", (stream_id, hand)
            )
            .fetchone()
        )
        if row is None:
            raise SeedError(f"stream {stream_id!r} hand {hand}: no sealed seed")
        return str(row[0])

    def reveal(self, stream_id: str, hand: int) -> str:
        check_id("stream_id", stream_id)
        row = (
            self._conn()
            .execute(
                "UPDATE sealed_seeds SET revealed_at = coalesce(revealed_at, ?)"
                " WHERE stream_id = ? AND hand = ? RETURNING seed",
                (format_time(utc_now()), stream_id, hand),
            )
            .fetchone()
        )
        if row is None:
            raise SeedError(f"stream {stream_id!r} hand {hand}: no sealed seed")
        return str(row[0])
