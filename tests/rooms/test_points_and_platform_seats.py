"""Decision 18 beyond the rooms: a grant or top-up adds and a correction never takes a balance
below zero (``services.accounts``), and a player at a table the platform opened itself
(``services.rooms.platform``) holds no seat elsewhere, nor does a room's player get one there."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from pydantic import ValidationError
from rooms_kit import PLAYERS, grant, seat_four, settings
from test_races import race

from events.envelope import Actor, utc_now
from events.store.base import EventStore
from services.accounts import AdjustmentError, adjust_points
from services.rooms.platform import PlatformSeating
from services.rooms.room import RoomRefused
from services.rooms.service import RoomService
from services.rooms.starter import DirectStarter
from services.rules.events.rooms import TableSeatClaimed
from services.rules.table.commands import DissolveTable, OpenTable, StartHand
from services.tables.service import Accepted, Rejected, TableService

OTHERS = ("ed", "flo", "gus")


def change(store: EventStore, player: str, amount: int, kind: str, key: str = "") -> int:
    """The player's stream version after the change."""
    recorded = adjust_points(store, player, amount, kind,  # type: ignore[arg-type]
                             command_id=key or f"change-{uuid.uuid4().hex}")  # fmt: skip
    return recorded.version


def refused_change(store: EventStore, player: str, amount: int, kind: str) -> str:
    before = store.stream_version(f"player:{player}")
    with pytest.raises(AdjustmentError) as refused:
        change(store, player, amount, kind)
    assert store.stream_version(f"player:{player}") == before  # nothing stored
    return str(refused.value)


def open_platform_table(seating: PlatformSeating, tables: TableService, table_id: str,
                        players: tuple[str, str, str, str]) -> Accepted | Rejected:  # fmt: skip
    """As ``POST /v1/tables`` does: the players held, then the table opened."""
    seating.seat(table_id, players)
    opened = tables.handle(table_id, OpenTable(table_id=table_id, variant="harbin",
                                               players=players),
                           command_id=uuid.uuid4().hex, actor=Actor.system())  # fmt: skip
    if isinstance(opened, Rejected):
        seating.release_unopened(table_id, players)
    return opened


def dissolve(tables: TableService, table_id: str) -> None:
    """Deal the table a hand and dissolve it (网管解散): its series is over."""
    for command in (StartHand(), DissolveTable(reason="test")):
        done = tables.handle(table_id, command, command_id=uuid.uuid4().hex, actor=Actor.system())
        assert isinstance(done, Accepted), done


def elsewhere(call: object, *args: object) -> RoomRefused:
    with pytest.raises(RoomRefused) as refused:
        call(*args)  # type: ignore[operator]
    assert refused.value.code == "seated_elsewhere"
    return refused.value


@pytest.fixture
def seating(rooms: RoomService) -> PlatformSeating:
    return PlatformSeating(rooms)


# -- points ---------------------------------------------------------------------------------------
def test_a_grant_or_top_up_below_zero_is_refused_and_nothing_is_stored(
    rooms: RoomService, store: EventStore
) -> None:
    grant(store, "ann", 100)
    for kind in ("grant", "top_up"):
        assert f"a {kind} adds points" in refused_change(store, "ann", -150, kind)
    assert rooms.account("ann").points == 100


def test_a_correction_takes_back_at_most_the_balance(rooms: RoomService, store: EventStore) -> None:
    grant(store, "ann", 100)
    assert "-150 would leave -50" in refused_change(store, "ann", -150, "correction")
    change(store, "ann", -60, "correction")
    assert rooms.account("ann").points == 40
    refused_change(store, "ann", -41, "correction")
    change(store, "ann", -40, "correction")
    assert rooms.account("ann").points == 0
    refused_change(store, "bo", -1, "correction")  # nothing to take back


def test_a_correction_sent_again_answers_as_first_though_the_balance_moved(
    rooms: RoomService, store: EventStore
) -> None:
    grant(store, "ann", 100)
    first = change(store, "ann", -60, "correction", key="support-1")
    assert change(store, "ann", -60, "correction", key="support-1") == first
    assert rooms.account("ann").points == 40


# -- one table, four different players --------------------------------------------------------
def test_a_table_cannot_seat_one_player_twice() -> None:
    for players in (("ann",) * 4, ("ann", "bo", "ann", "cy")):
        with pytest.raises(ValidationError, match="four different players; 'ann' is in seats 0, "):
            OpenTable(table_id="t", variant="harbin", players=players)


# -- the platform's tables --------------------------------------------------------------------
def test_a_player_at_a_platform_table_is_refused_another_until_its_series_is_over(
    rooms: RoomService, seating: PlatformSeating, tables: TableService, store: EventStore
) -> None:
    assert isinstance(open_platform_table(seating, tables, "t1", PLAYERS), Accepted)
    refused = elsewhere(seating.seat, "t2", ("ed", "flo", "cy", "gus"))
    assert (refused.facts["player"], refused.facts["table_id"]) == ("cy", "t1")
    assert "cy is at table t1" in refused.reason
    assert all(rooms.account(p).table is None for p in OTHERS)  # none of the others held
    dissolve(tables, "t1")
    assert isinstance(open_platform_table(seating, tables, "t2", ("ed", "flo", "cy", "gus")),
                      Accepted)  # fmt: skip
    released = [e for e in store.read_stream("player:cy") if e.type == "table_seat_released"]
    assert [(e.payload["table_id"], e.payload["reason"]) for e in released] == \
        [("t1", "series_ended")]  # fmt: skip


def test_a_player_at_a_platform_table_is_refused_a_room_join_until_its_series_is_over(
    rooms: RoomService, seating: PlatformSeating, tables: TableService
) -> None:
    rooms.configure(settings("east"))
    open_platform_table(seating, tables, "t1", PLAYERS)
    refused = elsewhere(rooms.join, "east", "bo")
    assert (refused.facts["player"], refused.facts["table_id"]) == ("bo", "t1")
    assert "bo" not in rooms.load("east").seats and rooms.account("bo").room is None
    dissolve(tables, "t1")
    assert rooms.join("east", "bo").seats[0] == "bo"


def test_a_player_seated_in_a_room_is_refused_a_platform_table(
    rooms: RoomService, seating: PlatformSeating, tables: TableService
) -> None:
    rooms.configure(settings("east"))
    rooms.join("east", "ann")
    refused = elsewhere(seating.seat, "t1", ("ann", *OTHERS))
    assert (refused.facts["player"], refused.facts["table_id"], refused.facts["room"]) == \
        ("ann", "east.1", "east")  # fmt: skip
    seat_four(rooms, players=PLAYERS[1:])
    for player in PLAYERS:
        rooms.ready("east", player)
    assert elsewhere(seating.seat, "t1", ("ann", *OTHERS)).facts["table_id"] == "east.1"


def test_an_open_the_table_refuses_holds_none_of_its_players(
    rooms: RoomService, seating: PlatformSeating, tables: TableService
) -> None:
    assert isinstance(open_platform_table(seating, tables, "t1", PLAYERS), Accepted)
    again = open_platform_table(seating, tables, "t1", ("ed", "flo", "gus", "hal"))
    assert isinstance(again, Rejected)  # t1 is open already, with others
    assert all(rooms.account(p).table is None for p in ("ed", "flo", "gus", "hal"))
    assert rooms.account("ann").table == "t1"


def test_a_platform_table_over_for_a_player_is_settled_and_never_held_for_them_again(
    rooms: RoomService, seating: PlatformSeating, tables: TableService, store: EventStore
) -> None:
    grant(store, "ann", 10)
    open_platform_table(seating, tables, "t1", PLAYERS)
    dissolve(tables, "t1")
    seating.seat("t2", ("ann", *OTHERS))  # releases t1's hold: no hand played, no points
    account = rooms.account("ann")
    assert (account.table, account.points, account.settled) == ("t2", 10, frozenset({"t1"}))
    assert seating.seat("t1", ("ann", *OTHERS)) == []  # t1 is over for ann: never held again


def test_a_claim_whose_table_never_opened_is_released_after_its_grace(
    store: EventStore, tables: TableService
) -> None:
    now = [utc_now()]
    rooms = RoomService(store, DirectStarter(tables), claim_grace=30, clock=lambda: now[0])
    seating = PlatformSeating(rooms)
    rooms._append_player(rooms.account("ann"), [TableSeatClaimed(player="ann", table_id="t0")])
    assert elsewhere(seating.seat, "t1", ("ann", *OTHERS)).facts["table_id"] == "t0"
    now[0] += timedelta(seconds=31)
    assert seating.seat("t1", ("ann", *OTHERS)) == sorted(("ann", *OTHERS))


def test_opens_racing_to_seat_one_player_hold_them_at_one_table(pg_url: str) -> None:
    tables = [f"race{n}" for n in range(6)]
    calls = [lambda s, t=t: PlatformSeating(s).seat(t, ("ann", f"{t}b", f"{t}c", f"{t}d"))
             for t in tables]  # fmt: skip
    results = race(pg_url, calls)
    held = [t for t, result in zip(tables, results, strict=True) if isinstance(result, list)]
    refused = [r for r in results if isinstance(r, RoomRefused)]
    assert len(held) == 1 and len(refused) == len(tables) - 1
    assert {(r.code, r.facts["player"], r.facts["table_id"]) for r in refused} == \
        {("seated_elsewhere", "ann", held[0])}  # fmt: skip
