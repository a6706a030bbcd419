"""PostgreSQL for the tests: a schema of a test run's own, and starting one empty."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import sql

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


def ensure_database(name: str, admin: str = PG_ADMIN) -> None:
    """Make the database ``name`` if absent. Test workers race to make it on a fresh machine:
    the loser sees DuplicateDatabase or, when both passed the catalog check at once, the
    catalog's own unique index (UniqueViolation)."""
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            return
        with contextlib.suppress(psycopg.errors.DuplicateDatabase, psycopg.errors.UniqueViolation):
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


@contextlib.contextmanager
def fresh_schema(prefix: str) -> Iterator[str]:
    """A new schema in ``paiju_test`` (the database made if absent), dropped afterwards."""
    ensure_database("paiju_test")
    schema = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    try:
        yield schema
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def empty_schema(conn: psycopg.Connection[Any], schema: str) -> None:
    """TRUNCATE every table of ``schema`` but the migrations' own record."""
    rows = conn.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename <> 'schema_migrations'",
        (schema,),
    ).fetchall()
    if rows:
        names = sql.SQL(", ").join(sql.Identifier(schema, str(r[0])) for r in rows)
        conn.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY").format(names))
