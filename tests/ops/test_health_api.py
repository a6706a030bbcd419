"""The API's liveness and readiness: ``/readyz`` fails while the store or the broker is down,
says which and why, and passes again once it is back; ``/healthz`` answers throughout."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from ops_kit import Part, PrivateRedis, TcpRelay, free_port, samples, until
from pg_reset import fresh_schema

from ops.health import assess
from services.api.app import create_api
from services.api.context import ApiContext
from services.settings import Settings, load_settings

BEAT = {"heartbeat_seconds": 0.2, "heartbeat_stale_seconds": 2.0,
        "api_rate_limit_anonymous": "1000/second"}  # the tests poll /readyz


@pytest.fixture
def api_of() -> Iterator[Any]:
    opened: list[tuple[ApiContext, TestClient]] = []

    def open_api(settings: Settings) -> TestClient:
        ctx = ApiContext.open(settings)
        client = TestClient(create_api(ctx)).__enter__()
        opened.append((ctx, client))
        return client

    yield open_api
    for ctx, client in opened:
        client.__exit__(None, None, None)
        ctx.close()


def _ready(http: TestClient) -> tuple[int, dict[str, Any]]:
    response = http.get("/readyz")
    return response.status_code, response.json()


def test_the_api_is_not_ready_while_its_broker_is_down_and_says_so_then_ready_when_it_is_back(
    private_redis: PrivateRedis, store_url: str, tmp_path: Path, api_of: Any
) -> None:
    env = {**os.environ, "PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": store_url,
           "PAIJU_HEARTBEAT_SECONDS": "0.2"}  # fmt: skip
    timekeeper = Part("timekeeper", ["timekeeper"], env, tmp_path)
    timekeeper.start()
    try:
        http = api_of(load_settings(broker_url=private_redis.url, store_url=store_url, **BEAT))
        assert until(lambda: _ready(http)[1]["parts"]["timekeeper"]["healthy"], 30), (
            _ready(http), timekeeper.log_text())
        status, report = _ready(http)
        assert status == 200 and report["ready"] and report["broker"]["healthy"]
        assert report["parts"]["worker"]["problems"] == [
            "no worker heartbeat: none is running, or none has written one yet"]
        assert samples(http.get("/metrics").text, "paiju_broker_up") == {(): 1}

        private_redis.stop()
        status, report = _ready(http)
        assert status == 503 and not report["ready"]
        assert report["broker"]["problems"][0].startswith("broker unreachable: ")
        assert not report["parts"]["timekeeper"]["healthy"]
        assert report["store"]["healthy"]
        assert http.get("/healthz").status_code == 200
        assert samples(http.get("/metrics").text, "paiju_broker_up") == {(): 0}

        private_redis.start()
        assert until(lambda: _ready(http)[1]["parts"]["timekeeper"]["healthy"], 30), _ready(http)
        assert _ready(http)[0] == 200
    finally:
        timekeeper.stop()


def test_the_api_is_not_ready_while_postgresql_is_unreachable_and_ready_when_it_is_back(
    api_of: Any,
) -> None:
    relay = TcpRelay(("127.0.0.1", 5432)).start()
    try:
        with fresh_schema("ops") as schema:
            url = f"postgresql://postgres@127.0.0.1:{relay.port}/paiju_test?schema={schema}"
            http = api_of(load_settings(store_url=url, **BEAT))
            assert _ready(http)[0] == 200
            relay.stop()
            status, report = _ready(http)
            assert status == 503
            assert report["store"]["problems"][0].startswith("store unreachable: ")
            assert report["broker"]["healthy"]  # memory://, in this process
            relay.start()
            assert until(lambda: _ready(http)[0] == 200, 20), _ready(http)
    finally:
        relay.stop()


def test_a_postgresql_store_at_a_closed_port_is_reported_unreachable_with_the_reason() -> None:
    closed = f"postgresql://postgres@127.0.0.1:{free_port()}/paiju_test?schema=nowhere"
    report = assess(load_settings(store_url=closed, **BEAT), parts=[])
    assert not report.ready and report.broker is None
    assert report.store is not None and report.store.startswith("store unreachable: ")
    assert "refused" in report.store.lower()
