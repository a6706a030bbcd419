"""The PostgreSQL event store (psycopg 3, ``psycopg_pool``).

Global order — why a tailer can never overtake. Every append first takes
``pg_advisory_xact_lock`` on one key per schema, and only then draws positions
from the identity sequence (``CACHE 1``). The lock is released after the commit
is visible, so appends commit one at a time in position order and every
reader's snapshot contains a gap-free prefix of the committed positions:
reading ``position >= p`` never skips an event that commits later. We chose a
lock over a transaction-id horizon (``pg_snapshot_xmin``) because it keeps
``position`` itself the cursor, with no extra filter for readers. It is an
advisory lock rather than ``LOCK TABLE events``: a table lock would also conflict
with autovacuum on ``events`` (appends would stall behind an anti-wraparound
vacuum). Aborted appends leave gaps in positions, which tailers ignore. The SQL
function ``paiju_append`` of the first migration takes the same lock on the same
key, so clients that still call it keep the order with this one.

One round trip per command: the client computes the hash chain from the head it
last saw of the stream (kept in a small cache), and sends one prepared SQL
statement (``append_sql``) whose data-modifying CTEs, in the one implicit
transaction of an autocommit statement, take the append lock, check the head
(version and hash), insert the idempotency record and the events, and notify
``paiju_events:<schema>``. The statement's snapshot is taken before it waits
for the lock, so its head check can see a head that has since moved on; the
unique ``(stream_id, version)`` index then refuses the insert, as it refuses a
recorded command id (``commands`` primary key). Either refusal, like a head that
does not match, writes nothing and sends the client to ``_settle``: one query
for the command's record and the current head, which answers with the first
result of a retried command, a ``CommandConflictError``, a ``ConcurrencyError``
naming both versions, or (the head is where the caller expected but the cached
hash was missing or stale) the hash to retry with.

On the connection kept for appends (one more than the pool's, opened at the
first append) the statement goes straight through libpq
(``_run``: prepared once per connection, parameters as text), which saves
psycopg's per-call work; a thread that finds that connection busy takes one
from the pool and the same statement through ``conn.execute``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import pq, sql
from psycopg_pool import ConnectionPool

from events.envelope import JSONDict, NewEvent, RecordedEvent, check_id
from events.hashchain import (
    GENESIS_HASH,
    command_digest,
)
from events.outcomes import CommandOutcome
from events.store.base import (
    EVENT_COLUMNS,
    CommandConflictError,
    ConcurrencyError,
    OutcomeRecordedError,
    RejectedBatchError,
    StoreError,
    check_append_args,
    row_to_event,
    unencodable,
)
from events.store.migrations import migrate_postgres
from events.store.outcomes_pg import PostgresOutcomes
from events.store.pg_append import (
    APPEND_SQL,
    ATTEMPTS,
    MANY,
    RETRYABLE,
    SCALAR_EVENTS,
    SETTLE,
    Batch,
    Statement,
    outcome_params,
    pg_error,
)
from events.store.pg_kept import PostgresSeeds, PostgresSnapshots
from events.store.pg_timers import PostgresTimers
from events.store.placements import PostgresPlacements
from events.store.pool_checks import pool_checks, still_serving
from events.store.requests_pg import PostgresRequests
from events.store.timers import Timer, check_timers

Row = tuple[Any, ...]


class PostgresEventStore(
    PostgresTimers,
    PostgresOutcomes,
    PostgresRequests,
    PostgresSnapshots,
    PostgresSeeds,
    PostgresPlacements,
):  # outcomes: events.store.outcomes_pg; snapshots and seeds: events.store.pg_kept
    def __init__(
        self,
        conninfo: str,
        *,
        schema: str = "public",
        min_size: int = 1,
        max_size: int = 8,
        use_listen: bool = True,
        poll_interval: float = 0.5,
        head_cache_size: int = 10_000,
    ) -> None:
        self.conninfo = conninfo
        self.schema = schema
        self.use_listen = use_listen
        self.poll_interval = poll_interval
        self._head_cache_size = head_cache_size
        self._heads: dict[str, tuple[int, str]] = {}
        self._listen_lock = threading.Lock()
        self._listener: psycopg.Connection[Row] | None = None
        self._channel = f"paiju_events:{schema}"
        self.timer_channel = f"paiju_timers:{schema}"
        self._init_timers()
        # Appends use one more connection, of their own, outside the pool (no checkout
        # per command); a thread that finds it busy takes one from the pool instead.
        self._append_lock = threading.Lock()
        self._append_conn: psycopg.Connection[Row] | None = None
        self._prepared: set[bytes] = set()  # append statements prepared on _append_conn
        self._encoding = "utf-8"  # _append_conn's client encoding
        with psycopg.connect(conninfo, autocommit=True) as conn:
            migrate_postgres(conn, schema)
        self._pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            open=True,
            kwargs=self._connect_kwargs(),
            **pool_checks(),
        )

    def _connect_kwargs(self) -> dict[str, Any]:
        quoted = '"' + self.schema.replace('"', '""') + '"'
        return {"autocommit": True, "options": f"-c search_path={quoted}"}

    def close(self) -> None:
        self.close_outcomes()
        with self._append_lock:
            if self._append_conn is not None:
                self._append_conn.close()
                self._append_conn = None
        self._pool.close()
        self.close_timer_listener()
        with self._listen_lock:
            if self._listener is not None:
                self._listener.close()
                self._listener = None

    def __enter__(self) -> PostgresEventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        prev_hash = (
            GENESIS_HASH
            if expected_version == 0
            else self._cached_head(stream_id, expected_version)
        )
        batch = (
            stream_id,
            expected_version,
            prev_hash,
            events,
            command_id,
            command,
            timers,
            outcome,
        )
        if not self._append_lock.acquire(blocking=False):
            with self._pool.connection() as pooled:
                return self._append(pooled, *batch)
        try:
            conn = self._append_conn
            if conn is None or not still_serving(conn):  # none yet, closed, or server gone
                if conn is not None:
                    self._append_conn = None
                    conn.close()
                self._prepared.clear()
                conn = psycopg.connect(self.conninfo, **self._connect_kwargs())
                self._append_conn = conn
                self._encoding = conn.info.encoding
            return self._append(conn, *batch)
        finally:
            self._append_lock.release()

    def _append(
        self,
        conn: psycopg.Connection[Row],
        stream_id: str,
        expected_version: int,
        prev_hash: str | None,
        events: Sequence[NewEvent],
        command_id: str | None,
        command: JSONDict | None,
        timers: Sequence[Timer] | None = None,
        outcome: CommandOutcome | None = None,
    ) -> list[RecordedEvent]:
        # The canonical JSON of the command and of each payload is written as is and
        # spliced into the hashed content (events.hashchain.event_hash_json).
        try:  # a text that is not UTF-8 fails as it is hashed or encoded, before it is sent
            batch = Batch(stream_id, expected_version, events, command_id, command, timers, outcome)
            for _attempt in range(ATTEMPTS):
                if prev_hash is None:
                    settled = self._settle(
                        conn,
                        stream_id,
                        expected_version,
                        command_id,
                        batch.digest,
                        outcome is not None,
                    )
                    if isinstance(settled, list):
                        return settled
                    prev_hash = settled
                recorded = self._insert(conn, batch, prev_hash)
                if recorded is not None:
                    return recorded
                prev_hash = None
        except UnicodeEncodeError as error:
            raise unencodable(stream_id, error) from None
        raise StoreError(f"stream {stream_id!r}: could not agree on the head hash")

    def _insert(
        self, conn: psycopg.Connection[Row], batch: Batch, prev_hash: str
    ) -> list[RecordedEvent] | None:
        """Run the append statement: the events recorded, or None if it was not accepted."""
        links = batch.chain(prev_hash)
        count = len(links)
        # Every parameter as text (None is NULL); the statement casts each one.
        params: dict[str, str | None] = {
            "stream": batch.stream_id,
            "expected": f"{batch.expected_version:d}",
            "prev": prev_hash,
            "channel": self._channel,
            "command_id": batch.command_id,
            "digest": batch.digest,
            "command": None if batch.command is None else batch.command_json,
            "count": f"{count:d}",
            "timers": batch.timers_json,
            "timer_channel": self.timer_channel,
        }
        if batch.outcome is not None:
            params |= outcome_params(batch.outcome, self._outcome_channel, links[-1].recorded_at)
        if count == 1:
            e = batch.events[0]
            link = links[0]
            params["event_id"] = link.event_id
            params["type"] = e.type
            params["schema_version"] = f"{e.schema_version:d}"
            params["payload"] = batch.payloads[0]
            params["recorded_at"] = link.recorded_at
            params["actor_kind"] = e.actor.kind
            params["actor_seat"] = None if e.actor.seat is None else f"{e.actor.seat:d}"
            params["rules_version"] = e.rules_version
            params["hash"] = link.hash
        elif count <= SCALAR_EVENTS:
            for i, (e, payload_json, link) in enumerate(
                zip(batch.events, batch.payloads, links, strict=True), 1
            ):
                params[f"event_id_{i}"] = link.event_id
                params[f"type_{i}"] = e.type
                params[f"schema_version_{i}"] = f"{e.schema_version:d}"
                params[f"payload_{i}"] = payload_json
                params[f"recorded_at_{i}"] = link.recorded_at
                params[f"actor_kind_{i}"] = e.actor.kind
                params[f"actor_seat_{i}"] = None if e.actor.seat is None else f"{e.actor.seat:d}"
                params[f"rules_version_{i}"] = e.rules_version
                params[f"hash_{i}"] = link.hash
        else:
            params["events"] = batch.events_json(links)
        statement = APPEND_SQL[
            min(count, MANY),
            batch.command_id is not None,
            batch.timers_json is not None,
            batch.outcome is not None,
        ]
        try:
            if conn is self._append_conn:
                rows = self._run(conn, statement, params)
            else:
                rows = conn.execute(statement.text, params, prepare=True).fetchall()
        except psycopg.errors.UniqueViolation as exc:
            if exc.diag.constraint_name in RETRYABLE:
                return None  # a stale head or a recorded command id: _settle says which
            raise RejectedBatchError(batch.stream_id, str(exc).splitlines()[0]) from exc
        except psycopg.errors.IntegrityError as exc:
            raise RejectedBatchError(batch.stream_id, str(exc).splitlines()[0]) from exc
        if count == 0:
            return [] if rows else None
        if len(rows) != count:
            return None
        self._remember(batch.stream_id, batch.expected_version + count, links[-1].hash)
        if count == 1:
            return [batch.recorded(0, links[0], int(rows[0][0]))]
        positions = {int(r[0]): int(r[1]) for r in rows}
        return [
            batch.recorded(i, link, positions[batch.expected_version + i + 1])
            for i, link in enumerate(links)
        ]

    def _run(
        self, conn: psycopg.Connection[Row], statement: Statement, params: dict[str, str | None]
    ) -> list[Row]:
        """Execute ``statement`` straight through libpq (the dedicated connection only).

        The same prepared statement and the same errors as ``conn.execute``, without
        psycopg's per-call work (a cursor, adapters, a result to load): the rows
        come back as bytes. Held under ``_append_lock``, so nothing else uses
        ``conn`` meanwhile.
        """
        pgconn = conn.pgconn
        encoding = self._encoding
        if statement.name not in self._prepared:
            result = pgconn.prepare(statement.name, statement.positional)
            if result.status != pq.ExecStatus.COMMAND_OK:
                raise pg_error(pgconn, result, encoding)
            self._prepared.add(statement.name)
        values: list[Any] = [
            None if v is None else v.encode(encoding)
            for v in map(params.__getitem__, statement.names)
        ]
        result = pgconn.exec_prepared(statement.name, values)
        if result.status != pq.ExecStatus.TUPLES_OK:
            raise pg_error(pgconn, result, encoding)
        if result.ntuples == 1 and result.nfields == 2:  # one event: position, notify
            return [(result.get_value(0, 0),)]
        columns = range(result.nfields)
        return [tuple(result.get_value(r, c) for c in columns) for r in range(result.ntuples)]

    def _settle(
        self,
        conn: psycopg.Connection[Row],
        stream_id: str,
        expected_version: int,
        command_id: str | None,
        digest: str | None,
        with_outcome: bool = False,
    ) -> str | list[RecordedEvent]:
        """After a refused append (or with no cached head): what the append must answer.

        The first result of a retried command (a list), or the head hash to append
        after; raises if the command id was used for another command or the stream
        is not at ``expected_version``.
        """
        row = conn.execute(SETTLE, {"command_id": command_id, "stream": stream_id}).fetchone()
        assert row is not None
        recorded_stream, recorded_digest, first, last, version, hash_, has_outcome = row
        if recorded_stream is not None:
            if recorded_stream == stream_id and recorded_digest == digest:
                return self._read_range(conn, stream_id, int(first), int(last))
            raise CommandConflictError(str(command_id), stream_id, str(recorded_stream))
        if with_outcome and has_outcome:
            raise OutcomeRecordedError(str(command_id), stream_id)
        version = 0 if version is None else int(version)
        hash_ = GENESIS_HASH if hash_ is None else str(hash_)
        if version:
            self._remember(stream_id, version, hash_)
        if version != expected_version:
            raise ConcurrencyError(stream_id, expected_version, version)
        return hash_

    def _cached_head(self, stream_id: str, version: int) -> str | None:
        head = self._heads.get(stream_id)
        return head[1] if head is not None and head[0] == version else None

    def _remember(self, stream_id: str, version: int, hash_: str) -> None:
        if len(self._heads) >= self._head_cache_size:
            self._heads.clear()
        self._heads[stream_id] = (version, hash_)

    def find_command(
        self, command_id: str, stream_id: str, command: JSONDict | None
    ) -> list[RecordedEvent] | None:
        check_id("command_id", command_id)
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            found = conn.execute(
                "SELECT stream_id, digest, first_version, last_version FROM commands"
                " WHERE command_id = %s",
                (command_id,),
            ).fetchone()
            if found is None:
                return None
            if found[0] != stream_id or found[1] != command_digest(stream_id, command):
                raise CommandConflictError(command_id, stream_id, str(found[0]))
            return self._read_range(conn, stream_id, int(found[2]), int(found[3]))

    # -- reading -----------------------------------------------------------
    def _read_range(
        self, conn: psycopg.Connection[Row], stream_id: str, first: int, last: int
    ) -> list[RecordedEvent]:
        rows = conn.execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = %s"
            " AND version BETWEEN %s AND %s ORDER BY version",
            (stream_id, first, last),
        ).fetchall()
        return [row_to_event(r) for r in rows]

    def read_stream(self, stream_id: str, from_version: int = 1) -> list[RecordedEvent]:
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = %s AND version >= %s"
                " ORDER BY version",
                (stream_id, from_version),
            ).fetchall()
        events = [row_to_event(r) for r in rows]
        if events:
            self._remember(stream_id, events[-1].version, events[-1].hash)
        return events

    def read_event(self, stream_id: str, version: int) -> RecordedEvent | None:
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            row = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = %s AND version = %s",
                (stream_id, version),
            ).fetchone()
        return None if row is None else row_to_event(row)

    def read_all(self, from_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE position >= %s"
                " ORDER BY position LIMIT %s",
                (from_position, limit),
            ).fetchall()
        return [row_to_event(r) for r in rows]

    def stream_version(self, stream_id: str) -> int:
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT max(version) FROM events WHERE stream_id = %s", (stream_id,)
            ).fetchone()
        return int(row[0] or 0) if row else 0

    def last_position(self) -> int:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT max(position) FROM events").fetchone()
        return int(row[0] or 0) if row else 0

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        """LISTEN/NOTIFY wake-up, re-checked by polling every ``poll_interval``."""
        deadline = time.monotonic() + timeout
        listener = self._listen_lock.acquire(blocking=False) if self.use_listen else False
        try:
            while True:
                if self.last_position() > after_position:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                wait = min(remaining, self.poll_interval)
                if listener and self._wait_notify(wait):
                    continue
                time.sleep(wait)
        finally:
            if listener:
                self._listen_lock.release()

    def _wait_notify(self, wait: float) -> bool:
        """Wait on the listening connection; False if it is unusable (poll instead)."""
        try:
            if self._listener is None or self._listener.closed:
                conn: psycopg.Connection[Row] = psycopg.connect(self.conninfo, autocommit=True)
                conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
                self._listener = conn
                return True  # re-check: events may have come before LISTEN took hold
            for _ in self._listener.notifies(timeout=wait, stop_after=1):
                pass
            return True
        except psycopg.Error:
            if self._listener is not None:
                self._listener.close()
            self._listener = None
            return False
