"""A table's end from the platform, through the real HTTP app: an operator dissolves it (网管解散),
the platform closes it after the hand in play (关桌); who may, and what the seats are shown."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from api_kit import Api, Table, new_id, ok, open_dealt_table, platform_headers, read_events

pytestmark = pytest.mark.anyio


def types_of(api: Api, table: Table) -> list[str]:
    return [e.type for e in api.ctx.store.read_stream(table.table_id)]


async def operator_token(client: httpx.AsyncClient, api: Api, table: Table) -> dict[str, str]:
    minted = ok(await client.post(f"/v1/tables/{table.table_id}/tokens",
                                  json={"role": "operator", "subject": "support-1"},
                                  headers=platform_headers(api.key)))  # fmt: skip
    return {"Authorization": f"Bearer {minted['token']}"}


async def dissolve(client: httpx.AsyncClient, table: Table, headers: dict[str, str],
                   reason: str = "the room closes") -> httpx.Response:  # fmt: skip
    return await client.post(f"/v1/tables/{table.table_id}/dissolve", json={"reason": reason},
                             headers={**headers, "Idempotency-Key": new_id("dissolve")})  # fmt: skip


async def all_in_autoplay(client: httpx.AsyncClient, table: Table) -> None:
    """Every seat asks for 主动托管: the engine plays the hand in play to its settlement."""
    for seat in range(4):
        ok(await client.post(f"/v1/tables/{table.table_id}/commands",
                             json={"command": "request_autoplay", "seat": seat},
                             headers={**table.seat(seat), "Idempotency-Key": new_id("away")}))  # fmt: skip


async def test_an_operator_dissolves_a_table_mid_hand_and_no_timer_moves_it_afterwards(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)
    assert api.ctx.store.timers_of(table.table_id)  # a seat's turn is on the clock
    answer = ok(await dissolve(client, table, await operator_token(client, api, table)))
    assert (answer["actor_kind"], answer["actor_seat"]) == ("operator", None)
    dissolved = [e for e in api.ctx.store.read_stream(table.table_id) if e.type == "table_dissolved"]
    assert dissolved[0].payload == {"reason": "the room closes", "mid_hand": True}
    assert types_of(api, table)[-1] == "series_ended"
    assert api.ctx.store.timers_of(table.table_id) == []  # nothing left to fire


async def test_an_api_key_with_the_operator_scope_may_dissolve_a_table(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)
    ok(await dissolve(client, table, platform_headers(api.key)))
    assert "table_dissolved" in types_of(api, table)


@pytest.mark.parametrize("who", ["seat", "spectator", "key without operator"])
async def test_only_an_operator_may_dissolve_a_table(
    client: httpx.AsyncClient, api: Api, who: str
) -> None:
    table = await open_dealt_table(client, api.key)
    if who == "seat":
        headers = table.seat(0)
    elif who == "spectator":
        minted = ok(await client.post(f"/v1/tables/{table.table_id}/tokens",
                                      json={"role": "spectator", "subject": "fan"},
                                      headers=platform_headers(api.key)))  # fmt: skip
        headers = {"Authorization": f"Bearer {minted['token']}"}
    else:
        headers = platform_headers(api.ctx.keys.create(["tables", "tokens"], "no ops").token)
    answer = await dissolve(client, table, headers)
    assert answer.status_code == 403, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert "table_dissolved" not in types_of(api, table)


async def test_another_tables_operator_token_may_not_dissolve_this_one(
    client: httpx.AsyncClient, api: Api
) -> None:
    table, other = await open_dealt_table(client, api.key), await open_dealt_table(client, api.key)
    answer = await dissolve(client, table, await operator_token(client, api, other))
    assert answer.status_code == 403
    assert repr(other.table_id) in answer.json()["detail"]


@pytest.mark.parametrize(("body", "named"), [({"reason": "x" * 129}, "reason"),
                                             ({"reason": "a\nb"}, "reason"),
                                             ({"reason": "", "why": 1}, "why")])
async def test_a_dissolve_with_a_reason_out_of_bounds_is_refused_by_name(
    client: httpx.AsyncClient, api: Api, body: dict[str, Any], named: str
) -> None:
    table = await open_dealt_table(client, api.key)
    answer = await client.post(f"/v1/tables/{table.table_id}/dissolve", json=body,
                               headers=platform_headers(api.key, new_id("dissolve")))  # fmt: skip
    assert answer.status_code == 422
    assert named in answer.text
    assert "table_dissolved" not in types_of(api, table)


async def test_a_table_closed_after_its_hand_settles_that_hand_and_deals_no_other(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)
    asked = ok(await client.post(f"/v1/tables/{table.table_id}/close", json={"reason": "last hand"},
                                 headers=platform_headers(api.key, new_id("close"))))  # fmt: skip
    assert types_of(api, table)[-1] == "table_close_requested"  # the hand plays on
    assert asked["last_version"] == api.ctx.store.stream_version(table.table_id)
    await all_in_autoplay(client, table)
    kinds = types_of(api, table)
    assert kinds[-1] == "table_closed" and kinds.count("hand_settled") == 1
    assert kinds.index("hand_settled") < kinds.index("table_closed")
    assert api.ctx.store.timers_of(table.table_id) == []
    version = api.ctx.store.stream_version(table.table_id)
    deal = await client.post(f"/v1/tables/{table.table_id}/hands",
                             headers=platform_headers(api.key, new_id("deal")))  # fmt: skip
    assert "is closed (last hand)" in deal.text  # refused by the rules, whatever its status
    assert api.ctx.store.stream_version(table.table_id) == version


async def test_every_seats_stream_shows_the_table_closed_and_why(
    client: httpx.AsyncClient, api: Api
) -> None:
    table = await open_dealt_table(client, api.key)
    ok(await client.post(f"/v1/tables/{table.table_id}/close", json={"reason": "the demo stopped"},
                         headers=platform_headers(api.key, new_id("close"))))  # fmt: skip
    await all_in_autoplay(client, table)

    def closed(frame: dict[str, Any]) -> bool:
        return frame.get("event") == "table_closed"

    for seat in range(4):
        frames = read_events(api.base, table, seat, 10_000, until=closed)
        assert closed(frames[-1])
        shown = frames[-1]["data"]["payload"]
        assert (shown["reason"], shown["hands"]) == ("the demo stopped", 1)
        asked = [f["data"]["payload"] for f in frames if f.get("event") == "table_close_requested"]
        assert (asked[0]["reason"], asked[0]["mid_hand"]) == ("the demo stopped", True)


async def test_a_seats_token_may_not_close_its_table(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    answer = await client.post(f"/v1/tables/{table.table_id}/close",
                               headers={**table.seat(0), "Idempotency-Key": new_id("close")})  # fmt: skip
    assert answer.status_code == 401  # a platform route: an API key, not a table token
    assert "table_close_requested" not in types_of(api, table)
