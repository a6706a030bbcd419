"""Fixtures for the event store tests: a SQLite file per test and a real PostgreSQL.

PostgreSQL: ``PAIJU_TEST_PG`` (default ``host=127.0.0.1 port=5432 user=postgres
dbname=paiju_test``); the database is created if absent, each test session gets
a fresh schema (dropped at the end) and every test starts from empty tables.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from pg_reset import empty_schema, ensure_database
from psycopg import conninfo as pg_conninfo
from psycopg import sql
from store_kit import PG_DSN, StoreSpec

from events.store.base import EventStore

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    params = pg_conninfo.conninfo_to_dict(PG_DSN)
    dbname = str(params.get("dbname", "paiju_test"))
    admin = pg_conninfo.make_conninfo(PG_DSN, dbname="postgres")
    ensure_database(dbname, admin)
    schema = f"test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    yield schema
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture(params=BACKENDS)
def spec(request: pytest.FixtureRequest, tmp_path: object) -> StoreSpec:
    if request.param == "sqlite":
        return StoreSpec("sqlite", str(tmp_path) + "/events.sqlite3")
    schema = request.getfixturevalue("pg_schema")
    spec = StoreSpec("postgres", PG_DSN, schema)
    spec.open().close()  # migrate
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        empty_schema(conn, schema)
    return spec


@pytest.fixture
def store(spec: StoreSpec) -> Iterator[EventStore]:
    opened = spec.open()
    yield opened
    opened.close()
