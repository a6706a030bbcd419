"""What a PostgreSQL store keeps beside the events: snapshots of folded tables and the sealed
seeds of the deals (mixed into ``PostgresEventStore``; the contract is ``events.store.base``)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from events.envelope import JSONDict, check_id
from events.fairness import commit_seed
from events.store.base import SeedError, Snapshot

Row = tuple[Any, ...]


class PostgresSnapshots:
    """Snapshots: one per stream, the latest version kept."""

    _pool: ConnectionPool[psycopg.Connection[Row]]

    def save_snapshot(
        self, stream_id: str, version: int, state: bytes | JSONDict, schema: str
    ) -> None:
        check_id("stream_id", stream_id)
        as_json, as_bytes = (
            (None, bytes(state)) if isinstance(state, bytes) else (Jsonb(state), None)
        )
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
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT version, schema_tag, state_json, state_bytes, created_at FROM snapshots"
                " WHERE stream_id = %s",
                (stream_id,),
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


class PostgresSeeds:
    """Sealed seeds: each hand's seed, committed before the deal and revealed after it."""

    _pool: ConnectionPool[psycopg.Connection[Row]]

    def seal_seed(self, stream_id: str, hand: int, seed: str) -> str:
        check_id("stream_id", stream_id)
        check_id("seed", seed)
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
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT seed FROM sealed_seeds WHERE stream_id = %s AND hand = %s",
                (stream_id, hand),
            ).fetchone()
        if row is None:
            raise SeedError(f"stream {stream_id!r} hand {hand}: no sealed seed")
        return str(row[0])

    def reveal(self, stream_id: str, hand: int) -> str:
        check_id("stream_id", stream_id)
        with self._pool.connection() as conn:
            row = conn.execute(
                "UPDATE sealed_seeds SET revealed_at = coalesce(revealed_at, now())"
                " WHERE stream_id = %s AND hand = %s RETURNING seed",
                (stream_id, hand),
            ).fetchone()
        if row is None:
            raise SeedError(f"stream {stream_id!r} hand {hand}: no sealed seed")
        return str(row[0])
