"""Live tables: given a table's events, who sits where, whose turn until when, who 托管 plays;
and over series played through the service, the waits the engine's ``deadlines`` announce."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from given_kit import PLAYERS, START, Table, caught_up
from projection_kit import accept

from events.store import open_store
from events.store.base import EventStore
from readmodels.db import open_projection_db
from readmodels.live_tables import LiveTables
from readmodels.queries import QueryError
from readmodels.queries_tables import live_table, live_tables
from readmodels.runner import Projector
from services.rules.events.hand import (
    ClaimAnswered,
    HandDrawn,
    TileDiscarded,
    TileDrawn,
    TilesDealt,
)
from services.rules.events.presence import (
    AutoplayRequested,
    SeatDisconnected,
    SeatLeft,
    SeriesEnded,
    TableClosed,
    TableDissolved,
    WaitTimedOut,
)
from services.rules.table import TableState
from services.rules.table.commands import (
    Command,
    OpenTable,
    ReportDisconnect,
    ReportReconnect,
    StartHand,
)
from services.rules.table.deadlines import deadlines
from services.rules.table.legal import play_commands, seat_commands
from services.tables import TableService

HANDS_PLAYED = 3
HANDS = (("1m",) * 14, ("2m",) * 13, ("3m",) * 13, ("4m",) * 13)


def at(minutes: float) -> str:
    return (START + timedelta(minutes=minutes)).isoformat()


def row_of(url: str, store: EventStore, table_id: str = "t1") -> dict[str, Any]:
    found = live_table(caught_up(store, url, LiveTables()), table_id)
    assert found is not None
    return found.model_dump()


def test_a_dealt_table_waits_on_the_dealers_turn_for_the_variants_seconds(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin", room="新手场")  # minute 0
    t.dealt(1, dealer=2)  # minute 1
    t.given(TilesDealt(hands=HANDS))  # minute 2: the wait begins
    row = row_of(url, store)
    assert (row["variant"], row["room"]) == ("harbin", "新手场")
    assert [s["player"] for s in row["seats"]] == list(PLAYERS)
    assert (row["status"], row["series_number"], row["hand_number"]) == ("playing", 1, 1)
    assert (row["waiting"], row["waiting_seats"]) == ("turn", [2])
    assert row["wait_until"] == (START.replace(minute=2).replace(second=15)).isoformat()


def test_a_tables_own_timing_overrides_the_variants(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin", timing={"turn": 40})
    t.dealt(1)
    t.given(TilesDealt(hands=HANDS))
    assert row_of(url, store)["wait_until"] == START.replace(minute=2, second=40).isoformat()


def test_a_discard_opens_a_claim_window_on_every_other_seat_whoever_answered(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("shandong")
    t.dealt(1)
    t.given(TilesDealt(hands=HANDS))
    t.given(TileDiscarded(seat=0, tile="1m"))  # minute 3
    t.given(ClaimAnswered(seat=2, claim="pass"))  # an answer keeps the window's clock
    row = row_of(url, store)
    # seat 2 answered, so the rules asked it: which is in its tiles, so the row does not say
    assert (row["waiting"], row["waiting_seats"]) == ("claim", [1, 2, 3])
    assert row["wait_until"] == START.replace(minute=3, second=8).isoformat()


def test_a_seat_in_autoplay_is_not_waited_on_and_a_timed_out_seat_gets_its_short_window(
    url: str,
) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin")
    t.dealt(1)
    t.given(TilesDealt(hands=HANDS))
    t.given(AutoplayRequested(seat=1))
    t.given(WaitTimedOut(wait="turn", seats=(0,)))  # 超时托管 for seat 0
    t.given(TileDiscarded(seat=0, tile="1m", automatic=True))  # minute 5
    row = row_of(url, store)
    assert row["waiting_seats"] == [2, 3]  # 0 discarded it; 1 is in 主动托管
    assert [s["autoplay"] for s in row["seats"]] == ["timeout", "requested", None, None]
    t.given(TileDrawn(seat=0, tile="5p"))  # minute 6: seat 0's turn again, in 超时托管
    row = row_of(url, store)
    assert (row["waiting"], row["waiting_seats"]) == ("autoplay_window", [0])
    assert row["wait_until"] == START.replace(minute=6, second=3).isoformat()


def test_a_dropped_seat_is_shown_with_the_end_of_its_reconnect_grace(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("shanghai")
    t.dealt(1)
    t.given(TilesDealt(hands=HANDS))
    t.given(SeatDisconnected(seat=3))  # minute 3
    t.given(SeatLeft(seat=1, mid_hand=True))
    seats = row_of(url, store)["seats"]
    assert seats[3]["connected"] is False and seats[3]["back_by"] == at(6)
    assert seats[1]["left"] is True and seats[1]["back_by"] is None


def test_a_table_leaves_the_list_when_its_series_ends_and_comes_back_with_a_new_deal(
    url: str,
) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin")
    t.dealt(1)
    t.given(SeatLeft(seat=1, mid_hand=True))
    t.given(HandDrawn())
    t.settled()
    t.given(SeriesEnded(number=1, reason="seat_left", hands=1))
    db = caught_up(store, url, LiveTables())
    assert live_tables(db).items == []
    assert getattr(live_table(db, "t1"), "status", None) == "ended"
    t.dealt(2)
    row = row_of(url, store)
    assert (row["status"], row["series_number"], row["hand_number"]) == ("playing", 2, 2)
    assert row["seats"][1]["left"] is False  # the seat is free again in the new series


def test_a_dissolved_table_leaves_the_list(url: str) -> None:
    store = open_store(url)
    for table_id in ("t1", "t2"):
        t = Table(store, table_id)
        t.opened("harbin", room="r1")
        t.dealt(1)
    Table(store, "t2").given(TableDissolved(reason="网管解散", mid_hand=True))
    db = caught_up(store, url, LiveTables())
    assert [r.table_id for r in live_tables(db, room="r1").items] == ["t1"]
    assert getattr(live_table(db, "t2"), "status", None) == "dissolved"


def test_live_tables_are_paged_by_table_and_filtered_by_room_and_variant(url: str) -> None:
    store = open_store(url)
    for n, (room, variant) in enumerate((("a", "harbin"), ("b", "harbin"), ("a", "tanggu"))):
        Table(store, f"t{n}").opened(variant, room=room)
    db = caught_up(store, url, LiveTables())
    first, rest = live_tables(db, size=2), live_tables(db, page=2, size=2)
    assert [r.table_id for r in first.items + rest.items] == ["t0", "t1", "t2"]
    assert first.more and not rest.more
    assert [r.table_id for r in live_tables(db, room="a", variant="tanggu").items] == ["t2"]


def test_a_closed_table_leaves_the_list_and_is_found_among_the_ended(url: str) -> None:
    store = open_store(url)
    for table_id in ("t1", "t2", "t3"):
        Table(store, table_id).opened("harbin", room="r1")
    Table(store, "t2").given(TableClosed(reason="the demo stopped", hands=0))
    Table(store, "t3").given(TableDissolved(reason="网管解散", mid_hand=False))
    db = caught_up(store, url, LiveTables())
    assert [r.table_id for r in live_tables(db).items] == ["t1"]
    ended = live_tables(db, state="ended").items
    assert [(r.table_id, r.status) for r in ended] == [("t2", "closed"), ("t3", "dissolved")]
    assert [r.table_id for r in live_tables(db, state="all").items] == ["t1", "t2", "t3"]


def test_tables_are_searched_by_an_id_prefix_and_by_a_player_seated_there(url: str) -> None:
    store = open_store(url)
    Table(store, "east.1").opened("harbin", players=("ann", "bo", "cy", "di"))
    Table(store, "east.2").opened("harbin", players=("ed", "flo", "gus", "ann"))
    Table(store, "east_1").opened("harbin", players=("hal", "ivy", "jo", "kim"))
    Table(store, "west.1").opened("tanggu", players=("lu", "mo", "ned", "ann"))
    db = caught_up(store, url, LiveTables())
    assert [r.table_id for r in live_tables(db, table_prefix="east.").items] == ["east.1", "east.2"]
    assert [r.table_id for r in live_tables(db, player="ann").items] == ["east.1", "east.2", "west.1"]
    found = live_tables(db, variant="harbin", player="ann", table_prefix="east", size=1)
    assert [r.table_id for r in found.items] == ["east.1"] and found.more
    assert live_tables(db, player="an").items == []  # a player is named whole


@pytest.mark.parametrize("question", [{"state": "gone"}, {"player": ""}, {"table_prefix": "x" * 129}])
def test_a_bad_search_of_the_tables_is_refused_by_name(url: str, question: dict[str, str]) -> None:
    db = caught_up(open_store(url), url, LiveTables())
    with pytest.raises(QueryError, match=next(iter(question))):
        live_tables(db, **question)  # type: ignore[arg-type]


# -- against the engine -----------------------------------------------------------------------
def _choose(state: TableState, rng: random.Random) -> Command:
    """Mostly moves; now and then a timeout, 托管, a seat going away or coming back."""
    found: list[tuple[float, Command]] = []
    for seat in range(4):
        found += [(1.0, c) for c in play_commands(state, seat)]
        found += [(0.03, c) for c in seat_commands(state, seat)]
        presence = state.presence[seat]
        if not presence.left:
            back = ReportReconnect(seat=seat)
            found.append((0.03, back if not presence.connected else ReportDisconnect(seat=seat)))
    found += [(0.4, d.timeout) for d in deadlines(state)]
    return rng.choices([c for _, c in found], weights=[w for w, _ in found])[0]


def _agrees(row: dict[str, Any], state: TableState, store: EventStore, table_id: str) -> None:
    def until(version: int, seconds: int) -> str:
        (began,) = store.read_stream(table_id, from_version=version)[:1]
        return (began.recorded_at + timedelta(seconds=seconds)).isoformat()

    waits = [d for d in deadlines(state) if d.wait != "reconnect_grace"]
    graces = {d.seats[0]: until(d.version, d.seconds) for d in deadlines(state)
              if d.wait == "reconnect_grace"}  # fmt: skip
    assert {s: seat["back_by"] for s, seat in enumerate(row["seats"]) if seat["back_by"]} == graces
    if not waits:
        assert row["waiting"] == "", (row, state.hand)
        return
    (wait,) = waits
    assert (row["waiting"], row["wait_until"]) == (wait.wait, until(wait.version, wait.seconds))
    if wait.wait == "claim":  # every seat the engine waits on, perhaps more (their tiles: secret)
        assert set(wait.seats) <= set(row["waiting_seats"])
    else:
        assert row["waiting_seats"] == list(wait.seats)


@pytest.mark.parametrize("variant", ["shanghai", "mudanjiang", "harbin", "shandong", "tanggu"])
def test_the_waits_shown_are_the_ones_the_engine_announces(url: str, variant: str) -> None:
    store, rng = open_store(url), random.Random(variant)
    service, db = TableService(store, chosen_deals=True), open_projection_db(url)
    projector = Projector(store, db, [LiveTables()])
    projector.attach()
    table_id, checked = f"p-{variant}", 0
    accept(service, table_id, OpenTable(table_id=table_id, variant=variant, players=PLAYERS),
           "open")  # fmt: skip
    for hand in range(HANDS_PLAYED):
        state = accept(service, table_id, StartHand(seed=f"live-{variant}-{hand}"),
                       f"deal-{hand}")  # fmt: skip
        for move in range(400):
            projector.catch_up()
            shown = live_table(db, table_id)
            assert shown is not None
            _agrees(shown.model_dump(), state, store, table_id)
            checked += 1
            if state.hand_over:
                break
            done = service.handle(table_id, _choose(state, rng), command_id=f"{hand}/{move}")
            state = done.state if done.state is not None else state  # type: ignore[union-attr]
    assert checked > 20 * HANDS_PLAYED
