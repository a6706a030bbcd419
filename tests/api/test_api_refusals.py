"""A refused command answers in the status line (RFC 9457, ``services.api.answers``): 409
refused by the rules, 412 a stale If-Match, 422 an invalid input, 404 an unknown table; the
outcome nested in the problem document, and a copy under the same key answered as the first."""

from __future__ import annotations

import httpx
import pytest
from api_kit import Api, new_id, open_dealt_table, platform_headers, table_body, turn_and_discard
from fastapi.responses import JSONResponse

from events.outcomes import CommandOutcome
from services.api import answers

pytestmark = pytest.mark.anyio
COMMAND_ROUTES = (("post", "/v1/tables"), ("post", "/v1/tables/{table_id}/hands"),
                  ("post", "/v1/tables/{table_id}/commands"))  # fmt: skip


def refusal(answer: httpx.Response, status: int, code: str) -> dict:
    """The problem document of a refused command, checked for its status, type and outcome."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    problem = answer.json()
    assert problem["type"] == "/problems/" + code.replace("_", "-"), problem
    assert (problem["status"], problem["outcome"]["status"]) == (status, "refused")
    assert problem["outcome"]["code"] == code and problem["detail"] == problem["outcome"]["reason"]
    return problem


async def test_a_refused_deal_answers_409_with_its_outcome_and_no_options(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)  # a hand in play: no second deal
    key = new_id("deal")
    answer = await client.post(f"/v1/tables/{table.table_id}/hands", headers=platform_headers(api.key, key))
    problem = refusal(answer, 409, "refused_by_rules")
    assert problem["outcome"]["command_id"] == key
    assert "options" not in problem  # a platform's command: no seat's options


def test_an_invalid_input_answers_422_with_its_outcome() -> None:
    """The table service's edge (``bounds``) refuses what the document lets through to it,
    now nothing the API takes (its document declares the edge's rules): a worker's refusal of
    a command queued by another sender is answered so."""
    outcome = CommandOutcome(command_id="p:k:1", table_id="t1", status="refused",
                             reason="players[0]: must be at most 32 characters, not 40",
                             code="invalid_input", actor_kind="system")  # fmt: skip
    answer = httpx.Response(**_as_httpx(answers.answer(outcome, "open-t1")))
    problem = refusal(answer, 422, "invalid_input")
    assert problem["outcome"]["command_id"] == "open-t1" and "options" not in problem


def _as_httpx(response: JSONResponse) -> dict:
    return {"status_code": response.status_code, "content": bytes(response.body),
            "headers": dict(response.headers)}


async def test_the_edges_rules_are_in_the_document_so_a_room_with_a_control_is_refused_by_name(
    client: httpx.AsyncClient, api: Api
) -> None:
    body = table_body(new_id("t")) | {"room": "east\x07"}
    answer = await client.post("/v1/tables", json=body, headers=platform_headers(api.key, new_id("open")))
    assert answer.status_code == 422 and answer.json()["detail"].startswith("room: String should match")


async def test_a_command_to_an_unknown_table_answers_404_and_keeps_nothing(
    client: httpx.AsyncClient, api: Api
) -> None:
    key = new_id("deal")
    answer = await client.post("/v1/tables/nowhere/hands", headers=platform_headers(api.key, key))
    assert answer.status_code == 404, answer.text
    assert answer.json()["detail"] == "no table 'nowhere' has been opened"
    kept = await client.get(f"/v1/commands/{key}", headers=platform_headers(api.key))
    assert kept.status_code == 404  # nothing kept under the key: not a command that was sent


async def test_a_copy_of_a_refused_command_answers_the_firsts_status_and_outcome(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)
    seat, _ = await turn_and_discard(client, table)
    other = (seat + 2) % 4  # never the next seat, who may chow
    send = {"json": {"command": "discard_tile", "seat": other, "tile": "1m"},
            "headers": {**table.seat(other), "Idempotency-Key": new_id("c")}}  # fmt: skip
    first = await client.post(f"/v1/tables/{table.table_id}/commands", **send)  # type: ignore[arg-type]
    copy = await client.post(f"/v1/tables/{table.table_id}/commands", **send)  # type: ignore[arg-type]
    assert refusal(copy, 409, "refused_by_rules")["outcome"] == refusal(first, 409, "refused_by_rules")["outcome"]


async def test_every_command_route_documents_its_refusals_and_their_problem_types(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/openapi.json")).json()
    refusal_schema = document["components"]["schemas"]["CommandRefusal"]
    assert {"type", "title", "status", "detail", "outcome"} <= set(refusal_schema["required"])
    assert "options" in refusal_schema["properties"]
    for method, path in COMMAND_ROUTES:
        responses = document["paths"][path][method]["responses"]
        assert {"200", "202", "409", "412", "422", "503"} <= set(responses), path
        assert "/problems/refused-by-rules" in responses["409"]["description"], path
        assert "/problems/stale-version" in responses["412"]["description"], path
        assert "/problems/invalid-input" in responses["422"]["description"], path
        assert "/problems/table-busy" in responses["503"]["description"], path
        schema = responses["412"]["content"]["application/problem+json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/CommandRefusal"}, path
    dealing = document["paths"]["/v1/tables/{table_id}/hands"]["post"]["responses"]
    assert "No table has that id" in dealing["404"]["description"]
    outcome = document["paths"]["/v1/commands/{command_id}"]["get"]["responses"]["200"]
    assert "accepted or refused" in outcome["description"]
