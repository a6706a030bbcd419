"""The table service on both stores: commands through the rules into an append-only log."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from urllib.parse import parse_qs, urlsplit

import psycopg
import pytest
from psycopg import sql

from events.store import open_store
from events.store.base import EventStore
from services.bots.winning_bot import winning_command
from services.rules.table import TableState, replay
from services.rules.table.commands import DiscardTile, StartHand
from services.rules.table.legal import seats_to_act
from services.rules.tiles import name as tile_name
from services.tables import Accepted, Rejected, TableService
from services.tables.codec import decode
from services.tables.loader import load
from services.tables.verify import verify_table

PLAYERS = ("ann", "bo", "cy", "di")
SNAPSHOT_KEY = b"service-test-snapshot-key"
PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"


def play_hand(service: TableService, table_id: str, seed: int = 7) -> TableState:
    """Four winning bots play one hand through ``handle``; returns the live state."""
    rng = random.Random(seed)
    started = service.handle(table_id, StartHand(), command_id=f"{table_id}/deal")
    assert isinstance(started, Accepted)
    state = started.state
    assert state is not None
    for move in range(1, 1000):
        if state.hand_over:
            break
        seat = seats_to_act(state)[0]
        command = winning_command(state, seat, rng)
        outcome = service.handle(table_id, command, command_id=f"{table_id}/move-{move}")
        assert isinstance(outcome, Accepted), outcome
        assert outcome.state is not None
        state = outcome.state
    return state


@pytest.mark.parametrize("variant", ["harbin", "shandong", "tanggu"])
def test_a_game_played_through_handle_survives_a_restart_and_replays_exactly(
    store_url: str, variant: str
) -> None:
    store = open_store(store_url)
    service = TableService(store, snapshot_every=40, snapshot_key=SNAPSHOT_KEY)
    service.open_table("t1", variant, PLAYERS, command_id="open")
    live = play_hand(service, "t1")
    store.close()

    reopened = open_store(store_url)  # a new process: nothing but the store survives
    try:
        assert TableService(reopened, snapshot_key=SNAPSHOT_KEY).load("t1") == live
        assert load(reopened, "t1", use_snapshot=False).state == live
        report = verify_table(reopened.read_stream("t1"))
        assert report.ok, report.lines()
        assert report.seeds_checked == 1
    finally:
        reopened.close()


def test_a_changed_byte_is_found_and_named(store: EventStore, store_url: str) -> None:
    service = TableService(store)
    service.open_table("t1", "mudanjiang", PLAYERS, command_id="open")
    play_hand(service, "t1")
    victim = next(e for e in store.read_stream("t1") if e.type == "tile_discarded")
    _rewrite_payload(
        store_url, victim.version, {**victim.payload, "automatic": not victim.payload["automatic"]}
    )
    report = verify_table(store.read_stream("t1"))
    assert not report.ok
    assert report.chain_break is not None and f"version {victim.version}" in report.chain_break


def _rewrite_payload(store_url: str, version: int, payload: dict[str, object]) -> None:
    """Change one stored payload behind the store's back, as a tamperer with the database would."""
    text = json.dumps(payload)
    if store_url.startswith("sqlite"):
        with sqlite3.connect(store_url.removeprefix("sqlite:///")) as conn:
            conn.execute(
                "UPDATE events SET payload = ? WHERE stream_id = 't1' AND version = ?",
                (text, version),
            )
        return
    schema = parse_qs(urlsplit(store_url).query)["schema"][0]
    with psycopg.connect(PG_DSN, autocommit=True) as conn:
        conn.execute(
            sql.SQL(
                "UPDATE {}.events SET payload = %s::jsonb WHERE stream_id = 't1' AND version = %s"
            ).format(sql.Identifier(schema)),
            (text, version),
        )


def test_the_stream_holds_only_the_seed_commitment_until_the_hand_ends(store: EventStore) -> None:
    service = TableService(store)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    service.handle("t1", StartHand(), command_id="deal")
    deal = next(e for e in store.read_stream("t1") if e.type == "hand_started")
    assert deal.payload["seed"] is None and len(deal.payload["seed_commitment"]) == 64
    assert not any(e.type == "seed_revealed" for e in store.read_stream("t1"))


def test_a_refused_command_stores_nothing(store: EventStore) -> None:
    service = TableService(store)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    service.handle("t1", StartHand(), command_id="deal")
    before = store.stream_version("t1")
    state = service.load("t1")
    wrong_seat = (state.hand.turn + 1) % 4 if state.hand else 0
    outcome = service.handle("t1", DiscardTile(seat=wrong_seat, tile="1m"), command_id="bad")
    assert isinstance(outcome, Rejected)
    assert "turn" in outcome.reason
    assert store.stream_version("t1") == before


def test_a_retried_command_id_gets_the_first_result_back(store: EventStore) -> None:
    service = TableService(store)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    first = service.handle("t1", StartHand(), command_id="deal-1")
    again = service.handle("t1", StartHand(), command_id="deal-1")
    assert isinstance(first, Accepted) and isinstance(again, Accepted)
    assert [e.event_id for e in again.events] == [e.event_id for e in first.events]
    assert sum(e.type == "hand_started" for e in store.read_stream("t1")) == 1


def test_snapshots_are_only_an_optimisation(store: EventStore) -> None:
    service = TableService(store, snapshot_every=25, snapshot_key=SNAPSHOT_KEY)
    service.open_table("t1", "shanghai", PLAYERS, command_id="open")
    play_hand(service, "t1")
    assert store.load_snapshot("t1") is not None
    with_snapshots = load(store, "t1", snapshot_key=SNAPSHOT_KEY).state
    store.delete_snapshots()
    assert load(store, "t1", snapshot_key=SNAPSHOT_KEY).state == with_snapshots == replay(decode_all(store))


def decode_all(store: EventStore) -> list:
    from services.tables.loader import revealed_seeds, with_seed

    events = store.read_stream("t1")
    seeds = revealed_seeds(events)
    return [with_seed(store, "t1", decode(e), seeds) for e in events]


def test_racing_deals_start_exactly_one_hand(store_url: str) -> None:
    setup = open_store(store_url)
    TableService(setup).open_table("t1", "shandong", PLAYERS, command_id="open")
    outcomes: list[object] = []

    def deal(n: int) -> None:
        store = open_store(store_url)
        try:
            outcomes.append(TableService(store).handle("t1", StartHand(), command_id=f"deal-{n}"))
        finally:
            store.close()

    threads = [threading.Thread(target=deal, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert sum(isinstance(o, Accepted) for o in outcomes) == 1
        assert all(
            isinstance(o, Rejected) and "in play" in o.reason
            for o in outcomes
            if not isinstance(o, Accepted)
        )
        assert sum(e.type == "hand_started" for e in setup.read_stream("t1")) == 1
        assert verify_table(setup.read_stream("t1")).chain_break is None
    finally:
        setup.close()


def test_a_seat_is_streamed_no_other_seat_s_draws(store: EventStore) -> None:
    service = TableService(store)
    service.open_table("t1", "shandong", PLAYERS, command_id="open")
    play_hand(service, "t1")
    for event in service.stream_for("t1", 2).events:
        payload = event["payload"]
        if event["type"] in ("tile_drawn", "flower_replaced") and payload["seat"] != 2:
            assert payload.get("tile") is None and payload.get("replacement") is None
        if event["type"] == "tiles_dealt":
            assert [h is not None for h in payload["hands"]] == [False, False, True, False]
        if event["type"] == "hand_started":
            assert payload["seed"] is None and payload["wall"] is None


def test_a_version_guarded_command_is_refused_once_the_table_moved_on(store: EventStore) -> None:
    service = TableService(store)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    service.handle("t1", StartHand(), command_id="deal")
    version = store.stream_version("t1")
    state = service.load("t1")
    assert state.hand is not None
    seat = state.hand.turn
    discard = DiscardTile(seat=seat, tile=tile_name(state.hand.seat(seat).hand[-1]))
    first = service.handle("t1", discard, command_id="timer-1", if_version=version)
    assert isinstance(first, Accepted)
    late = service.handle(  # the timer fired after the move
        "t1", discard, command_id="timer-2", if_version=version
    )
    assert isinstance(late, Rejected) and "moved on" in late.reason
    assert store.stream_version("t1") == version + len(first.events)
