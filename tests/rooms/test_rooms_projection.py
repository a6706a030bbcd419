"""The rooms read model keeps the tables waiting for players from the rooms' own events, and
a rebuild from position 0 writes the same rows."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from rooms_kit import PLAYERS, seat_four, settings

from events.store.base import EventStore
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.queries_tables import forming_table, room, waiting_tables
from readmodels.rooms import Rooms
from readmodels.runner import Projector
from services.rooms.service import RoomService


@pytest.fixture
def db(url: str) -> Iterator[ProjectionDB]:
    with contextlib.closing(open_projection_db(url)) as found:
        yield found


def caught_up(store: EventStore, db: ProjectionDB) -> ProjectionDB:
    projector = Projector(store, db, [Rooms()])
    projector.attach()
    projector.catch_up()
    return db


class Fresh:
    """The projection under code version 0, which no projector follows: the test's build."""

    code_version = 0
    name, tables, apply = Rooms.name, Rooms.tables, Rooms().apply


def rows_of(db: ProjectionDB, build: int) -> dict[str, list[dict[str, object]]]:
    with db.reader(Rooms(), build) as rows:
        return {s.name: rows.select(s.name, {}, order=s.key, limit=10_000) for s in Rooms.tables}


def test_a_forming_table_waits_with_its_free_seats_until_its_fourth_player_sits(
    rooms: RoomService, store: EventStore, db: ProjectionDB,
) -> None:  # fmt: skip
    rooms.configure(settings("east", minimum=0))
    rooms.configure(settings("west"))
    rooms.join("east", "ann")
    rooms.join("east", "bo")
    rooms.leave("east", "ann")
    table = forming_table(caught_up(store, db), "east")
    assert table is not None
    assert (table.table_id, table.seats, table.free_seats) == ("east.1", [None, "bo", None, None], [0, 2, 3])
    assert (table.variant, table.base_stake) == ("harbin", 2)
    assert [t.room for t in waiting_tables(db).items] == ["east", "west"]
    rooms.join("east", "ann")
    rooms.join("east", "cy")
    rooms.join("east", "di")
    caught_up(store, db)
    assert [t.room for t in waiting_tables(db).items] == ["west"]  # east's table is full
    found = room(db, "east")
    assert found is not None and (found.tables_waiting, found.players_waiting) == (0, 4)


def test_a_started_table_is_in_play_and_the_room_forms_its_next(
    rooms: RoomService, store: EventStore, db: ProjectionDB,
) -> None:  # fmt: skip
    rooms.configure(settings("east"))
    seat_four(rooms)
    for player in PLAYERS:
        rooms.ready("east", player)
    rooms.join("east", "ed")
    caught_up(store, db)
    found = room(db, "east")
    assert found is not None
    assert (found.tables_in_play, found.players_seated, found.tables_waiting,
            found.players_waiting) == (1, 4, 1, 1)  # fmt: skip
    table = forming_table(db, "east")
    assert table is not None and (table.table_id, table.seats[0]) == ("east.2", "ed")


def test_the_rooms_rows_equal_a_rebuild_from_zero(
    rooms: RoomService, store: EventStore, db: ProjectionDB,
) -> None:  # fmt: skip
    rooms.configure(settings("east"))
    rooms.configure(settings("west", minimum=0, base_stake=5))
    seat_four(rooms)
    rooms.leave("east", "bo")
    rooms.join("east", "bo")
    for player in PLAYERS:
        rooms.ready("east", player)
    rooms.join("west", "ed")
    caught_up(store, db)
    fresh = db.new_build(Fresh(), active=False).build  # type: ignore[arg-type]
    try:
        position = 0
        while events := store.read_all(position + 1, 7):  # small batches: rows carried over
            with db.batch(Fresh(), fresh, position, events[-1].position) as rows:  # type: ignore[arg-type]
                for event in events:
                    Fresh.apply(event, rows)
            position = events[-1].position
        live = db.active_build(Rooms.name)
        assert live is not None
        assert rows_of(db, fresh) == rows_of(db, live.build)
        assert rows_of(db, live.build)["rooms_forming"]  # the rows compared hold forming tables
    finally:
        db.drop_build(Rooms(), fresh)
