"""Fixtures of the fault tests: a fresh PostgreSQL schema on the machine's server (never
restarted), and a private redis-server the test may kill or restart (never the shared one)."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fault_kit import PrivateRedis
from psycopg import sql

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


@pytest.fixture
def faults_pg_url() -> Iterator[str]:
    """A PostgreSQL store URL on a schema of this test's own, dropped after it."""
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'paiju_test'").fetchone():
            with contextlib.suppress(psycopg.errors.DuplicateDatabase):
                conn.execute("CREATE DATABASE paiju_test")
    schema = f"faults_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    yield f"{PG_URL}?schema={schema}"
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    root = tmp_path / "redis"
    root.mkdir()
    server = PrivateRedis(root)
    server.start()
    try:
        yield server
    finally:
        server.stop()
