"""Fixtures for platform notifications: a store URL on SQLite and on a real PostgreSQL (a
fresh schema per test session, as ``tests/tables``), and a real webhook receiver."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from effects_kit import SECRET, Receiver, empty_pg_url
from pg_reset import fresh_schema


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    with fresh_schema("effects") as schema:
        yield schema


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
