"""The API counts its answers by status class: what ``PaijuApiErrors`` alerts on."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from ops_kit import free_port, samples

from services.api.app import create_api
from services.api.context import ApiContext
from services.settings import load_settings


def _counts(text: str) -> dict[str, float]:
    found = samples(text, "paiju_http_responses_total")
    by_class = {dict(labels)["status"]: value for labels, value in found.items()}
    return {status: by_class.get(status, 0.0) for status in ("2xx", "4xx", "5xx")}


def test_the_api_counts_each_answer_by_status_class_a_refused_readiness_as_5xx(
    tmp_path: Path,
) -> None:
    away = f"redis://127.0.0.1:{free_port()}/0"  # no broker there: /readyz answers 503
    ctx = ApiContext.open(load_settings(store_url=f"sqlite:///{tmp_path}/s.sqlite3", broker_url=away))
    try:
        with TestClient(create_api(ctx)) as http:
            before = _counts(http.get("/metrics").text)
            answered = [http.get(path).status_code for path in ("/healthz", "/v1/tables/t-1/view",
                                                                 "/nowhere", "/readyz")]  # fmt: skip
            after = _counts(http.get("/metrics").text)
    finally:
        ctx.close()
    assert answered == [200, 401, 404, 503]
    # the first scrape's own 200 is counted once it was sent, so in the second scrape
    assert {status: after[status] - before[status] for status in after} == {
        "2xx": 2, "4xx": 2, "5xx": 1
    }
