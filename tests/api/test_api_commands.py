"""A seat's commands over HTTP: accepted, or refused in the status line with the outcome and
its code (409, 412, ...: ``services.api.answers``), idempotent by their key,
guarded by If-Match, queued when the workers are slow; and errors as problem documents."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from api_kit import Api, new_id, open_dealt_table, platform_headers, turn_and_discard

from services.api.app import create_api

pytestmark = pytest.mark.anyio


async def test_a_legal_discard_is_accepted_with_the_versions_it_recorded(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    before = api.ctx.store.stream_version(table.table_id)
    answer = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                               headers={**table.seat(seat), "Idempotency-Key": new_id("c")})  # fmt: skip
    assert answer.status_code == 200
    body = answer.json()
    assert (body["status"], body["actor_kind"], body["actor_seat"]) == ("accepted", "seat", seat)
    assert body["first_version"] == before + 1
    assert body["last_version"] == api.ctx.store.stream_version(table.table_id)


async def test_a_refused_discard_answers_409_with_its_outcome_and_options(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, _ = await turn_and_discard(client, table)
    other = (seat + 1) % 4
    key = new_id("c")
    answer = await client.post(f"/v1/tables/{table.table_id}/commands",
                               json={"command": "discard_tile", "seat": other, "tile": "1m"},
                               headers={**table.seat(other), "Idempotency-Key": key})  # fmt: skip
    assert answer.status_code == 409, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert (problem["type"], problem["status"]) == ("/problems/refused-by-rules", 409)
    outcome = problem["outcome"]
    assert (outcome["status"], outcome["code"], outcome["command_id"]) == ("refused", "refused_by_rules", key)
    assert problem["detail"] == outcome["reason"] and outcome["reason"]
    assert problem["options"]["version"] == api.ctx.store.stream_version(table.table_id)
    # the outcome as the outcome resource shows it (200: it exists, whatever it is)
    read = await client.get(f"/v1/commands/{key}", headers=table.seat(other))
    assert read.status_code == 200
    assert {k: v for k, v in read.json().items() if k != "options"} == outcome


async def test_the_same_idempotency_key_is_answered_with_the_first_outcome(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    headers = {**table.seat(seat), "Idempotency-Key": new_id("c")}
    url = f"/v1/tables/{table.table_id}/commands"
    first = (await client.post(url, json=discard, headers=headers)).json()
    version = api.ctx.store.stream_version(table.table_id)
    again = (await client.post(url, json=discard, headers=headers)).json()
    assert again == first
    assert api.ctx.store.stream_version(table.table_id) == version


async def test_another_seats_idempotency_key_names_a_command_of_its_own(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    command_id = new_id("c")
    first = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                              headers={**table.seat(seat), "Idempotency-Key": command_id})  # fmt: skip
    if first.json()["status"] == "queued":  # a loaded box: answered 202 before the worker was
        first = await client.get(f"/v1/commands/{command_id}", params={"wait": 10},
                                 headers=table.seat(seat))  # fmt: skip
    assert first.json()["status"] == "accepted"
    other = (seat + 2) % 4  # never the next seat, who may chow: a pass is then refused or not
    answer = await client.post(f"/v1/tables/{table.table_id}/commands",
                               json={"command": "discard_tile", "seat": other, "tile": "1m"},
                               headers={**table.seat(other), "Idempotency-Key": command_id})  # fmt: skip
    assert answer.status_code == 409, answer.text
    outcome = answer.json()["outcome"]  # its own command, refused on its own terms, not the first seat's
    assert (outcome["status"], outcome["actor_seat"], outcome["command_id"]) == (
        "refused", other, command_id)


async def test_a_stale_if_match_answers_412_with_its_outcome(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    version = api.ctx.store.stream_version(table.table_id)
    answer = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                               headers={**table.seat(seat), "Idempotency-Key": new_id("c"),
                                        "If-Match": f'"{version - 1}"'})  # fmt: skip
    assert answer.status_code == 412, answer.text
    assert answer.json()["type"] == "/problems/stale-version"
    assert (answer.json()["outcome"]["status"], answer.json()["outcome"]["code"]) == ("refused", "stale_version")
    assert answer.json()["options"]["version"] == version
    current = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                                headers={**table.seat(seat), "Idempotency-Key": new_id("c"),
                                         "If-Match": f'"{version}"'})  # fmt: skip
    assert current.json()["status"] == "accepted"


async def test_the_view_and_the_legal_commands_name_their_version_for_if_match(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    version = api.ctx.store.stream_version(table.table_id)
    view = await client.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(seat))
    legal = await client.get(f"/v1/tables/{table.table_id}/seats/{seat}/legal", headers=table.seat(seat))
    assert view.headers["ETag"] == legal.headers["ETag"] == f'"{version}"'
    answer = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                               headers={**table.seat(seat), "Idempotency-Key": new_id("c"),
                                        "If-Match": legal.headers["ETag"]})  # fmt: skip
    assert answer.json()["status"] == "accepted"
    after = await client.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(seat))
    assert after.headers["ETag"] == f'"{api.ctx.store.stream_version(table.table_id)}"' != view.headers["ETag"]


async def test_a_seat_cannot_give_the_systems_commands(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    answer = await client.post(f"/v1/tables/{table.table_id}/commands",
                               json={"command": "report_disconnect", "seat": 0},
                               headers={**table.seat(0), "Idempotency-Key": new_id("c")})  # fmt: skip
    assert answer.status_code == 403
    assert answer.json()["detail"] == "'report_disconnect' is given by the system, not by a seat"


async def post_with_no_wait(client: httpx.AsyncClient, api: Api, table: Any, seat: int,
                            discard: dict[str, Any], key: str) -> httpx.Response:  # fmt: skip
    """The seat's POST of ``discard`` under ``key`` with the API's wait at 0: answered 202."""
    settings = api.ctx.settings
    api.ctx.settings = settings.model_copy(update={"api_command_wait": 0.0})
    try:
        return await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                                 headers={**table.seat(seat), "Idempotency-Key": key})  # fmt: skip
    finally:
        api.ctx.settings = settings


async def test_a_command_slower_than_the_wait_is_queued_with_where_to_await_it(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    command_id = new_id("c")
    queued = await post_with_no_wait(client, api, table, seat, discard, command_id)
    assert queued.status_code == 202
    assert queued.json() == {"status": "queued", "command_id": command_id,
                             "outcome_url": f"/v1/commands/{command_id}"}  # fmt: skip
    awaited = await client.get(queued.json()["outcome_url"], params={"wait": 10}, headers=table.seat(seat))
    assert awaited.status_code == 200 and awaited.json()["status"] == "accepted"
    # the key names the seat's command for that seat only: to anyone else it names nothing
    by_platform = await client.get(queued.json()["outcome_url"], headers=platform_headers(api.key))
    assert by_platform.status_code == 404
    by_another_seat = await client.get(queued.json()["outcome_url"], headers=table.seat((seat + 1) % 4))
    assert by_another_seat.status_code == 404 and by_another_seat.json() == by_platform.json() | {
        "detail": by_another_seat.json()["detail"]}


async def test_the_outcome_url_of_a_key_holding_a_slash_answers(client: httpx.AsyncClient, api: Api) -> None:
    """Issue 22, item 4: the Location of every 202 answers, whatever its key holds."""
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    command_id = f"{new_id('c')}/v1/s{seat}"
    queued = await post_with_no_wait(client, api, table, seat, discard, command_id)
    assert queued.status_code == 202
    assert "%2F" in queued.headers["location"]
    awaited = await client.get(queued.headers["location"], params={"wait": 10}, headers=table.seat(seat))
    assert awaited.status_code == 200 and awaited.json()["status"] == "accepted", awaited.text
    as_is = await client.get(f"/v1/commands/{command_id}", headers=table.seat(seat))
    assert as_is.status_code == 200
    assert as_is.json() | {"options": None} == awaited.json() | {"options": None}  # options are now's


async def test_bad_requests_get_problem_documents_naming_what_was_wrong(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    url = f"/v1/tables/{table.table_id}/commands"
    no_key = await client.post(url, json={"command": "pass_claim", "seat": 0}, headers=table.seat(0))
    long_key = await client.post(url, json={"command": "pass_claim", "seat": 0},
                                 headers={**table.seat(0), "Idempotency-Key": "k" * 129})  # fmt: skip
    not_a_command = await client.post(url, json={"command": "fly", "seat": 0},
                                      headers={**table.seat(0), "Idempotency-Key": new_id("c")})  # fmt: skip
    bad_match = await client.post(url, json={"command": "pass_claim", "seat": 0},
                                  headers={**table.seat(0), "Idempotency-Key": new_id("c"), "If-Match": "soon"})  # fmt: skip
    too_big = await client.post(url, content=b"{" + b" " * 20000 + b"}",
                                headers={**table.seat(0), "Idempotency-Key": new_id("c"),
                                         "Content-Type": "application/json"})  # fmt: skip
    no_table = await client.get("/v1/tables/nowhere/view", headers=table.seat(0))
    no_token = await client.get(f"/v1/tables/{table.table_id}/view")
    expected = {
        "no_key": (no_key, 400, "send the command's id as Idempotency-Key"),
        "long_key": (long_key, 400, "Idempotency-Key: must be at most 128 characters"),
        "not_a_command": (not_a_command, 422, "not a valid 'fly' command"),
        "bad_match": (bad_match, 400, "If-Match is the table's version"),
        "too_big": (too_big, 413, f"a request body is at most {api.ctx.settings.api_max_body_bytes} bytes"),
        "no_table": (no_table, 403, "this token is for table"),
        "no_token": (no_token, 401, "this route needs a table token"),
    }
    for name, (answer, status, detail) in expected.items():
        assert answer.status_code == status, (name, answer.text)
        assert answer.headers["content-type"] == "application/problem+json", name
        assert detail in answer.json()["detail"], (name, answer.json())
        assert "Traceback" not in answer.text


async def test_an_unknown_table_is_not_found(client: httpx.AsyncClient, api: Api) -> None:
    minted = await client.post("/v1/tables/nowhere/tokens", json={"role": "spectator", "subject": "x"},
                               headers=platform_headers(api.key))  # fmt: skip
    assert minted.status_code == 404
    assert minted.json()["detail"] == "no table 'nowhere' has been opened"


async def test_cors_is_off_unless_origins_are_configured(client: httpx.AsyncClient) -> None:
    preflight = await client.options("/v1/tables", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers


async def test_the_openapi_document_describes_every_route(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    assert {"/v1/tables", "/v1/tables/{table_id}/commands", "/v1/commands/{command_id}",
            "/v1/tables/{table_id}/seats/{seat}/events", "/v1/tables/{table_id}/view",
            "/v1/tables/{table_id}/seats/{seat}/legal", "/v1/tables/{table_id}/seats/{seat}/tokens",
            } <= set(paths)  # fmt: skip


async def test_an_unexpected_failure_is_a_500_problem_with_no_trace(api: Api) -> None:
    app = create_api(api.ctx)

    def failing() -> None:
        raise RuntimeError("secret internals at /srv/paiju/store.py line 12")

    app.add_api_route("/v1/failing", failing)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://api.test") as client:
        answer = await client.get("/v1/failing")
    assert answer.status_code == 500
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["detail"] == "the server could not answer this request; it was logged"
    assert "secret internals" not in answer.text and "Traceback" not in answer.text


async def test_a_command_while_the_store_cannot_be_reached_is_503_to_send_again_and_keeps_nothing(
    client: httpx.AsyncClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    before = api.ctx.store.stream_version(table.table_id)
    key = new_id("c")

    def restarting(*_: object, **__: object) -> None:
        raise psycopg.OperationalError("the database system is shutting down")

    with monkeypatch.context() as patched:
        patched.setattr(api.ctx.store, "claim_request", restarting)
        down = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                                 headers={**table.seat(seat), "Idempotency-Key": key})  # fmt: skip
    assert down.status_code == 503, down.text
    assert down.headers["Retry-After"] == "2"
    assert down.headers["content-type"].startswith("application/problem+json")
    assert down.json()["title"] == "Store unavailable"
    assert api.ctx.store.stream_version(table.table_id) == before  # nothing was done
    again = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                              headers={**table.seat(seat), "Idempotency-Key": key})  # fmt: skip
    assert again.status_code == 200 and again.json()["status"] == "accepted", again.text
