"""Workers for real: ``paiju worker`` on the machine's Redis and PostgreSQL, and the embedded path.

``redis_postgres``: a worker subprocess (started once per module) on the shared Redis, every key
under a prefix of this run's own, and a fresh PostgreSQL schema; its JSON log lines go to a
file the tests read. ``embedded_sqlite``: ``memory://`` and a worker thread in this process on
a SQLite file. Both give a ``Through``: the app to send with, a store to await outcomes on, and
the worker's log lines.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator

import pytest
from pg_reset import fresh_schema
from worker_kit import REDIS_URL, Through, forget_keys, paiju, stop

from events.store import open_store
from services.settings import load_settings
from workers.app import create_app
from workers.embedded import EmbeddedWorker
from workers.logging import configure_logging, unconfigure_logging

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


@pytest.fixture(scope="module")
def pg_schema_url() -> Iterator[str]:
    with fresh_schema("workers") as schema:
        yield f"{PG_URL}?schema={schema}"


@pytest.fixture(scope="module")
def redis_postgres(
    pg_schema_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Through]:
    prefix = f"paiju-test-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
    env = {
        **os.environ,
        "PAIJU_BROKER_URL": REDIS_URL,
        "PAIJU_KEY_PREFIX": prefix,
        "PAIJU_STORE_URL": pg_schema_url,
        "PAIJU_LOG_FORMAT": "json",
        "PAIJU_LOG_LEVEL": "INFO",
    }
    settings = load_settings(broker_url=REDIS_URL, key_prefix=prefix, store_url=pg_schema_url)
    store = open_store(pg_schema_url)  # migrates before the worker opens it
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    with log_path.open("w") as log:
        worker = subprocess.Popen(
            [*paiju(), "worker", "--concurrency", "2", "--queues", "commands"],
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    try:
        yield Through("redis_postgres", create_app(settings), store, log_path, worker.pid)
    finally:
        stop(worker)
        store.close()
        forget_keys(prefix)


@pytest.fixture(scope="module")
def embedded_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Through]:
    root = tmp_path_factory.mktemp("embedded")
    settings = load_settings(store_url=f"sqlite:///{root}/embedded.sqlite3")
    app = create_app(settings)
    store = open_store(settings.store_url)
    log_path = root / "worker.log"
    with log_path.open("w") as log:
        configure_logging("INFO", "json", stream=log)
        try:
            with EmbeddedWorker(app, concurrency=2):
                yield Through("embedded_sqlite", app, store, log_path)
        finally:
            unconfigure_logging()
            store.close()


@pytest.fixture(params=["redis_postgres", "embedded_sqlite"])
def through(request: pytest.FixtureRequest) -> Through:
    through: Through = request.getfixturevalue(request.param)
    return through
