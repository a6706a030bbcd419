"""The PostgreSQL event store (psycopg 3, ``psycopg_pool``).

Global order — why a tailer can never overtake. Every append runs the SQL
function ``paiju_append`` (see ``events/migrations/0001_initial.postgres.sql``)
which first takes ``pg_advisory_xact_lock`` on one key per schema, and only then
draws positions from the identity sequence (``CACHE 1``). The lock is released
after the commit is visible, so appends commit one at a time in position order
and every reader's snapshot contains a gap-free prefix of the committed
positions: reading ``position >= p`` never skips an event that commits later.
We chose a lock over a transaction-id horizon (``pg_snapshot_xmin``) because it
keeps ``position`` itself the cursor, with no extra filter for readers. It is an
advisory lock rather than ``LOCK TABLE events``: a table lock would also conflict
with autovacuum on ``events`` (appends would stall behind an anti-wraparound
vacuum). Aborted appends leave gaps in positions, which tailers ignore.

One round trip per command: the client computes the hash chain from the head it
last saw of the stream (kept in a small cache; the function refuses with the
actual head if the cache is stale, and the client retries once), and the
function checks the command id and the expected version, inserts the events and
the idempotency record, and notifies ``paiju_events:<schema>`` — all in the one
implicit transaction of an autocommit statement.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import sql
from psycopg.types.json import Json, Jsonb
from psycopg_pool import ConnectionPool

from events.envelope import JSONDict, NewEvent, RecordedEvent
from events.fairness import commit_seed
from events.hashchain import GENESIS_HASH, command_digest, format_time
from events.store.base import (
    EVENT_COLUMNS,
    CommandConflictError,
    ConcurrencyError,
    RejectedBatchError,
    SeedError,
    Snapshot,
    StoreError,
    check_append_args,
    draft_batch,
    row_to_event,
)
from events.store.migrations import migrate_postgres

_APPEND = "SELECT * FROM paiju_append(%s, %s, %s, %s, %s, %s, %s)"
Row = tuple[Any, ...]


class PostgresEventStore:
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
        with psycopg.connect(conninfo, autocommit=True) as conn:
            migrate_postgres(conn, schema)
        self._pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            conninfo, min_size=min_size, max_size=max_size, open=True,
            kwargs=self._connect_kwargs(),
        )

    def _connect_kwargs(self) -> dict[str, Any]:
        quoted = '"' + self.schema.replace('"', '""') + '"'
        return {"autocommit": True, "options": f"-c search_path={quoted}"}

    def close(self) -> None:
        self._pool.close()
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
    ) -> list[RecordedEvent]:
        check_append_args(stream_id, expected_version, command_id)
        digest = command_digest(stream_id, command)
        prev_hash = GENESIS_HASH if expected_version == 0 else self._cached_head(stream_id, expected_version)
        with self._pool.connection() as conn:
            for _attempt in range(2):
                drafts = draft_batch(stream_id, expected_version, prev_hash or GENESIS_HASH,
                                     events, command_id, command)
                try:
                    rows = conn.execute(_APPEND, (
                        stream_id, expected_version, prev_hash, command_id, digest,
                        None if command is None else Json(command),
                        Json([_draft_json(d.version, d.event, d.recorded_at, d.prev_hash, d.hash)
                               for d in drafts]),
                    )).fetchall()
                except psycopg.errors.IntegrityError as exc:
                    raise RejectedBatchError(stream_id, str(exc).splitlines()[0]) from exc
                status = rows[0][0] if rows else "ok"
                if status == "ok":
                    positions = {int(r[1]): int(r[2]) for r in rows}
                    if drafts:
                        self._remember(stream_id, drafts[-1].version, drafts[-1].hash)
                    return [d.recorded(positions[d.version]) for d in drafts]
                _, version, extra, head = rows[0]
                if status == "duplicate":
                    return self._read_range(conn, stream_id, int(version), int(extra))
                if status == "command_conflict":
                    raise CommandConflictError(str(command_id), stream_id, str(head))
                self._remember(stream_id, int(version), str(head))
                if status == "conflict":
                    raise ConcurrencyError(stream_id, expected_version, int(version))
                prev_hash = str(head)  # stale_head: our cached head was unknown; retry once
        raise StoreError(f"stream {stream_id!r}: could not agree on the head hash")

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
        with self._pool.connection() as conn:
            found = conn.execute(
                "SELECT stream_id, digest, first_version, last_version FROM commands"
                " WHERE command_id = %s", (command_id,),
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
            " AND version BETWEEN %s AND %s ORDER BY version", (stream_id, first, last),
        ).fetchall()
        return [row_to_event(r) for r in rows]

    def read_stream(self, stream_id: str, from_version: int = 1) -> list[RecordedEvent]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE stream_id = %s AND version >= %s"
                " ORDER BY version", (stream_id, from_version),
            ).fetchall()
        events = [row_to_event(r) for r in rows]
        if events:
            self._remember(stream_id, events[-1].version, events[-1].hash)
        return events

    def read_all(self, from_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE position >= %s"
                " ORDER BY position LIMIT %s", (from_position, limit),
            ).fetchall()
        return [row_to_event(r) for r in rows]

    def stream_version(self, stream_id: str) -> int:
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

    # -- snapshots ---------------------------------------------------------
    def save_snapshot(
        self, stream_id: str, version: int, state: bytes | JSONDict, schema: str
    ) -> None:
        as_json, as_bytes = (None, bytes(state)) if isinstance(state, bytes) else (Jsonb(state), None)
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO snapshots (stream_id, version, schema_tag, state_json, state_bytes)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (stream_id) DO UPDATE SET"
                " version = excluded.version, schema_tag = excluded.schema_tag,"
                " state_json = excluded.state_json, state_bytes = excluded.state_bytes,"
                " created_at = now() WHERE excluded.version >= snapshots.version",
                (stream_id, version, schema, as_json, as_bytes),
            )

    def load_snapshot(self, stream_id: str, schema: str | None = None) -> Snapshot | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT version, schema_tag, state_json, state_bytes, created_at FROM snapshots"
                " WHERE stream_id = %s", (stream_id,),
            ).fetchone()
        if row is None or (schema is not None and row[1] != schema):
            return None
        state: bytes | JSONDict = bytes(row[3]) if row[3] is not None else row[2]
        return Snapshot(stream_id, row[0], row[1], state, row[4])

    def delete_snapshots(self, stream_id: str | None = None) -> int:
        with self._pool.connection() as conn:
            if stream_id is None:
                cur = conn.execute("DELETE FROM snapshots")
            else:
                cur = conn.execute("DELETE FROM snapshots WHERE stream_id = %s", (stream_id,))
            return cur.rowcount

    # -- sealed seeds ------------------------------------------------------
    def seal_seed(self, stream_id: str, hand: int, seed: str) -> str:
        commitment = commit_seed(seed)
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO sealed_seeds (stream_id, hand, seed, commitment)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (stream_id, hand, seed, commitment),
            )
        if self.load_seed(stream_id, hand) != seed:
            raise SeedError(f"stream {stream_id!r} hand {hand}: another seed is already sealed")
        return commitment

    def load_seed(self, stream_id: str, hand: int) -> str:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT seed FROM sealed_seeds WHERE stream_id = %s AND hand = %s", (stream_id, hand)
            ).fetchone()
        if row is None:
            raise SeedError(f"stream {stream_id!r} hand {hand}: no sealed seed")
        return str(row[0])

    def reveal(self, stream_id: str, hand: int) -> str:
        with self._pool.connection() as conn:
            row = conn.execute(
                "UPDATE sealed_seeds SET revealed_at = coalesce(revealed_at, now())"
                " WHERE stream_id = %s AND hand = %s RETURNING seed", (stream_id, hand),
            ).fetchone()
        if row is None:
            raise SeedError(f"stream {stream_id!r} hand {hand}: no sealed seed")
        return str(row[0])


def _draft_json(
    version: int, event: NewEvent, recorded_at: Any, prev_hash: str, hash_: str
) -> JSONDict:
    return {
        "version": version, "event_id": str(event.event_id), "type": event.type,
        "schema_version": event.schema_version, "payload": event.payload,
        "recorded_at": format_time(recorded_at), "actor_kind": event.actor.kind,
        "actor_seat": event.actor.seat, "rules_version": event.rules_version,
        "prev_hash": prev_hash, "hash": hash_,
    }
