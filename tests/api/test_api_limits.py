"""Rate limits (限流): per API key, per seat (commands, reads and stream connects apart), per
address for callers with no valid credentials; 429 problems naming the limit with Retry-After;
counted; shared through Redis by every API process of a deployment."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import redis
from api_kit import Api, new_id, open_dealt_table, platform_headers

from services.api.app import create_api
from services.api.limits import COUNTS, Caller, RateLimits
from services.api.problems import Problem
from services.settings import SettingsError, load_settings

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def client_with(api: Api, **limits: Any) -> AsyncIterator[httpx.AsyncClient]:
    """The API on the module's context with these settings (its own, fresh, counts)."""
    settings = api.ctx.settings
    api.ctx.settings = settings.model_copy(update=limits)
    try:
        app = create_api(api.ctx)
    finally:
        api.ctx.settings = settings
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://api.test") as client:
        yield client


def refused_count(limit: str) -> int:
    refused = COUNTS.snapshot()["refused"]
    assert isinstance(refused, dict)
    return int(refused.get(limit, 0))


def assert_refused(answer: httpx.Response, limit: str, owner: str) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    body = answer.json()
    assert body["limit"] == limit and f"the {limit} limit of {owner}" in body["detail"], body
    assert int(answer.headers["retry-after"]) == body["retry_after"] >= 1


async def test_a_seat_over_its_command_limit_is_refused_and_the_other_seats_are_not(api: Api) -> None:
    async with client_with(api, api_rate_limit_commands="2/minute") as client:
        table = await open_dealt_table(client, api.key)
        url = f"/v1/tables/{table.table_id}/commands"

        async def pass_claim(seat: int) -> httpx.Response:
            return await client.post(url, json={"command": "pass_claim", "seat": seat},
                                     headers={**table.seat(seat), "Idempotency-Key": new_id("c")})  # fmt: skip

        before = refused_count("commands")
        # nothing to pass: each refused by the rules (409), each counted against the limit
        assert [(await pass_claim(0)).status_code for _ in range(2)] == [409, 409]
        assert_refused(await pass_claim(0), "commands", f"seat 0 of table {table.table_id!r}")
        assert (await pass_claim(1)).status_code == 409  # another seat's own limit
        view = await client.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(0))
        assert view.status_code == 200  # reads are counted apart
        assert refused_count("commands") == before + 1


async def test_stream_connects_are_limited_apart_from_the_seats_commands(api: Api) -> None:
    async with client_with(api, api_rate_limit_stream_connects="1/minute") as client:
        table = await open_dealt_table(client, api.key)
        events = f"/v1/tables/{table.table_id}/seats/2/events"
        # A refused opening (a malformed Last-Event-ID) is still an attempt: it is counted.
        first = await client.get(events, headers={**table.seat(2), "Last-Event-ID": "soon"})
        assert first.status_code == 400
        again = await client.get(events, headers={**table.seat(2), "Last-Event-ID": "soon"})
        assert_refused(again, "stream_connects", f"seat 2 of table {table.table_id!r}")
        command = await client.post(f"/v1/tables/{table.table_id}/commands",
                                    json={"command": "pass_claim", "seat": 2},
                                    headers={**table.seat(2), "Idempotency-Key": new_id("c")})  # fmt: skip
        assert command.status_code == 409  # past the limit on connects: refused by the rules only
        other_seat = await client.get(f"/v1/tables/{table.table_id}/seats/3/events",
                                      headers={**table.seat(3), "Last-Event-ID": "soon"})  # fmt: skip
        assert other_seat.status_code == 400


async def test_a_key_over_its_limit_is_refused_and_a_forged_secret_spends_none_of_it(api: Api) -> None:
    async with client_with(api, api_rate_limit_key="2/minute", api_rate_limit_anonymous="") as client:
        key = api.ctx.keys.create(["tables", "tokens"], "limited").token
        key_id = key[3:].split(".")[0]
        forged = f"pk_{key_id}.{'x' * 43}"
        for _ in range(3):
            refused = await client.get("/v1/tables/t-x/view", headers=platform_headers(forged))
            assert refused.status_code == 401
        for _ in range(2):
            answer = await client.post("/v1/tables/nowhere/tokens", headers=platform_headers(key),
                                       json={"role": "spectator", "subject": "x"})  # fmt: skip
            assert answer.status_code == 404
        over = await client.post("/v1/tables/nowhere/tokens", headers=platform_headers(key),
                                 json={"role": "spectator", "subject": "x"})  # fmt: skip
        assert_refused(over, "key", f"API key {key_id}")
        other = await client.post("/v1/tables/nowhere/tokens", headers=platform_headers(api.key),
                                  json={"role": "spectator", "subject": "x"})  # fmt: skip
        assert other.status_code == 404


async def test_callers_without_valid_credentials_are_limited_by_address(api: Api) -> None:
    async with client_with(api, api_rate_limit_anonymous="2/minute") as client:
        statuses = [(await client.get("/v1/tables/t-x/view", headers={"Authorization": f"Bearer {bad}"})).status_code
                    for bad in ("nonsense", "pk_0000000000000000.wrongwrongwrongwrong")]  # fmt: skip
        assert statuses == [401, 401]
        over = await client.get("/v1/tables/t-x/view")
        assert_refused(over, "anonymous", "address 127.0.0.1")


async def test_probes_and_scrapes_are_never_rate_limited(api: Api) -> None:
    """A Kubernetes probe or a Prometheus scrape told 429 would make a healthy process look
    down: /healthz, /readyz and /metrics take nothing from the address's limit."""
    async with client_with(api, api_rate_limit_anonymous="2/minute") as client:
        for _ in range(4):
            for path in ("/healthz", "/readyz", "/metrics"):
                assert (await client.get(path)).status_code != 429, path
        assert (await client.get("/v1/tables/t-x/view")).status_code == 401  # its 2 untouched


def limits_on(url: str, prefix: str, commands: str = "3/minute") -> RateLimits:
    return RateLimits(load_settings(api_rate_limit_storage=url, key_prefix=prefix,
                                    api_rate_limit_commands=commands))  # fmt: skip


async def test_api_processes_on_one_redis_count_together(api: Api) -> None:
    prefix = f"paiju-test-limits-{uuid.uuid4().hex[:8]}:"
    first, second = (limits_on("redis://127.0.0.1:6379/0", prefix) for _ in range(2))
    seat = Caller("seat 0 of table 't-r'", "seat:t-r:0", "table")
    try:
        await first.take("commands", seat)
        await second.take("commands", seat)
        await first.take("commands", seat)
        with pytest.raises(Problem) as refused:
            await second.take("commands", seat)
        assert refused.value.status == 429 and refused.value.extensions["limit"] == "commands"
        await first.take("reads", seat)  # another limit, another count
    finally:
        client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
        stored = list(client.scan_iter(f"{prefix}limits*"))
        assert stored, "the counts were kept in Redis under the deployment's prefix"
        client.delete(*stored)
        client.close()


async def test_a_redis_that_is_away_lets_requests_through_and_is_counted(api: Api) -> None:
    away = limits_on("redis://127.0.0.1:1/0", "paiju-test-away:", commands="1/minute")
    seat = Caller("seat 0 of table 't-a'", "seat:t-a:0", "table")
    before = COUNTS.snapshot()["storage_faults"]
    await away.take("commands", seat)
    await away.take("commands", seat)
    assert COUNTS.snapshot()["storage_faults"] == before + 2  # type: ignore[operator]


def test_the_storage_is_memory_when_embedded_and_the_brokers_redis_otherwise() -> None:
    assert load_settings(broker_url="memory://").rate_limit_storage() == "memory://"
    redis_url = "redis://127.0.0.1:6379/4"
    assert load_settings(broker_url=redis_url).rate_limit_storage() == redis_url


def test_a_malformed_limit_is_refused_naming_its_variable() -> None:
    with pytest.raises(SettingsError, match="PAIJU_API_RATE_LIMIT_READS: .*'lots' is not a rate limit"):
        load_settings(api_rate_limit_reads="lots")
