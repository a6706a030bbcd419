"""Shared by the backup tests: each stream's head (version and hash), a tampered event, and a
PostgreSQL database of a test's own (the restore target), dropped afterwards."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing

import psycopg
from pg_reset import PG_ADMIN
from psycopg import sql

from events.store import open_store
from services.cli.audit import stream_ids


def heads(url: str) -> dict[str, tuple[int, str]]:
    """Every stream of the store and its head: (version, hash) of its last event."""
    with closing(open_store(url)) as store:
        found = {}
        for stream_id in stream_ids(store):
            last = store.read_stream(stream_id)[-1]
            found[stream_id] = (last.version, last.hash)
        return found


FIRST_DISCARD = (
    "SELECT version, payload FROM events WHERE stream_id = {p} AND type = 'tile_discarded' "
    "ORDER BY version LIMIT 1"
)
SET_PAYLOAD = "UPDATE events SET payload = {p} WHERE stream_id = {p} AND version = {p}"


def _altered(payload: object) -> str:
    """The discard's payload naming another tile: what an edit of the database would leave."""
    fields = json.loads(payload) if isinstance(payload, str) else dict(payload)  # type: ignore[call-overload]
    fields["tile"] = "1m" if fields["tile"] != "1m" else "2m"
    return json.dumps(fields)


def tamper_sqlite(path: str, table: str) -> int:
    """Change the table's first discard in place; its version."""
    with closing(sqlite3.connect(path)) as conn, conn:
        version, payload = conn.execute(FIRST_DISCARD.format(p="?"), [table]).fetchone()
        conn.execute(SET_PAYLOAD.format(p="?"), [_altered(payload), table, version])
    return int(version)


def tamper_postgres(dsn: str, schema: str, table: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        row = conn.execute(FIRST_DISCARD.format(p="%s"), [table]).fetchone()
        assert row is not None
        version, payload = row
        conn.execute(SET_PAYLOAD.format(p="%s"), [_altered(payload), table, version])
    return int(version)


@contextlib.contextmanager
def own_database(prefix: str) -> Iterator[str]:
    """A new, empty database on the shared server, dropped afterwards; its name."""
    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield name
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
