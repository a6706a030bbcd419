"""Read models on both stores: a SQLite file per test, and a fresh PostgreSQL schema per test."""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Iterator

import psycopg
import pytest
from pg_reset import empty_schema, fresh_schema
from psycopg import sql

from events.store import open_store
from readmodels.db import Lease, PostgresProjectionDB

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


@pytest.fixture(scope="session")
def projections_schema() -> Iterator[str]:
    with fresh_schema("projections") as schema:
        yield schema


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: object) -> str:
    """A store URL; the read models live in the same database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/projections.sqlite3"
    schema = request.getfixturevalue("projections_schema")
    with contextlib.closing(open_store(f"{PG_URL}?schema={schema}")):
        pass
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        empty_schema(conn, schema)
        for (table,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename ~ '_b[0-9]+$'",
            (schema,),
        ).fetchall():  # a build's tables: dropped, as its row in projection_builds is gone
            conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(schema, table)))
    return f"{PG_URL}?schema={schema}"


@pytest.fixture(autouse=True)
def leases_let_go(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every lease a test's projectors took is let go when the test ends. The PostgreSQL
    schema is one for the session, so a lease a test left held (a projector never closed,
    its connection kept until the garbage collector came by) held that build's advisory lock
    into the next tests: on PostgreSQL the fault test's points then stood still."""
    taken: weakref.WeakSet[Lease] = weakref.WeakSet()  # one dropped closes as it always did
    try_lead = PostgresProjectionDB.try_lead

    def recorded(self: PostgresProjectionDB, name: str, build: int, partition: int = 0) -> Lease | None:
        lease = try_lead(self, name, build, partition)
        if lease is not None:
            taken.add(lease)
        return lease

    monkeypatch.setattr(PostgresProjectionDB, "try_lead", recorded)
    yield
    for lease in list(taken):
        lease.release()
