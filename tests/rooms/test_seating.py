"""Rooms and seating (decision 18): joining, leaving, the minimum, one table at a time, ready."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rooms_kit import PLAYERS, grant, seat_four, settings

from events.envelope import utc_now
from events.store.base import EventStore
from services.rooms.room import RoomRefused
from services.rooms.service import RoomService, room_stream
from services.rooms.starter import DirectStarter
from services.rules.events.rooms import RoomSeatClaimed
from services.rules.table.commands import DissolveTable, LeaveTable
from services.tables.service import Accepted, TableService


def refusal(call: object, *args: str) -> RoomRefused:
    with pytest.raises(RoomRefused) as refused:
        call(*args)  # type: ignore[operator]
    return refused.value


def test_players_who_join_are_seated_automatically_at_the_first_free_seats(
    rooms: RoomService,
) -> None:
    rooms.configure(settings())
    seat_four(rooms, players=("ann", "bo"))
    state = rooms.join("east", "cy")
    assert state.seats == ("ann", "bo", "cy", None)
    assert state.table_id == "east.1"
    assert rooms.join("east", "cy") == state  # joining again is the same join


def test_a_player_may_leave_before_the_start_and_the_next_joiner_takes_the_seat(
    rooms: RoomService,
) -> None:
    rooms.configure(settings())
    seat_four(rooms, players=("ann", "bo", "cy"))
    assert rooms.leave("east", "bo").seats == ("ann", None, "cy", None)
    assert rooms.join("east", "di").seats == ("ann", "di", "cy", None)
    assert rooms.account("bo").room is None  # bo may sit down anywhere now
    rooms.configure(settings("west"))
    assert rooms.join("west", "bo").seats[0] == "bo"


def test_a_player_below_the_room_minimum_is_refused_with_it_and_nothing_is_stored(
    rooms: RoomService, store: EventStore,
) -> None:  # fmt: skip
    rooms.configure(settings(minimum=500))
    grant(store, "ann", 499)
    before = store.stream_version("player:ann"), store.stream_version(room_stream("east"))
    refused = refusal(rooms.join, "east", "ann")
    assert refused.code == "below_minimum"
    assert refused.facts["minimum_points"] == 500
    assert "这个房间最低需要500积分，您的积分不符合要求" in refused.reason
    assert (store.stream_version("player:ann"), store.stream_version(room_stream("east"))) == before


def test_grants_and_top_ups_change_the_balance_the_room_sees(
    rooms: RoomService, store: EventStore,
) -> None:  # fmt: skip
    rooms.configure(settings(minimum=500))
    grant(store, "ann", 300)
    assert refusal(rooms.join, "east", "ann").facts["points"] == 300
    grant(store, "ann", 200)
    assert rooms.account("ann").points == 500
    assert rooms.join("east", "ann").seats[0] == "ann"


def test_a_player_seated_in_another_room_is_refused_with_that_table(rooms: RoomService) -> None:
    rooms.configure(settings("east"))
    rooms.configure(settings("west"))
    rooms.join("east", "ann")
    refused = refusal(rooms.join, "west", "ann")
    assert refused.code == "seated_elsewhere"
    assert refused.facts["table_id"] == "east.1"
    assert "您已在别的游戏房间游戏，请返回原来房间" in refused.reason
    assert "ann" not in rooms.load("west").seats


def test_a_table_starts_when_four_are_ready_and_not_before(
    rooms: RoomService, store: EventStore,
) -> None:  # fmt: skip
    rooms.configure(settings())
    seat_four(rooms)
    for player in PLAYERS[:3]:
        rooms.ready("east", player)
    assert store.stream_version("east.1") == 0  # three ready: no table yet
    state = rooms.ready("east", "di")
    assert state.started == ("east.1",) and state.table_id == "east.2"
    opened, started = (e for e in store.read_stream("east.1")[:2])
    assert opened.type == "table_opened" and started.type == "hand_started"
    assert opened.payload["room"] == "east" and list(opened.payload["players"]) == list(PLAYERS)
    assert opened.payload["base_stake"] == 2
    assert (opened.payload["timing"]["turn"], opened.payload["timing"]["claim"]) == (20, 8)


def test_four_ready_only_with_four_seated(rooms: RoomService, store: EventStore) -> None:
    rooms.configure(settings())
    seat_four(rooms, players=("ann", "bo", "cy"))
    for player in ("ann", "bo", "cy"):
        rooms.ready("east", player)
    rooms.join("east", "di")
    assert store.stream_version("east.1") == 0  # di is seated, not ready
    rooms.leave("east", "cy")
    rooms.join("east", "ed")
    rooms.ready("east", "di")
    assert store.stream_version("east.1") == 0  # ed took cy's seat, not cy's 准备
    assert rooms.ready("east", "ed").started == ("east.1",)


def test_a_player_whose_table_plays_on_is_refused_even_in_tuoguan_until_its_series_is_over(
    rooms: RoomService, store: EventStore, tables: TableService,
) -> None:  # fmt: skip
    rooms.configure(settings("east"))
    rooms.configure(settings("west"))
    seat_four(rooms)
    for player in PLAYERS:
        rooms.ready("east", player)
    assert refusal(rooms.join, "west", "ann").facts["table_id"] == "east.1"
    left = tables.handle("east.1", LeaveTable(seat=0), command_id="ann-leaves")
    assert isinstance(left, Accepted)  # 托管 plays ann's seat now
    refused = refusal(rooms.join, "west", "ann")
    assert (refused.code, refused.facts["table_id"]) == ("seated_elsewhere", "east.1")
    assert refusal(rooms.join, "east", "ann").facts["table_id"] == "east.1"  # 请返回原来房间
    ended = tables.handle("east.1", DissolveTable(reason="test"), command_id="dissolve")
    assert isinstance(ended, Accepted)
    assert rooms.join("west", "ann").seats[0] == "ann"
    released = [e for e in store.read_stream("player:ann") if e.type == "room_seat_released"]
    assert released[-1].payload["table_id"] == "east.1"
    assert released[-1].payload["reason"] == "series_ended"


def test_leaving_after_the_start_is_refused_with_the_table(rooms: RoomService) -> None:
    rooms.configure(settings())
    seat_four(rooms)
    for player in PLAYERS:
        rooms.ready("east", player)
    refused = refusal(rooms.leave, "east", "ann")
    assert (refused.code, refused.facts["table_id"]) == ("table_started", "east.1")


def test_a_fifth_player_is_refused_while_the_table_is_full(rooms: RoomService) -> None:
    rooms.configure(settings())
    seat_four(rooms)
    refused = refusal(rooms.join, "east", "ed")
    assert (refused.code, refused.facts["table_id"]) == ("table_full", "east.1")
    assert rooms.account("ed").room is None  # the claim was released


def test_a_claim_that_never_became_a_seat_is_released_after_its_grace(
    store: EventStore, tables: TableService,
) -> None:  # fmt: skip
    now = [utc_now()]
    rooms = RoomService(store, DirectStarter(tables), claim_grace=30, clock=lambda: now[0])
    rooms.configure(settings("east", base_stake=1))
    rooms.configure(settings("west"))
    claim = RoomSeatClaimed(player="ann", room="east")  # a process stopped after claiming
    rooms._append_player(rooms.account("ann"), [claim])
    assert refusal(rooms.join, "west", "ann").code == "seated_elsewhere"  # maybe still joining
    now[0] += timedelta(seconds=31)
    assert rooms.join("west", "ann").seats[0] == "ann"


def test_a_room_of_an_unknown_variant_or_option_is_refused_and_nothing_is_stored(
    rooms: RoomService, store: EventStore,
) -> None:  # fmt: skip
    assert refusal(rooms.configure, settings(variant="nowhere")).code == "invalid_input"
    refused = refusal(rooms.configure, settings(options={"no_such_option": True}))
    assert "no_such_option" in refused.reason
    assert store.stream_version(room_stream("east")) == 0
    assert refusal(rooms.join, "east", "ann").code == "room_not_found"
    assert store.stream_version("player:ann") == 0
