"""Rooms over HTTP (decision 18): the platform sets up rooms, seats its players, readies them,
grants points; refusals are problem documents with a code and the facts they rest on."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from api_kit import Api, new_id, platform_headers

from readmodels.rooms import Rooms
from readmodels.runner import Projector

pytestmark = pytest.mark.anyio
PLAYERS = ("ann", "bo", "cy", "di")


def room_body(**changes: Any) -> dict[str, Any]:
    return {"variant": "harbin", "base_stake": 2, "minimum_points": 0, "turn_seconds": 30,
            "claim_seconds": 10, **changes}  # fmt: skip


async def a_room(client: httpx.AsyncClient, api: Api, **changes: Any) -> str:
    room = new_id("r")
    answer = await client.put(f"/v1/rooms/{room}", json=room_body(**changes),
                              headers=platform_headers(api.key))  # fmt: skip
    assert answer.status_code == 200, answer.text
    return room


def players() -> list[str]:
    return [new_id(p) for p in PLAYERS]


async def act(client: httpx.AsyncClient, api: Api, room: str, player: str, action: str) -> httpx.Response:
    return await client.post(f"/v1/rooms/{room}/players/{player}/{action}",
                             headers=platform_headers(api.key))  # fmt: skip


def problem(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = answer.json()
    assert body["code"] == code and body["status"] == status and body["detail"]
    return body


async def test_the_platform_sets_up_a_room_and_changes_it(client: httpx.AsyncClient, api: Api) -> None:
    room = await a_room(client, api, minimum_points=100)
    changed = await client.put(f"/v1/rooms/{room}", json=room_body(minimum_points=50),
                               headers=platform_headers(api.key))  # fmt: skip
    assert changed.status_code == 200
    body = changed.json()
    assert body["settings"]["minimum_points"] == 50 and body["settings"]["base_stake"] == 2
    assert (body["table_id"], body["free_seats"], body["version"]) == (f"{room}.1", [0, 1, 2, 3], 2)


async def test_players_are_seated_and_four_ready_start_a_dealt_table_the_platform_mints_tokens_for(
    client: httpx.AsyncClient, api: Api,
) -> None:  # fmt: skip
    room, names = await a_room(client, api), players()
    for n, player in enumerate(names):
        seated = (await act(client, api, room, player, "join")).json()
        assert (seated["table_id"], seated["seat"], seated["started"]) == (f"{room}.1", n, False)
    for player in names[:3]:
        assert (await act(client, api, room, player, "ready")).json()["started"] is False
    last = (await act(client, api, room, names[3], "ready")).json()
    assert (last["started"], last["table_id"], last["seat"]) == (True, f"{room}.1", 3)
    started = last["forming"]  # the table the player sits at, not the room's next (issue 25)
    assert (started["table_id"], started["seats"], started["ready"], started["free_seats"]) == (
        f"{room}.1", names, [0, 1, 2, 3], [])
    minted = await client.post(f"/v1/tables/{room}.1/seats/3/tokens", json={"player": names[3]},
                               headers=platform_headers(api.key))  # fmt: skip
    assert minted.status_code == 200, minted.text
    view = await client.get(f"/v1/tables/{room}.1/view",
                            headers={"Authorization": f"Bearer {minted.json()['token']}"})  # fmt: skip
    assert view.status_code == 200 and view.json()["hand"]["number"] == 1  # dealt
    assert view.json()["players"] == names


async def test_a_player_may_leave_before_the_start(client: httpx.AsyncClient, api: Api) -> None:
    room, names = await a_room(client, api), players()
    await act(client, api, room, names[0], "join")
    left = await act(client, api, room, names[0], "leave")
    assert left.status_code == 200 and left.json()["forming"]["free_seats"] == [0, 1, 2, 3]
    problem(await act(client, api, room, names[0], "leave"), 409, "not_seated")


async def test_a_player_below_the_minimum_is_refused_with_it(client: httpx.AsyncClient, api: Api) -> None:
    room, (ann, *_) = await a_room(client, api, minimum_points=1000), players()
    body = problem(await act(client, api, room, ann, "join"), 403, "below_minimum")
    assert body["minimum_points"] == 1000 and "这个房间最低需要1000积分" in body["detail"]


async def test_grants_and_top_ups_change_the_balance_and_let_the_player_in(
    client: httpx.AsyncClient, api: Api,
) -> None:  # fmt: skip
    room, (ann, *_) = await a_room(client, api, minimum_points=1000), players()
    change_id = new_id("grant")
    for _ in range(2):  # the same change sent twice is recorded once
        granted = await client.post(f"/v1/players/{ann}/points", json={"amount": 600, "kind": "grant"},
                                    headers=platform_headers(api.key, change_id))  # fmt: skip
        assert (granted.status_code, granted.json()["version"]) == (200, 1), granted.text
    assert problem(await act(client, api, room, ann, "join"), 403, "below_minimum")["points"] == 600
    topped = await client.post(f"/v1/players/{ann}/points", json={"amount": 400, "kind": "top_up"},
                               headers=platform_headers(api.key, new_id("top")))  # fmt: skip
    assert topped.status_code == 200
    assert (await act(client, api, room, ann, "join")).json()["seat"] == 0


async def test_a_player_at_another_table_is_refused_with_that_table(
    client: httpx.AsyncClient, api: Api,
) -> None:  # fmt: skip
    east, west, (ann, *_) = await a_room(client, api), await a_room(client, api), players()
    await act(client, api, east, ann, "join")
    body = problem(await act(client, api, west, ann, "join"), 409, "seated_elsewhere")
    assert body["table_id"] == f"{east}.1" and "请返回原来房间" in body["detail"]


async def test_bad_input_gives_a_clear_error_and_stores_nothing(client: httpx.AsyncClient, api: Api) -> None:
    room, ann = new_id("r"), new_id("ann")
    unknown = await client.put(f"/v1/rooms/{room}", json=room_body(variant="nowhere"),
                               headers=platform_headers(api.key))  # fmt: skip
    assert "unknown variant 'nowhere'" in problem(unknown, 422, "invalid_input")["detail"]
    option = await client.put(f"/v1/rooms/{room}", json=room_body(options={"nope": True}),
                              headers=platform_headers(api.key))  # fmt: skip
    assert "nope" in problem(option, 422, "invalid_input")["detail"]
    negative = await client.put(f"/v1/rooms/{room}", json=room_body(base_stake=0),
                                headers=platform_headers(api.key))  # fmt: skip
    assert negative.status_code == 422 and "base_stake" in negative.json()["detail"]
    problem(await act(client, api, room, ann, "join"), 404, "room_not_found")
    zero = await client.post(f"/v1/players/{ann}/points", json={"amount": 0},
                             headers=platform_headers(api.key, new_id("zero")))  # fmt: skip
    assert "an amount of 0 changes nothing" in problem(zero, 422, "invalid_input")["detail"]
    no_id = await client.post(f"/v1/players/{ann}/points", json={"amount": 5},
                              headers=platform_headers(api.key))  # fmt: skip
    assert no_id.status_code == 400 and "Idempotency-Key" in no_id.json()["detail"]
    bad_room = await client.put("/v1/rooms/no%20spaces", json=room_body(), headers=platform_headers(api.key))
    assert bad_room.status_code == 422
    no_key = await client.post(f"/v1/rooms/{room}/players/{ann}/join")
    assert no_key.status_code == 401
    assert api.ctx.store.stream_version(f"room:{room}") == 0
    assert api.ctx.store.stream_version(f"player:{ann}") == 0


async def test_the_platform_lists_the_rooms_tables_waiting_for_players(
    client: httpx.AsyncClient, api: Api,
) -> None:  # fmt: skip
    room, (ann, *_) = await a_room(client, api, base_stake=7), players()
    await act(client, api, room, ann, "join")
    projector = Projector(api.ctx.store, api.ctx.read_models(), [Rooms()])
    projector.attach()
    projector.catch_up()
    position = api.ctx.store.last_position()  # type: ignore[attr-defined]
    listed = await client.get("/v1/rooms", params={"waiting": True, "room": room,
                                                   "min_position": position},
                              headers=platform_headers(api.key))  # fmt: skip
    assert listed.status_code == 200, listed.text
    mine = [t for t in listed.json()["items"] if t["room"] == room]
    assert [(t["table_id"], t["free_seats"], t["base_stake"]) for t in mine] == [
        (f"{room}.1", [1, 2, 3], 7)]  # fmt: skip
    assert mine[0]["seats"][0] == ann
