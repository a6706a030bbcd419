"""A small migrator: versioned SQL files shipped in ``events/migrations``.

Files are named ``NNNN_name.<backend>.sql`` (backend ``postgres`` or ``sqlite``)
and applied in order, each in its own transaction together with a row in
``schema_migrations`` recording it; a version already recorded is skipped.
Stores run ``migrate_*`` when they open, so concurrent openers are safe: on
PostgreSQL they queue on an advisory lock, on SQLite on the write lock (and the
loser of a race finds the version recorded and moves on).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import psycopg
from psycopg import sql

Backend = Literal["postgres", "sqlite"]
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.(postgres|sqlite)\.sql$")
_PG_LOCK_KEY = "paiju_migrations"
MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
"""Shipped as package data of ``events`` (``events/migrations/*.sql``)."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(backend: Backend) -> list[Migration]:
    """The migrations shipped for ``backend``, in version order."""
    found: list[Migration] = []
    for entry in MIGRATIONS_DIR.iterdir():
        match = _NAME.match(entry.name)
        if match and match.group(3) == backend:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"duplicate migration versions for {backend}: {versions}")
    return found


def migrate_postgres(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> list[int]:
    """Create ``schema`` if absent and apply its pending migrations (``conn`` in autocommit).

    Leaves ``conn``'s ``search_path`` set to ``schema``.
    """
    applied_now: list[int] = []
    key = (_PG_LOCK_KEY + ":" + schema,)
    conn.execute("SELECT pg_advisory_lock(hashtext(%s))", key)
    try:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(schema)))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        rows = conn.execute("SELECT version FROM schema_migrations").fetchall()
        done = {int(str(r[0])) for r in rows}
        for migration in migrations("postgres"):
            if migration.version in done:
                continue
            with conn.transaction():
                conn.execute(migration.sql.encode("utf-8"))
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
            applied_now.append(migration.version)
    finally:
        conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", key)
    return applied_now


def migrate_sqlite(conn: sqlite3.Connection) -> list[int]:
    """Apply pending migrations on ``conn`` (opened with ``isolation_level=None``)."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
    )
    applied_now: list[int] = []
    for migration in migrations("sqlite"):
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (migration.version,)
            ).fetchone()
            if row is None:
                for statement in _split_sql(migration.sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                    (migration.version, migration.name),
                )
                applied_now.append(migration.version)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return applied_now


def _split_sql(script: str) -> list[str]:
    """Split a script into complete statements (SQLite's own completeness test)."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current)
            current = ""
    if current.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in current.splitlines()
    ):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {current!r}")
    return statements
