"""Fixtures for platform notifications: a store URL on SQLite and on a real PostgreSQL (a
fresh schema per test session, as ``tests/tables``), and a real webhook receiver."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from effects_kit import PG_ADMIN, PG_DSN, SECRET, Receiver, empty_pg_url
from psycopg import sql


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'paiju_test'").fetchone():
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                conn.execute("CREATE DATABASE paiju_test")
    schema = f"effects_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    yield schema
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: object) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/effects.sqlite3"
    return empty_pg_url(request.getfixturevalue("pg_schema"))


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    platform = Receiver(SECRET)
    platform.start()
    yield platform
    platform.stop()
