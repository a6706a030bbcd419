"""Rooms: tables in play and seated players per room, from the tables' events."""

from __future__ import annotations

from given_kit import Table, caught_up

from events.store import open_store
from readmodels.queries_tables import room, rooms
from readmodels.rooms import Rooms
from services.rules.events.hand import HandDrawn
from services.rules.events.presence import SeatLeft, SeriesEnded, TableDissolved


def counts(url: str, store: object, name: str) -> tuple[int, int, int]:
    found = room(caught_up(store, url, Rooms()), name)  # type: ignore[arg-type]
    assert found is not None
    return found.tables_in_play, found.players_seated, found.tables_waiting


def test_each_open_table_fills_its_room_with_four_players(url: str) -> None:
    store = open_store(url)
    for n, name in enumerate(("新手场", "新手场", "高手场")):
        Table(store, f"t{n}").opened("harbin", room=name)
    assert counts(url, store, "新手场") == (2, 8, 0)
    assert counts(url, store, "高手场") == (1, 4, 0)


def test_a_leaver_empties_a_seat_and_the_series_end_frees_the_table(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("shanghai", room="r")
    t.dealt(1)
    t.given(SeatLeft(seat=2, mid_hand=True))
    assert counts(url, store, "r") == (1, 3, 0)
    t.given(HandDrawn())
    t.settled()
    t.given(SeriesEnded(number=1, reason="seat_left", hands=1))
    assert counts(url, store, "r") == (0, 0, 0)
    t.dealt(2)  # a new series at the same table
    assert counts(url, store, "r") == (1, 4, 0)


def test_a_dissolved_table_leaves_its_room_once(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin", room="r")
    t.dealt(1)
    t.given(TableDissolved(reason="网管解散", mid_hand=True))
    t.given(SeriesEnded(number=1, reason="dissolved", hands=0))
    assert counts(url, store, "r") == (0, 0, 0)


def test_tables_opened_with_no_room_are_counted_in_the_room_with_no_name(url: str) -> None:
    store = open_store(url)
    Table(store, "t1").opened("harbin")
    Table(store, "t2").opened("harbin", room="b")
    db = caught_up(store, url, Rooms())
    listed = rooms(db, size=1), rooms(db, page=2, size=1)
    assert [(r.room, r.tables_in_play) for p in listed for r in p.items] == [("", 1), ("b", 1)]
    assert listed[0].more and not listed[1].more

