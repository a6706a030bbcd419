"""The frames of a recorded hand (given its events, then the frames) and the replay routes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from replay_kit import (
    KADANG_BAO_PAYMENTS,
    Recorded,
    build_points,
    record_kadang_bao_hand,
    tamper,
)

from events.store import open_store
from services.api.app import create_api
from services.api.context import ApiContext
from services.rules.table.state import Claim, ClaimWindow
from services.rules.tiles import tile
from services.rules.variants import get_variant
from services.settings import load_settings
from services.tables.frames import NoSuchHand, hand_frames, why_taken
from services.tables.transfer import export_lines, parse_export


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return record_kadang_bao_hand(tmp_path_factory.mktemp("frames") / "store.sqlite3")


@pytest.fixture(scope="module")
def frames(recorded: Recorded) -> list[dict[str, Any]]:
    with closing(open_store(recorded.url)) as store:
        replay = hand_frames(store.read_stream(recorded.table_id), 1)
    assert replay.stopped is None
    return replay.frames


def of_type(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


def test_a_hand_is_one_frame_per_event_from_its_deal_to_its_settlement(frames: list[dict[str, Any]]) -> None:
    assert frames[0]["type"] == "hand_started" and frames[-1]["type"] == "hand_settled"
    versions = [f["version"] for f in frames]
    assert versions == list(range(versions[0], versions[0] + len(frames)))


def test_each_frame_shows_the_four_hands_the_wall_count_and_the_bao(frames: list[dict[str, Any]]) -> None:
    dealt = of_type(frames, "bao_set_aside")[0]["table"]
    assert dealt["bao"] == "3s" and dealt["wall_remaining"] == 58
    seat1 = dealt["seats"][1]
    assert seat1["player"] == "bo"
    assert sorted(seat1["concealed"]) == sorted(["2m", "3m", "9m", "6p", "8p", "5p", "5p", "5p", "7s",
                                                 "8s", "9s", "1s", "1s"])  # fmt: skip
    draws = of_type(frames, "tile_drawn")
    counts = [f["table"]["wall_remaining"] for f in draws]
    assert counts == list(range(counts[0], counts[0] - len(counts), -1))
    won = of_type(frames, "hand_won")[0]["table"]["seats"][1]
    assert won["melds"][0]["kind"] == "chi" and won["melds"][0]["from_seat"] == 0


def test_a_discard_shows_who_could_claim_what_and_the_answer_what_the_seat_could_have_done(
    frames: list[dict[str, Any]],
) -> None:
    first = of_type(frames, "tile_discarded")[0]
    assert first["window"]["tile"] == "1m"
    assert first["window"]["options"] == [{"seat": 1, "kinds": ["chi", "ready_chi"]}]
    answer = of_type(frames, "claim_answered")[0]
    assert answer["actor"]["label"] == "bo (seat 1)"
    assert answer["window"]["answering"] == {
        "seat": 1, "could": ["pass_claim", "chow 2m 3m", "chow 2m 3m as 听"]}


def test_the_claim_taken_says_why(frames: list[dict[str, Any]]) -> None:
    claimed = of_type(frames, "tile_claimed")[0]["closed"]
    assert claimed["taken"] == [{"seat": 1, "claim": "chi"}]
    assert claimed["why"] == "seat 1's 吃 was the only claim"
    passed = [f["closed"] for f in frames if f["closed"] and not f["closed"]["taken"]]
    assert passed and passed[0]["why"].startswith("every seat asked passed")


def test_the_kadang_bao_win_shows_each_pattern_with_its_rule_and_the_payments(
    frames: list[dict[str, Any]],
) -> None:
    win = of_type(frames, "hand_won")[0]["settlement"]["wins"][0]
    assert (win["seat"], win["tile"], win["self_drawn"], win["wild"], win["fan"]) == (1, "3s", True, True, 8)
    assert [(p["name"], p["worth"]) for p in win["patterns"]] == [
        ("自摸", 2), ("摸宝", 2), ("卡当", 2), ("卡当宝", 1)]  # factors: 1 × 2 × 2 × 2 = 8 番
    assert all(p["rule"].startswith(p["name"] + ":") for p in win["patterns"])
    assert win["payments"] == KADANG_BAO_PAYMENTS
    settled = frames[-1]["settlement"]
    assert settled["payments"] == KADANG_BAO_PAYMENTS and settled["scores"] == KADANG_BAO_PAYMENTS
    assert "出冲" in settled["payment_rule"]


def test_a_higher_claim_class_wins_over_a_nearer_seat() -> None:
    harbin = get_variant("harbin")
    window = ClaimWindow(tile("5m"), 0, ((1, ("chi",)), (2, ("pong",))),
                         ((1, Claim("chi")), (2, Claim("pong"))))  # fmt: skip
    why = why_taken(harbin.claim_classes, harbin.multiple_winners, window, [(2, Claim("pong"))])
    assert why == "seat 2's 碰 over seat 1's 吃: claim order 胡 > 杠 > 吃听 > 碰 > 吃"


def test_two_wins_on_one_discard_go_to_the_nearest_seat_where_only_one_may_win() -> None:
    harbin = get_variant("harbin")
    window = ClaimWindow(tile("5m"), 0, ((1, ("win",)), (3, ("win",))),
                         ((1, Claim("win")), (3, Claim("win"))))  # fmt: skip
    why = why_taken(harbin.claim_classes, harbin.multiple_winners, window, [(1, Claim("win"))])
    assert "nearest seat after the discarder (seat 0)" in why


def test_a_hand_the_table_never_played_is_named(recorded: Recorded) -> None:
    with closing(open_store(recorded.url)) as store, pytest.raises(NoSuchHand, match="hands 1 to 1"):
        hand_frames(store.read_stream(recorded.table_id), 2)


# -- the routes --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def context(recorded: Recorded) -> Iterator[tuple[ApiContext, str, str]]:
    ctx = ApiContext.open(load_settings(store_url=recorded.url))
    try:
        operator = ctx.keys.create(["operator"], "support").token
        reads = ctx.keys.create(["reads", "tables"], "lobby").token
        yield ctx, operator, reads
    finally:
        ctx.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client(context: tuple[ApiContext, str, str]) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=create_api(context[0]))
    async with httpx.AsyncClient(transport=transport, base_url="http://api.test") as found:
        yield found


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.anyio
async def test_the_replay_needs_an_operator_key(client: httpx.AsyncClient, context: tuple[ApiContext, str, str],
                                                recorded: Recorded) -> None:  # fmt: skip
    path = f"/v1/ops/replay/tables/{recorded.table_id}"
    assert (await client.get(path)).status_code == 401
    refused = await client.get(path, headers=bearer(context[2]))
    assert refused.status_code == 403 and "'operator' scope" in refused.json()["detail"]


@pytest.mark.anyio
async def test_a_table_shows_its_hands_and_chain_intact(client: httpx.AsyncClient,
                                                        context: tuple[ApiContext, str, str],
                                                        recorded: Recorded) -> None:  # fmt: skip
    body = (await client.get(f"/v1/ops/replay/tables/{recorded.table_id}", headers=bearer(context[1]))).json()
    assert body["checks"]["verdict"] == "chain intact" and body["checks"]["ok"]
    assert [(h["hand"], h["ended"]) for h in body["hands"]] == [(1, "hand_won")]
    frames = (await client.get(f"/v1/ops/replay/tables/{recorded.table_id}/hands/1",
                               headers=bearer(context[1]))).json()["frames"]  # fmt: skip
    assert frames[-1]["settlement"]["payments"] == KADANG_BAO_PAYMENTS
    missing = await client.get(f"/v1/ops/replay/tables/{recorded.table_id}/hands/3", headers=bearer(context[1]))
    assert missing.status_code == 404 and "hands 1 to 1" in missing.json()["detail"]


@pytest.mark.anyio
async def test_a_published_head_is_checked_against_the_stream(client: httpx.AsyncClient,
                                                              context: tuple[ApiContext, str, str],
                                                              recorded: Recorded) -> None:  # fmt: skip
    with closing(open_store(recorded.url)) as store:
        last = store.read_stream(recorded.table_id)[-1]
    path = f"/v1/ops/replay/tables/{recorded.table_id}"
    held = (await client.get(path, params={"head": f"{last.version}:{last.hash}"},
                             headers=bearer(context[1]))).json()["checks"]  # fmt: skip
    assert held["verdict"] == "chain intact"
    assert f"hash chain: intact, and holds the published head {last.hash}" in held["lines"]
    other = (await client.get(path, params={"head": "ab" * 32}, headers=bearer(context[1]))).json()
    assert other["checks"]["verdict"].startswith("hash chain broken")
    bad = await client.get(path, params={"head": "not-a-hash"}, headers=bearer(context[1]))
    assert bad.status_code == 422 and "query.head: String should match pattern" in bad.json()["detail"]


@pytest.mark.anyio
async def test_the_export_is_what_paiju_export_writes(client: httpx.AsyncClient,
                                                      context: tuple[ApiContext, str, str],
                                                      recorded: Recorded) -> None:  # fmt: skip
    response = await client.get(f"/v1/ops/replay/tables/{recorded.table_id}/export", headers=bearer(context[1]))
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    with closing(open_store(recorded.url)) as store:
        expected = [line + "\n" for line in export_lines(store.read_stream(recorded.table_id))]
    assert response.text == "".join(expected)
    assert len(parse_export(response.text.splitlines()).events) == len(expected) - 2


@pytest.mark.anyio
async def test_a_players_hands_are_found_in_the_points_history(client: httpx.AsyncClient,
                                                               context: tuple[ApiContext, str, str],
                                                               recorded: Recorded) -> None:  # fmt: skip
    build_points(recorded.url)
    body = (await client.get("/v1/ops/replay/search", params={"player": "bo"},
                             headers=bearer(context[1]))).json()  # fmt: skip
    assert [(h["table_id"], h["hand"], h["amount"]) for h in body["hands"]] == [(recorded.table_id, 1, 32)]
    # each parameter narrows the search (a document cannot say "exactly one of")
    both = await client.get("/v1/ops/replay/search", params={"player": "bo", "table": recorded.table_id},
                            headers=bearer(context[1]))  # fmt: skip
    assert [t["table_id"] for t in both.json()["tables"]] == [recorded.table_id]
    elsewhere = await client.get("/v1/ops/replay/search", params={"player": "zed", "table": recorded.table_id},
                                 headers=bearer(context[1]))  # fmt: skip
    assert elsewhere.json() == {"tables": []}
    neither = await client.get("/v1/ops/replay/search", headers=bearer(context[1]))
    assert neither.status_code == 200 and neither.json() == {"tables": []}


@pytest.mark.anyio
async def test_a_tampered_event_is_named_by_the_checks_and_stops_the_frames(tmp_path: Path) -> None:
    table = record_kadang_bao_hand(tmp_path / "tampered.sqlite3", "t-tampered")
    with closing(open_store(table.url)) as store:
        discard = next(e for e in store.read_stream(table.table_id)
                       if e.type == "tile_discarded" and e.payload["seat"] == 1)  # fmt: skip
    tamper(table, discard.version, json.dumps({**discard.payload, "tile": "7z"}))
    ctx = ApiContext.open(load_settings(store_url=table.url))
    key = bearer(ctx.keys.create(["operator"], "support").token)
    path = f"/v1/ops/replay/tables/{table.table_id}"
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_api(ctx)),
                                     base_url="http://api.test") as client:  # fmt: skip
            checks = (await client.get(path, headers=key)).json()["checks"]
            replay = (await client.get(f"{path}/hands/1", headers=key)).json()
    finally:
        ctx.close()
    assert not checks["ok"] and checks["verdict"].startswith("hash chain broken")
    assert f"at version {discard.version} (event {discard.event_id})" in checks["verdict"]
    assert replay["stopped"].startswith(f"version {discard.version} (tile_discarded) cannot be applied")
    assert replay["frames"][-1]["version"] == discard.version - 1
