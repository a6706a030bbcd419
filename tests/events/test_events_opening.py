"""Opening stores: URLs, migrations under concurrent openers, and cold caches."""

from __future__ import annotations

import threading
import uuid

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict
from store_kit import PG_DSN, StoreSpec, discard

from events.hashchain import verify_chain
from events.store import open_store
from events.store.migrations import migrations
from events.store.postgres import PostgresEventStore
from events.store.sqlite import SqliteEventStore


def test_a_url_opens_the_matching_store(tmp_path: object, pg_schema: str) -> None:
    lite = open_store(f"sqlite:///{tmp_path}/by-url.sqlite3")
    assert isinstance(lite, SqliteEventStore)
    lite.close()
    params = conninfo_to_dict(PG_DSN)
    url = (f"postgresql://{params.get('user', 'postgres')}@{params.get('host', '127.0.0.1')}:"
           f"{params.get('port', 5432)}/{params['dbname']}?schema={pg_schema}")
    pg = open_store(url)
    assert isinstance(pg, PostgresEventStore) and pg.schema == pg_schema
    pg.close()


def test_stores_opened_at_once_on_a_new_database_migrate_it_exactly_once(
    spec: StoreSpec, tmp_path: object
) -> None:
    fresh = (StoreSpec("sqlite", f"{tmp_path}/fresh.sqlite3") if spec.kind == "sqlite"
             else StoreSpec("postgres", PG_DSN, f"fresh_{uuid.uuid4().hex[:8]}"))
    errors: list[BaseException] = []

    def open_and_close() -> None:
        try:
            fresh.open().close()
        except BaseException as exc:
            errors.append(exc)

    openers = [threading.Thread(target=open_and_close) for _ in range(4)]
    for t in openers:
        t.start()
    for t in openers:
        t.join()
    try:
        assert not errors, errors
        recorded = sorted(fresh.execute("SELECT version FROM schema_migrations"))
        assert recorded == [(m.version,) for m in migrations(fresh.kind)]
    finally:
        if fresh.kind == "postgres":
            with psycopg.connect(PG_DSN, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(fresh.schema)))


def test_a_store_that_never_read_a_stream_can_still_append_to_it(spec: StoreSpec) -> None:
    first, second = spec.open(), spec.open()
    try:
        first.append("t", 0, [discard(), discard(1)])
        appended = second.append("t", 2, [discard(2)])
        assert appended[0].prev_hash == first.read_stream("t")[1].hash
        verify_chain(second.read_stream("t"))
    finally:
        first.close()
        second.close()
