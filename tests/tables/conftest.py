"""Fixtures for the table service: an embedded SQLite store and a real PostgreSQL one.

PostgreSQL comes from ``PAIJU_TEST_PG_URL`` (default: the machine's server, database
``paiju_test``); each test session gets its own schema, dropped at the end.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

import psycopg
import pytest
from pg_reset import empty_schema, fresh_schema

from events.store import open_store
from events.store.base import EventStore

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    with fresh_schema("tables") as schema:
        yield schema


StoreFactory = Callable[[], EventStore]


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: object) -> str:
    """A store URL; opening it twice is how a test restarts the process's view of it."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.sqlite3"
    schema = request.getfixturevalue("pg_schema")
    url = f"{PG_URL}?schema={schema}"
    with contextlib.closing(open_store(url)):  # migrate, then start empty
        pass
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        empty_schema(conn, schema)
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[EventStore]:
    opened = open_store(store_url)
    yield opened
    opened.close()
