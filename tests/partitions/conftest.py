"""Deployments of a home store and table stores (partitions) for the tests: SQLite files, or
schemas of the test PostgreSQL server (``?schema=`` counts as a store of its own)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from partition_kit import Deploy, settings_of
from pg_reset import PG_DSN, PG_URL, ensure_database
from psycopg import sql

from workers.parts import Parts


@pytest.fixture(params=["sqlite", "postgres"])
def deploy(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[Deploy]:
    """``deploy(n)``: the parts of a deployment with a home store and ``n`` table stores."""
    made: list[Parts] = []
    schemas: list[str] = []

    def url(name: str) -> str:
        if request.param == "sqlite":
            return f"sqlite:///{tmp_path}/{name}.sqlite3"
        schema = f"part_{name}_{uuid.uuid4().hex[:8]}"
        schemas.append(schema)
        return f"{PG_URL}?schema={schema}"

    def make(n: int) -> Parts:
        if request.param == "postgres":
            ensure_database("paiju_test")
        settings = settings_of(url("home"), {k: url(f"t{k}") for k in range(1, n + 1)})
        parts = Parts(settings)
        made.append(parts)
        return parts

    yield make
    for parts in made:
        parts.close()
    with contextlib.suppress(psycopg.Error), psycopg.connect(PG_DSN, autocommit=True) as conn:
        for schema in schemas:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
