"""Fixtures of the fault tests: a fresh PostgreSQL schema on the machine's server (never
restarted), and a private redis-server the test may kill or restart (never the shared one)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fault_kit import private_redis  # noqa: F401  (the fixture, shared with tests/ops)
from pg_reset import fresh_schema

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


@pytest.fixture
def faults_pg_url() -> Iterator[str]:
    """A PostgreSQL store URL on a schema of this test's own, dropped after it."""
    with fresh_schema("faults") as schema:
        yield f"{PG_URL}?schema={schema}"
