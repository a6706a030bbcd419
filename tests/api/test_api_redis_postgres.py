"""The whole path in production shape: the API process's app on Redis, a ``paiju worker``
subprocess running the commands, the PostgreSQL store, and the stream on a real socket."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from api_kit import Api, a_discard, new_id, open_dealt_table_sync, read_events
from pg_reset import ensure_database
from psycopg import sql

from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.settings import load_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workers"))
from worker_kit import REDIS_URL, forget_keys, paiju, stop  # noqa: E402

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    ensure_database("paiju_test")
    schema = f"api_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    store_url = f"{PG_URL}?schema={schema}"
    prefix = f"paiju-api-test-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
    settings = load_settings(broker_url=REDIS_URL, key_prefix=prefix, store_url=store_url,
                             api_drop_grace_seconds=0.3, api_heartbeat_seconds=0.3,
                             api_command_wait=10)  # fmt: skip
    ctx = ApiContext.open(settings)  # migrates before the worker opens the store
    env = {**os.environ, "PAIJU_BROKER_URL": REDIS_URL, "PAIJU_KEY_PREFIX": prefix,
           "PAIJU_STORE_URL": store_url, "PAIJU_LOG_LEVEL": "WARNING"}  # fmt: skip
    log = tmp_path_factory.mktemp("api-worker") / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen([*paiju(), "worker", "--concurrency", "2", "--queues", "commands"],
                                  env=env, stdout=out, stderr=out, start_new_session=True)  # fmt: skip
    server = ApiServer(create_api(ctx)).start()
    try:
        key = ctx.keys.create(["tables", "tokens"], "production test").token
        yield Api(ctx, server.address, key)
    finally:
        server.stop()
        stop(worker)
        ctx.close()
        forget_keys(prefix)
        with psycopg.connect(PG_DSN, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def test_a_table_plays_over_http_through_a_worker_process_on_redis_and_postgresql(
    production: Api,
) -> None:
    with httpx.Client(base_url=production.base, timeout=15) as http:
        table = open_dealt_table_sync(http, production.key)
        seat, discard = a_discard(http, table)
        before = production.ctx.store.stream_version(table.table_id)
        first = read_events(production.base, table, seat, before)
        moved = http.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                          headers={**table.seat(seat), "Idempotency-Key": new_id("c")})  # fmt: skip
        assert moved.status_code == 200 and moved.json()["status"] == "accepted"
        target = moved.json()["last_version"]
        resumed = read_events(production.base, table, seat, target - before,
                              headers={**table.seat(seat), "Last-Event-ID": str(before)})  # fmt: skip
        assert [int(e["id"]) for e in first + resumed] == list(range(1, target + 1))
        assert resumed[0]["data"]["payload"]["tile"] == discard["tile"]
        other = (seat + 1) % 4
        refused = http.post(f"/v1/tables/{table.table_id}/commands", json={"command": "raise_wild_pair", "seat": other},
                            headers={**table.seat(other), "Idempotency-Key": new_id("c")})  # fmt: skip
        assert refused.status_code == 409, refused.text
        assert (refused.json()["outcome"]["status"], refused.json()["outcome"]["code"]) == (
            "refused",
            "refused_by_rules",
        )
