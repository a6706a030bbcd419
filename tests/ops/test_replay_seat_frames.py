"""A hand as one seat saw it (``services.tables.seat_frames``, and its operator route), on tables
the bots played from sealed seeds with seats away (托管): each frame is what that seat's live
stream sent, and no frame of a seat shows another seat's concealed tiles or the wall."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import closing
from typing import Any

import httpx
import pytest

from events.envelope import RecordedEvent
from events.store import open_store
from events.store.base import EventStore
from services.api.app import create_api
from services.api.context import ApiContext
from services.cli.simulate_store import run_variant_on_store
from services.settings import load_settings
from services.tables.frames import NoSuchHand, hand_frames, hands_of
from services.tables.seat_frames import SeatReplay, seat_frames
from services.tables.stream import SeatStream, read_page

HANDS = 2
SEATS = (0, 1, 2, 3)
# what a seat is dealt or draws, by event type: the field that carries it to that seat alone
RECEIVED = {"tile_drawn": "tile", "flower_replaced": "replacement", "kong_declared": "replacement"}
HAND_OVER = ("hand_won", "hand_drawn")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('seat-frames') / 'store.sqlite3'}"


@pytest.fixture(scope="module")
def store(url: str) -> Iterator[EventStore]:
    with closing(open_store(url)) as found:
        yield found


@pytest.fixture(scope="module")
def played(store: EventStore, url: str) -> list[RecordedEvent]:
    run = run_variant_on_store("mudanjiang", HANDS, "seat-frames", "winning", store, url, away=0.5)
    assert run.failure is None and run.table_id is not None, run.failure
    return store.read_stream(run.table_id)


@pytest.fixture(scope="module")
def replays(store: EventStore, played: list[RecordedEvent]) -> dict[tuple[int, int], SeatReplay]:
    found = {}
    for hand in hands_of(played):
        for seat in SEATS:
            replay = seat_frames(store, played, hand["hand"], seat)
            assert replay.stopped is None, replay.stopped
            found[hand["hand"], seat] = replay
    return found


def test_a_seats_frames_are_step_for_step_the_operators_and_what_its_live_stream_sent(
    store: EventStore, played: list[RecordedEvent], replays: dict[tuple[int, int], SeatReplay]
) -> None:
    table_id = played[0].stream_id
    for seat in SEATS:
        sent = {e["version"]: e for e in read_page(store, SeatStream.starting(store, table_id, seat)).events}
        for hand in hands_of(played):
            frames = replays[hand["hand"], seat].frames
            operator = hand_frames(played, hand["hand"]).frames
            assert [f.version for f in frames] == [f["version"] for f in operator]
            assert [f.event for f in frames] == [sent[f.version] for f in frames]
            assert all(f.rulings.seat == seat and f.view["viewer"] == seat for f in frames)


def test_a_seat_is_shown_what_it_could_do_and_why_not_at_some_step_of_every_hand(
    replays: dict[tuple[int, int], SeatReplay],
) -> None:
    for (hand, seat), replay in replays.items():
        could = [c for f in replay.frames for c in f.options.commands if c["command"] == "discard_tile"]
        assert could and all(c["seat"] == seat for c in could), (hand, seat)
    claims = [c for r in replays.values() for f in r.frames for c in f.rulings.claims]
    assert any(c.offered for c in claims) and any(c.blocker for c in claims if not c.offered)


def fields_of(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) in a JSON document, however deep."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key, inner
            yield from fields_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from fields_of(inner)


def leaks(replay: SeatReplay, truth: list[dict[str, Any]], viewer: int) -> list[str]:
    """What the frames show ``viewer`` of another seat's concealed tiles or of the wall, before
    the hand ends (``truth``: the operator's frames, each event as recorded)."""
    found: list[str] = []
    shown: set[int] = set()  # seats that laid their hand open (明楼)
    for frame, true in zip(replay.frames, truth, strict=True):
        if frame.type in HAND_OVER:
            break
        at = f"v{frame.version} {frame.type}"
        payload, recorded = frame.event["payload"], true["payload"]
        if frame.type == "hand_shown":
            shown.add(recorded["seat"])
        found += [f"{at}: the {key}" for key, value in fields_of(frame.model_dump())
                  if key in ("wall", "seed") and value]  # fmt: skip
        if frame.type == "tiles_dealt":
            found += [f"{at}: seat {o}'s deal" for o, h in enumerate(payload["hands"]) if o != viewer and h]
        field = RECEIVED.get(frame.type)
        if field and recorded["seat"] != viewer and recorded.get(field) and payload.get(field):
            found.append(f"{at}: seat {recorded['seat']}'s {field}")
        if frame.type == "bao_set_aside" and payload.get("tile"):
            found.append(f"{at}: the 宝 from the wall")
        for o, seat in enumerate(frame.view["hand"]["seats"] if frame.view["hand"] else []):
            if o != viewer and o not in shown and (seat["concealed"] or seat["drawn"]):
                found.append(f"{at}: seat {o}'s hand in the view")
    return found


def test_no_frame_of_a_seat_shows_another_seats_concealed_tiles_or_the_wall_at_any_step(
    played: list[RecordedEvent], replays: dict[tuple[int, int], SeatReplay]
) -> None:
    for hand in hands_of(played):
        truth = hand_frames(played, hand["hand"]).frames
        for seat in SEATS:
            assert leaks(replays[hand["hand"], seat], truth, seat) == [], (hand["hand"], seat)
        # the check sees a leak where there is one: seat 0's own tiles, read as seat 1's view
        seen_as_other = leaks(replays[hand["hand"], 0], truth, viewer=1)
        assert any("seat 0's deal" in line for line in seen_as_other)
        assert any("seat 0's tile" in line for line in seen_as_other)
        assert any("seat 0's hand in the view" in line for line in seen_as_other)


def test_a_hand_the_table_never_played_is_named(store: EventStore, played: list[RecordedEvent]) -> None:
    with pytest.raises(NoSuchHand, match=f"hands 1 to {HANDS}"):
        seat_frames(store, played, HANDS + 1, 0)


# -- the route ---------------------------------------------------------------------------------
@pytest.fixture
async def api(url: str, played: list[RecordedEvent]) -> AsyncIterator[tuple[httpx.AsyncClient, ApiContext]]:
    ctx = ApiContext.open(load_settings(store_url=url))
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_api(ctx)),
                                     base_url="http://api.test") as client:  # fmt: skip
            yield client, ctx
    finally:
        ctx.close()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.mark.anyio
async def test_the_operator_route_answers_a_seats_frames_as_the_openapi_document_types_them(
    api: tuple[httpx.AsyncClient, ApiContext], played: list[RecordedEvent],
    replays: dict[tuple[int, int], SeatReplay],
) -> None:  # fmt: skip
    client, ctx = api
    key = bearer(ctx.keys.create(["operator"], "support").token)
    table_id = played[0].stream_id
    answer = await client.get(f"/v1/ops/replay/tables/{table_id}/hands/1/seats/2", headers=key)
    assert answer.status_code == 200, answer.text
    assert answer.json() == replays[1, 2].model_dump(mode="json")
    document = (await client.get("/openapi.json")).json()
    route = document["paths"]["/v1/ops/replay/tables/{table_id}/hands/{hand}/seats/{seat}"]["get"]
    schema = route["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/SeatReplay"}
    seat = next(p for p in route["parameters"] if p["name"] == "seat")["schema"]
    assert (seat["minimum"], seat["maximum"]) == (0, 3)
    assert {"404", "422"} <= set(route["responses"])
    frame = document["components"]["schemas"]["SeatFrame"]["properties"]
    assert {"event", "view", "options", "rulings"} <= set(frame)


@pytest.mark.anyio
async def test_a_seat_outside_0_to_3_an_unplayed_hand_or_no_operator_is_a_clear_problem(
    api: tuple[httpx.AsyncClient, ApiContext], played: list[RecordedEvent]
) -> None:
    client, ctx = api
    key = bearer(ctx.keys.create(["operator"], "support").token)
    path = f"/v1/ops/replay/tables/{played[0].stream_id}/hands"
    seat = await client.get(f"{path}/1/seats/4", headers=key)
    assert seat.status_code == 422 and "seat" in seat.text
    assert seat.headers["content-type"].startswith("application/problem+json")
    hand = await client.get(f"{path}/{HANDS + 1}/seats/0", headers=key)
    assert hand.status_code == 404 and f"hands 1 to {HANDS}" in hand.json()["detail"]
    table = await client.get("/v1/ops/replay/tables/t-none/hands/1/seats/0", headers=key)
    assert table.status_code == 404 and table.json()["title"] == "No such table"
    assert (await client.get(f"{path}/1/seats/0")).status_code == 401
    reader = bearer(ctx.keys.create(["reads"], "a platform").token)
    assert (await client.get(f"{path}/1/seats/0", headers=reader)).status_code == 403
