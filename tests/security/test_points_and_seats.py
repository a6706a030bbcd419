"""Issue 21, item 6: points and seats. A grant or top-up adds, a correction never takes a
balance below zero, and decision 18's one table per player holds on every route that seats
players: ``POST /v1/tables`` as much as a room's join (a real ``paiju serve``, embedded)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from security_kit import Served, new_id

SEATED_ELSEWHERE = "您已在别的游戏房间游戏，请返回原来房间"


@pytest.fixture(scope="module")
def key(embedded: Served) -> str:
    return embedded.key("tables,tokens,reads")


def auth(key: str, command_id: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {key}"}
    return headers | ({"Idempotency-Key": command_id} if command_id else {})


def change(http: httpx.Client, key: str, player: str, amount: int, kind: str) -> httpx.Response:
    return http.post(f"/v1/players/{player}/points", json={"amount": amount, "kind": kind},
                     headers=auth(key, new_id("points")))  # fmt: skip


def balance(http: httpx.Client, key: str, player: str, position: int) -> int:
    read = http.get(f"/v1/reads/players/{player}/points", params={"min_position": position},
                    headers=auth(key))  # fmt: skip
    assert read.status_code == 200, read.text
    points: int = read.json()["points"]
    return points


def open_table(http: httpx.Client, key: str, players: list[str],
               table_id: str | None = None) -> httpx.Response:  # fmt: skip
    body = {"table_id": table_id or new_id("sec-open"), "variant": "harbin", "players": players}
    return http.post("/v1/tables", json=body, headers=auth(key, new_id("open")))


def fresh(n: int) -> list[str]:
    return [new_id("p") for _ in range(n)]


def seated_in_a_room(http: httpx.Client, key: str, players: list[str], ready: bool) -> str:
    """The four players joined to a new room (and all ready: its table started); its table."""
    room = new_id("room")
    configured = http.put(f"/v1/rooms/{room}", json={"variant": "harbin", "minimum_points": 0},
                          headers=auth(key))  # fmt: skip
    assert configured.status_code == 200, configured.text
    seating: dict[str, Any] = {}
    for action in ("join", "ready") if ready else ("join",):
        for player in players:
            answer = http.post(f"/v1/rooms/{room}/players/{player}/{action}", headers=auth(key))
            assert answer.status_code == 200, answer.text
            seating = answer.json()
    assert seating["started"] is ready
    table: str = seating["table_id"]
    return table


def assert_seated_elsewhere(refused: httpx.Response, player: str, table_id: str) -> None:
    assert refused.status_code == 409, refused.text
    problem = refused.json()
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert (problem["code"], problem["player"], problem["table_id"]) == \
        ("seated_elsewhere", player, table_id)  # fmt: skip
    assert player in problem["detail"] and table_id in problem["detail"]
    assert SEATED_ELSEWHERE in problem["detail"]


# -- points ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["grant", "top_up"])
def test_a_grant_or_top_up_of_a_negative_amount_is_refused_and_the_balance_is_unchanged(
    embedded: Served, key: str, kind: str
) -> None:
    player = new_id("p")
    with embedded.client() as http:
        granted = change(http, key, player, 100, "grant")
        assert granted.status_code == 200, granted.text
        refused = change(http, key, player, -150, kind)
        assert refused.status_code == 422, refused.text
        assert "-150" in refused.json()["detail"] and kind in refused.json()["detail"]
        after = change(http, key, player, 1, "grant")  # later than the refusal: it would show
        assert balance(http, key, player, after.json()["position"]) == 101


def test_a_correction_may_lower_a_balance_but_never_below_zero(
    embedded: Served, key: str
) -> None:
    player = new_id("p")
    with embedded.client() as http:
        assert change(http, key, player, 100, "grant").status_code == 200
        below = change(http, key, player, -150, "correction")
        assert below.status_code == 409, below.text  # well formed: refused by the balance
        assert "100" in below.json()["detail"] and "-150" in below.json()["detail"]
        lowered = change(http, key, player, -60, "correction")
        assert lowered.status_code == 200, lowered.text
        assert balance(http, key, player, lowered.json()["position"]) == 40
        assert change(http, key, player, -41, "correction").status_code == 409
        last = change(http, key, player, -40, "correction")
        assert last.status_code == 200, last.text
        assert balance(http, key, player, last.json()["position"]) == 0


# -- seats ----------------------------------------------------------------------------------------
def test_one_player_in_two_or_all_four_seats_of_a_new_table_is_refused(
    embedded: Served, key: str
) -> None:
    one, other, third = fresh(3)
    with embedded.client() as http:
        for players in ([one] * 4, [one, other, one, third]):
            refused = open_table(http, key, players)
            assert refused.status_code == 422, refused.text
            assert one in refused.json()["detail"] and "four different" in refused.json()["detail"]
        # nothing was held for them: all three sit down at once with a fourth
        assert open_table(http, key, [one, other, third, new_id("p")]).json()["status"] == "accepted"


def test_a_player_at_a_live_platform_table_is_refused_a_seat_at_another_naming_both(
    embedded: Served, key: str
) -> None:
    first = embedded.seated_table(key)
    player, others = first.players[2], fresh(3)
    with embedded.client() as http:
        refused = open_table(http, key, [others[0], player, others[1], others[2]])
        assert_seated_elsewhere(refused, player, first.table_id)
        # the three others were not kept: they sit down at once elsewhere
        assert open_table(http, key, [*others, new_id("p")]).json()["status"] == "accepted"


@pytest.mark.parametrize("started", [False, True], ids=["forming", "started"])
def test_a_player_seated_in_a_room_is_refused_a_platform_table_naming_the_room_table(
    embedded: Served, key: str, started: bool
) -> None:
    players = fresh(4)
    with embedded.client() as http:
        table_id = seated_in_a_room(http, key, players, ready=started)
        refused = open_table(http, key, [players[1], *fresh(3)])
        assert_seated_elsewhere(refused, players[1], table_id)


def test_a_room_join_of_a_player_at_a_live_platform_table_is_refused_with_that_table(
    embedded: Served, key: str
) -> None:
    first = embedded.seated_table(key)
    room = new_id("room")
    with embedded.client() as http:
        http.put(f"/v1/rooms/{room}", json={"variant": "harbin"}, headers=auth(key))
        refused = http.post(f"/v1/rooms/{room}/players/{first.players[0]}/join", headers=auth(key))
        assert_seated_elsewhere(refused, first.players[0], first.table_id)
        forming = http.get("/v1/rooms", params={"room": room}, headers=auth(key)).json()
        assert all(first.players[0] not in (t.get("seats") or []) for t in forming["items"])


def test_opens_racing_to_seat_one_player_seat_them_at_one_table_only(
    embedded: Served, key: str
) -> None:
    shared = new_id("p")
    racers = [[shared, *fresh(3)] for _ in range(4)]
    with embedded.client() as http, ThreadPoolExecutor(len(racers)) as pool:
        answers = list(pool.map(lambda players: open_table(http, key, players), racers))
    accepted = [a for a in answers if a.status_code == 200 and a.json()["status"] == "accepted"]
    refused = [a for a in answers if a.status_code == 409]
    assert len(accepted) == 1 and len(refused) == len(racers) - 1, [a.text for a in answers]
    winner = accepted[0].json()["table_id"]
    for answer in refused:
        assert_seated_elsewhere(answer, shared, winner)


def test_opening_the_same_table_again_under_its_key_answers_as_before(
    embedded: Served, key: str
) -> None:
    players, table_id, command_id = fresh(4), new_id("sec-open"), new_id("open")
    body = {"table_id": table_id, "variant": "harbin", "players": players}
    with embedded.client() as http:
        first = http.post("/v1/tables", json=body, headers=auth(key, command_id))
        again = http.post("/v1/tables", json=body, headers=auth(key, command_id))
    assert first.status_code == again.status_code == 200, again.text
    assert first.json()["status"] == again.json()["status"] == "accepted"
