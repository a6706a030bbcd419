"""Migration 0003 removes the pickled table snapshots that databases written before it hold."""

from __future__ import annotations

import pickle
import sqlite3
import uuid

import psycopg
from psycopg import sql
from store_kit import PG_DSN

from events.store.migrations import migrations
from events.store.postgres import PostgresEventStore
from events.store.sqlite import SqliteEventStore

PICKLED = pickle.dumps({"a": "table state as it used to be stored"})
ROWS = "SELECT stream_id FROM snapshots ORDER BY stream_id"


def test_sqlite_forgets_pickled_table_snapshots_and_keeps_the_others(tmp_path: object) -> None:
    path = f"{tmp_path}/before.sqlite3"
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT"
                     " NOT NULL, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        for migration in [m for m in migrations("sqlite") if m.version < 3]:
            conn.executescript(migration.sql)
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                         (migration.version, migration.name))
        conn.execute("INSERT INTO snapshots VALUES ('old', 9, 'table-state/paiju-rules/1', NULL,"
                     " ?, 'now')", (PICKLED,))
        conn.execute("INSERT INTO snapshots VALUES ('other', 9, 'tiles-v1', '{}', NULL, 'now')")
    SqliteEventStore(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute(ROWS).fetchall() == [("other",)]


def test_postgres_forgets_pickled_table_snapshots_and_keeps_the_others(pg_schema: str) -> None:
    schema = f"{pg_schema}_before_{uuid.uuid4().hex[:6]}"  # pg_schema: the database exists
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        try:
            conn.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text"
                         " NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
            for migration in [m for m in migrations("postgres") if m.version < 3]:
                conn.execute(migration.sql.encode())
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                             (migration.version, migration.name))
            conn.execute("INSERT INTO snapshots (stream_id, version, schema_tag, state_bytes)"
                         " VALUES ('old', 9, 'table-state/paiju-rules/1', %s)", (PICKLED,))
            conn.execute("INSERT INTO snapshots (stream_id, version, schema_tag, state_json)"
                         " VALUES ('other', 9, 'tiles-v1', '{}')")
            PostgresEventStore(PG_DSN, schema=schema).close()
            assert conn.execute(ROWS).fetchall() == [("other",)]
        finally:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
