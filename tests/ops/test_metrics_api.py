"""The API's ``/metrics``: what is read when scraped (queue depth in Redis, projection lag,
timers due, rate-limit refusals) beside what the process recorded."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient
from ops_kit import PrivateRedis, samples, until

from readmodels import catalog
from readmodels.db import open_projection_db
from readmodels.runner import Projector
from services.api.app import create_api
from services.api.context import ApiContext
from services.api.limits import COUNTS
from services.rules.table.commands import OpenTable, StartHand
from services.settings import load_settings
from workers.client import submit
from workers.parts import Parts

PLAYERS = ("ann", "bo", "cy", "di")


def test_the_api_serves_queue_depth_projection_lag_timers_due_and_rate_limit_refusals(
    private_redis: PrivateRedis, store_url: str
) -> None:
    settings = load_settings(broker_url=private_redis.url, store_url=store_url,
                             api_rate_limit_anonymous="3/minute")  # fmt: skip
    service = Parts(settings).table_service()
    projector = Projector(service.store, open_projection_db(store_url), catalog.ALL)
    projector.attach()
    projector.catch_up()  # every projection at the head: no lag
    table = f"ops-{uuid.uuid4().hex[:6]}"
    service.handle(table, OpenTable(table_id=table, variant="harbin", players=PLAYERS,
                                    timing={"turn": 1}), command_id=f"open-{table}")  # fmt: skip
    service.handle(table, StartHand(), command_id=f"deal-{table}")  # the dealer's turn: 1 s
    head = service.store.last_position()  # type: ignore[attr-defined]
    refused = COUNTS.snapshot()["refused"]
    assert isinstance(refused, dict)
    refused_before = refused.get("anonymous", 0)  # the count is the process's: other tests too
    ctx = ApiContext.open(settings)
    operator = {"Authorization": f"Bearer {ctx.keys.create(['operator'], 'ops').token}"}
    try:
        with TestClient(create_api(ctx)) as http:
            for n in range(3):  # no worker serves the queue: they wait in Redis
                submit(ctx.app, table, {"command": "pass_claim", "seat": 1}, command_id=f"q-{n}")
            # anonymous callers of a route (the probes are never limited): the fourth refused
            anonymous = [http.get(f"/v1/tables/{table}/view").status_code for _ in range(4)]

            def scraped() -> str:
                response = http.get("/metrics", headers=operator)
                assert response.status_code == 200, response.text
                return response.text

            assert until(lambda: samples(scraped(), "paiju_timers_due") == {(): 1}, 10)
            text = scraped()
    finally:
        projector.close()
        projector.db.close()
        service.store.close()
        ctx.close()
    assert anonymous == [401, 401, 401, 429]
    assert samples(text, "paiju_rate_limit_refusals_total")[(("limit", "anonymous"),)] == refused_before + 1
    assert samples(text, "paiju_queue_depth")[(("queue", "commands"),)] == 3
    assert samples(text, "paiju_broker_up") == {(): 1}
    assert samples(text, "paiju_store_head_position") == {(): head}
    lag = samples(text, "paiju_projection_lag")
    assert set(lag) == {(("projection", p.name),) for p in catalog.ALL}
    assert set(lag.values()) == {head}  # caught up on the empty store, before the table
    assert all(value == 0 for value in samples(text, "paiju_projection_stopped").values())
