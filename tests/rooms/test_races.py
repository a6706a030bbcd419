"""Joins racing on PostgreSQL (real, a schema of the tests' own): of racers for the last seat
exactly one sits down; one player racing into two rooms holds one seat."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

from rooms_kit import settings

from events.store import open_store
from services.rooms.room import RoomRefused
from services.rooms.service import RoomService
from services.rooms.starter import DirectStarter
from services.tables.service import TableService

RACERS = 6
ROUNDS = 3


def race(url: str, calls: list[Callable[[RoomService], object]]) -> list[object]:
    """Run each call on its own connection, all released at once; their results or refusals."""
    results: list[object] = [None] * len(calls)
    start = threading.Barrier(len(calls), timeout=30)

    def run(n: int) -> None:
        with contextlib.closing(open_store(url)) as store:
            rooms = RoomService(store, DirectStarter(TableService(store)))
            rooms.load("east")  # connected before the start
            start.wait()
            try:
                results[n] = calls[n](rooms)
            except RoomRefused as refused:
                results[n] = refused

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(t.is_alive() for t in threads)
    return results


def test_joins_racing_for_the_last_seat_never_over_seat(pg_url: str) -> None:
    with contextlib.closing(open_store(pg_url)) as store:
        rooms = RoomService(store, DirectStarter(TableService(store)))
        for round_ in range(ROUNDS):
            room = f"east{round_}"
            rooms.configure(settings(room))
            for player in ("ann", "bo", "cy"):
                rooms.join(room, f"{player}{round_}")
            racers = [f"r{round_}x{n}" for n in range(RACERS)]
            results = race(pg_url, [lambda s, p=p, r=room: s.join(r, p) for p in racers])
            refused = [r for r in results if isinstance(r, RoomRefused)]
            assert [r.code for r in refused] == ["table_full"] * (RACERS - 1)
            seats = rooms.load(room).seats
            assert sum(p in racers for p in seats) == 1 and None not in seats
            holding = [p for p in racers if rooms.account(p).room == room]
            assert holding == [p for p in seats if p in racers]  # the losers' claims released


def test_one_player_racing_into_two_rooms_holds_one_seat(pg_url: str) -> None:
    with contextlib.closing(open_store(pg_url)) as store:
        rooms = RoomService(store, DirectStarter(TableService(store)))
        for round_ in range(ROUNDS):
            names = [f"r{round_}a", f"r{round_}b", f"r{round_}c"]
            for name in names:
                rooms.configure(settings(name))
            player = f"ann{round_}"
            results = race(pg_url, [lambda s, r=r, p=player: s.join(r, p) for r in names])
            seated = [name for name in names if player in rooms.load(name).seats]
            assert len(seated) == 1
            refused = [r for r in results if isinstance(r, RoomRefused)]
            assert {r.code for r in refused} == {"seated_elsewhere"} and len(refused) == 2
            assert rooms.account(player).room == seated[0]
