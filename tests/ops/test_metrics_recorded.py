"""What the timekeeper and the webhook deliveries record, as the API or a part serves it."""

from __future__ import annotations

from pathlib import Path

import httpx
from ops_kit import until
from prometheus_client import REGISTRY

from services.rules.table.commands import OpenTable, StartHand
from services.settings import load_settings
from workers.effects.delivery import WebhookConfig, deliver
from workers.effects.outbox import NewDelivery
from workers.effects.outbox_open import open_outbox
from workers.parts import Parts
from workers.timekeeper import Timekeeper, fire_inline

PLAYERS = ("ann", "bo", "cy", "di")


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_fired_timer_is_counted_with_its_lateness(store_url: str) -> None:
    service = Parts(load_settings(store_url=store_url)).table_service()
    table = "late-table"
    service.handle(table, OpenTable(table_id=table, variant="harbin", players=PLAYERS,
                                    timing={"turn": 1}), command_id="open-late")  # fmt: skip
    service.handle(table, StartHand(), command_id="deal-late")
    fired, lateness = (_value("paiju_timers_fired_total", result="fired"),
                       _value("paiju_timer_lateness_seconds_count"))  # fmt: skip
    keeper = Timekeeper(service.store, fire_inline(service))  # type: ignore[arg-type]
    try:
        assert until(lambda: keeper.tick() > 0, 10), "the dealer's turn timer never fell due"
    finally:
        service.store.close()
    assert keeper.failed == 0
    assert _value("paiju_timers_fired_total", result="fired") == fired + keeper.fired
    assert _value("paiju_timer_lateness_seconds_count") == lateness + keeper.fired
    assert _value("paiju_timer_lateness_seconds_sum") >= 0


def test_each_webhook_attempt_is_counted_by_its_result(store_url: str, tmp_path: Path) -> None:
    answers = iter([500, 204])
    transport = httpx.MockTransport(lambda request: httpx.Response(next(answers)))
    config = WebhookConfig("http://platform.test/hooks", "s" * 32, max_attempts=5,
                           backoff_base=0.01, backoff_cap=0.01)  # fmt: skip
    outbox = open_outbox(store_url)
    before = {r: _value("paiju_webhook_deliveries_total", result=r) for r in ("retry", "delivered")}
    try:
        assert outbox.checkpoint("ops-test") == 0  # as a reactor starts
        outbox.advance("ops-test", 0, 1, [NewDelivery("k-1", 1, "t-1", "hand_settled", b"{}")])
        with httpx.Client(transport=transport) as client:
            for _ in range(2):
                (claim,) = _claim(outbox)
                deliver(outbox, claim.key, claim.token, config, client)
    finally:
        outbox.close()
    assert _value("paiju_webhook_deliveries_total", result="retry") == before["retry"] + 1
    assert _value("paiju_webhook_deliveries_total", result="delivered") == before["delivered"] + 1


def _claim(outbox: object) -> list[object]:
    import time

    for _ in range(200):  # the retry falls due after its 0.01 s backoff
        claims = outbox.claim_due(1, 30.0)  # type: ignore[attr-defined]
        if claims:
            return list(claims)
        time.sleep(0.01)
    raise AssertionError("no delivery fell due")


def test_a_part_whose_metrics_port_is_taken_runs_on_without_metrics(store_url: str) -> None:
    from ops_kit import free_port, scrape

    from ops.metrics_serve import serve_metrics

    settings = load_settings(store_url=store_url, metrics_port=free_port())
    first = serve_metrics(settings)
    assert first is not None
    try:
        assert serve_metrics(settings) is None  # the same port: refused, logged, not raised
        assert scrape(first.address).startswith("# HELP")
    finally:
        first.stop()
