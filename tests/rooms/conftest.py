"""Rooms on both stores: a SQLite file per test, and a PostgreSQL schema emptied per test."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import psycopg
import pytest
from pg_reset import PG_DSN, PG_URL, empty_schema, fresh_schema
from psycopg import sql

from events.store import open_store
from events.store.base import EventStore
from services.rooms.service import RoomService
from services.rooms.starter import DirectStarter
from services.tables.service import TableService


@pytest.fixture(scope="session")
def rooms_schema() -> Iterator[str]:
    with fresh_schema("rooms") as schema:
        yield schema


@pytest.fixture
def pg_url(rooms_schema: str) -> str:
    url = f"{PG_URL}?schema={rooms_schema}"
    with contextlib.closing(open_store(url)):
        pass
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        empty_schema(conn, rooms_schema)
        for (table,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s AND tablename ~ '_b[0-9]+$'",
            (rooms_schema,),
        ).fetchall():  # a read model build's tables: dropped, as its row in projection_builds is
            conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(rooms_schema, table)))
    return url


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: object) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/rooms.sqlite3"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def store(url: str) -> Iterator[EventStore]:
    with contextlib.closing(open_store(url)) as found:
        yield found


@pytest.fixture
def tables(store: EventStore) -> TableService:
    return TableService(store)


@pytest.fixture
def rooms(store: EventStore, tables: TableService) -> RoomService:
    return RoomService(store, DirectStarter(tables))
