"""Every error is a problem document, a stack trace is never in one (it goes to the server's
log with a correlation id), ids are bounded, and CORS is off unless origins are configured."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import structlog
from api_kit import Api, new_id, open_dealt_table, platform_headers, table_body

from services.api.app import create_api
from services.api.problems import CORRELATION_HEADER, MEDIA_TYPE

pytestmark = pytest.mark.anyio


def assert_problem(answer: httpx.Response, status: int, detail: str) -> dict[str, object]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == MEDIA_TYPE
    body: dict[str, object] = answer.json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    assert detail in str(body["detail"]), body
    assert "Traceback" not in answer.text and ".py" not in answer.text
    return body


@pytest.fixture
async def failing_client(api: Api) -> AsyncIterator[httpx.AsyncClient]:
    """The API with one more route that fails as code can, unexpectedly."""
    app = create_api(api.ctx)

    def failing() -> None:
        raise KeyError("internals: /srv/paiju/services/tables/loader.py, secret=hunter2")

    app.add_api_route("/v1/failing", failing)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://api.test") as client:
        yield client


async def test_an_unexpected_exception_is_a_500_problem_whose_trace_is_only_in_the_log(
    failing_client: httpx.AsyncClient,
) -> None:
    with structlog.testing.capture_logs() as logged:
        answer = await failing_client.get("/v1/failing")
    body = assert_problem(answer, 500, "the server could not answer this request; it was logged")
    assert "hunter2" not in answer.text and "KeyError" not in answer.text
    correlation = body["correlation_id"]
    assert answer.headers[CORRELATION_HEADER] == correlation
    [entry] = [e for e in logged if e["event"] == "api.unexpected"]
    assert entry["correlation_id"] == correlation and entry["path"] == "/v1/failing"
    assert isinstance(entry["exc_info"], KeyError) and entry["exc_info"].__traceback__ is not None


async def test_a_callers_correlation_id_is_kept_and_a_malformed_one_replaced(
    client: httpx.AsyncClient,
) -> None:
    kept = await client.get("/v1/tables/x/view", headers={CORRELATION_HEADER: "platform-req-42"})
    replaced = await client.get("/v1/tables/x/view", headers={CORRELATION_HEADER: "a b" * 50})
    assert kept.headers[CORRELATION_HEADER] == "platform-req-42"
    assert len(replaced.headers[CORRELATION_HEADER]) == 32


async def test_fastapis_own_404_405_and_422_are_problem_documents(
    client: httpx.AsyncClient, api: Api
) -> None:
    no_route = await client.get("/v1/nowhere")
    assert_problem(no_route, 404, "no route '/v1/nowhere'")
    wrong_method = await client.delete("/v1/tables")
    assert_problem(wrong_method, 405, "DELETE is not allowed here; allowed: POST")
    assert wrong_method.headers["allow"] == "POST"
    not_a_seat = await client.post("/v1/tables/t-1/seats/7/tokens", json={"player": "ann"},
                                   headers=platform_headers(api.key))  # fmt: skip
    assert_problem(not_a_seat, 422, "seat: Input should be less than or equal to 3")
    not_json = await client.post("/v1/tables", content=b"{not json",
                                 headers={**platform_headers(api.key, new_id("open")),
                                          "Content-Type": "application/json"})  # fmt: skip
    assert_problem(not_json, 422, "JSON decode error")


async def test_ids_are_bounded_with_a_clear_refusal_naming_them(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key, deal=False)
    long = "t" * 129
    table_in_path = await client.get(f"/v1/tables/{long}/view", headers=table.seat(0))
    assert_problem(table_in_path, 422, "table_id: String should have at most 128 characters")
    command_in_path = await client.get(f"/v1/commands/{long}", headers=table.seat(0))
    assert_problem(command_in_path, 422, "command_id: String should have at most 128 characters")
    key = await client.post(f"/v1/tables/{table.table_id}/hands",
                            headers=platform_headers(api.key, "k" * 129))  # fmt: skip
    assert_problem(key, 400, "Idempotency-Key: must be at most 128 characters")
    player = await client.post(f"/v1/tables/{table.table_id}/seats/0/tokens",
                               json={"player": "p" * 129}, headers=platform_headers(api.key))  # fmt: skip
    assert_problem(player, 422, "player: String should have at most 128 characters")
    table_in_body = await client.post("/v1/tables", json=table_body(long),
                                      headers=platform_headers(api.key, new_id("open")))  # fmt: skip
    assert_problem(table_in_body, 422, "table_id: String should have at most 128 characters")
    spaced = await client.post("/v1/tables", json=table_body("a table"),
                               headers=platform_headers(api.key, new_id("open")))  # fmt: skip
    assert_problem(spaced, 422, "table_id: String should match pattern")
    resume = await client.get(f"/v1/tables/{table.table_id}/seats/0/events",
                              headers={**table.seat(0), "Last-Event-ID": "9" * 41})  # fmt: skip
    assert_problem(resume, 422, "last-event-id: String should have at most 40 characters")


async def test_cors_is_off_by_default_for_preflights_and_plain_requests(
    client: httpx.AsyncClient,
) -> None:
    preflight = await client.options("/v1/tables", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})  # fmt: skip
    plain = await client.get("/openapi.json", headers={"Origin": "https://evil.example"})
    for answer in (preflight, plain):
        assert not [h for h in answer.headers if h.startswith("access-control-")]


async def test_cors_allows_only_the_configured_origins(api: Api) -> None:
    settings = api.ctx.settings
    api.ctx.settings = settings.model_copy(update={"api_cors_origins": "https://platform.example"})
    try:
        app = create_api(api.ctx)
    finally:
        api.ctx.settings = settings
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://api.test") as client:
        asked = {"Access-Control-Request-Method": "POST"}
        allowed = await client.options("/v1/tables", headers={"Origin": "https://platform.example", **asked})
        refused = await client.options("/v1/tables", headers={"Origin": "https://evil.example", **asked})
        put = await client.options("/v1/rooms/east", headers={
            "Origin": "https://platform.example", "Access-Control-Request-Method": "PUT"})  # fmt: skip
    assert allowed.headers["access-control-allow-origin"] == "https://platform.example"
    assert "access-control-allow-origin" not in refused.headers
    assert put.status_code == 200  # a room is configured with PUT
