"""The timekeeper plays what the clock says: turns, claim windows, 托管 and 超时托管, drops and
the reconnect grace, 上海's penalties, a leaver played out, two timekeepers at once.

Most tests move the clock on by rewriting the stored due times (``rush``) and let the
timekeeper take one look (``tick``); the first one waits for a real one-second turn.
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest
from games import PLAYERS, Bots, accept
from timer_kit import rush

from events.store import open_store
from events.store.base import EventStore
from services.rules.table import TableState
from services.rules.table.commands import (
    CancelAutoplay,
    LeaveTable,
    OpenTable,
    PassClaim,
    ReportDisconnect,
    ReportReconnect,
    RequestAutoplay,
    StartHand,
)
from services.tables import TableService
from services.tables.runner import fire_timer
from workers.timekeeper import Timekeeper

QUICK = {"turn": 1, "claim": 1, "autoplay_window": 1, "reconnect_grace": 1}
SLOW = {"turn": 60, "claim": 60, "autoplay_window": 3, "reconnect_grace": 180}


def dealt(service: TableService, table_id: str, variant: str = "harbin", timing=SLOW) -> TableState:
    command = OpenTable(table_id=table_id, variant=variant, players=PLAYERS, timing=timing)
    accept(service, table_id, command, f"{table_id}/open")
    return accept(service, table_id, StartHand(), f"{table_id}/deal")


def keeper(service: TableService) -> Timekeeper:
    return Timekeeper(service.store, lambda t: fire_timer(service, t), threads=1)  # type: ignore[arg-type]


def timer_keys(store: EventStore, table_id: str) -> list[str]:
    return [t.key for t in store.timers_of(table_id)]  # type: ignore[attr-defined]


def types_by(store: EventStore, table_id: str, actor: str) -> list[str]:
    return [e.type for e in store.read_stream(table_id) if e.actor.kind == actor]


@pytest.fixture
def service(store_url: str) -> TableService:
    return TableService(open_store(store_url))


def test_a_turn_that_runs_out_is_played_by_the_timer(service: TableService) -> None:
    state = dealt(service, "t1", timing=QUICK)
    seat = state.hand.turn  # type: ignore[union-attr]
    assert timer_keys(service.store, "t1") == [f"turn:{seat}:v{state.wait_since}"]
    stop = threading.Event()
    loop = threading.Thread(target=keeper(service).run, args=(stop,))
    loop.start()
    try:
        for _ in range(100):  # at most 10 s for a one-second turn
            if "wait_timed_out" in types_by(service.store, "t1", "timer"):
                break
            time.sleep(0.1)
    finally:
        stop.set()
        loop.join(10)
    played = [e for e in service.store.read_stream("t1") if e.actor.kind == "timer"]
    assert [e.type for e in played[:3]] == ["wait_timed_out", "seat_autoplayed", "tile_discarded"]
    assert played[0].payload["seats"] == [seat]
    assert service.load("t1").presence[seat].autoplay == "timeout"  # 超时托管 from now on


def test_a_move_just_before_the_deadline_wins_and_the_timeout_changes_nothing(
    service: TableService,
) -> None:
    state = dealt(service, "t1")
    rush(service.store)
    (claimed,) = service.store.claim_due_timers()  # type: ignore[attr-defined]
    bots = Bots(service)
    state = bots.play(state)  # the seat discards while the timer is on its way
    head = service.store.stream_version("t1")
    assert fire_timer(service, claimed).status == "refused"
    assert service.store.stream_version("t1") == head
    assert types_by(service.store, "t1", "timer") == []
    assert claimed.key not in timer_keys(service.store, "t1")


def test_a_claim_window_times_out_for_every_seat_that_did_not_answer(
    service: TableService,
) -> None:
    state = dealt(service, "t1")
    bots = Bots(service, seed=3)

    def open_to_two(s: TableState) -> bool:
        return bool(s.hand and s.hand.step == "claims" and len(s.hand.window.options) >= 2)  # type: ignore[union-attr]

    state = bots.play_until(state, open_to_two)
    first, *others = [seat for seat, _ in state.hand.window.options]  # type: ignore[union-attr]
    accept(service, "t1", PassClaim(seat=first), "t1/pass")
    assert [k.split(":")[:2] for k in timer_keys(service.store, "t1")] == [["claim", "all"]]
    rush(service.store)
    assert keeper(service).tick() == 1
    answered = [
        e.payload["seat"]
        for e in service.store.read_stream("t1")
        if e.type == "claim_answered" and e.actor.kind == "timer"
    ]
    assert answered == others
    assert service.load("t1").hand.step != "claims"  # type: ignore[union-attr]


def test_after_a_timeout_the_seat_gets_the_short_托管_window_on_its_later_turns(
    service: TableService,
) -> None:
    state = dealt(service, "t1")
    seat = state.hand.turn  # type: ignore[union-attr]
    rush(service.store)
    keeper(service).tick()
    state = Bots(service).play_until(
        service.load("t1"),
        lambda s: s.hand.turn == seat and s.hand.step == "discard",  # type: ignore[union-attr]
    )
    (window,) = service.store.timers_of("t1")  # type: ignore[attr-defined]
    assert window.key == f"autoplay_window:{seat}:v{state.wait_since}"
    assert (window.due_at - window.claimed_at).total_seconds() <= SLOW["autoplay_window"]
    rush(service.store)
    keeper(service).tick()
    assert types_by(service.store, "t1", "timer").count("seat_autoplayed") == 2
    assert service.load("t1").hand.system_moves[seat] == 2  # type: ignore[union-attr]


def test_主动托管_is_never_waited_on_and_cancelling_it_brings_the_clock_back(
    service: TableService,
) -> None:
    state = dealt(service, "t1")
    seat = state.hand.turn  # type: ignore[union-attr]
    accept(service, "t1", RequestAutoplay(seat=seat), "t1/auto")
    bots = Bots(service)
    state = bots.play_until(
        service.load("t1"),
        lambda s: s.hand.turn == seat and s.hand.step == "discard" or s.hand_over,  # type: ignore[union-attr]
        limit=200,
    )
    assert not any(k.startswith(f"turn:{seat}:") for k in timer_keys(service.store, "t1"))
    state = accept(service, "t1", CancelAutoplay(seat=seat), "t1/back")
    state = bots.play_until(
        state,
        lambda s: s.hand.turn == seat and s.hand.step == "discard" or s.hand_over,  # type: ignore[union-attr]
    )
    if not state.hand_over:
        assert timer_keys(service.store, "t1") == [f"turn:{seat}:v{state.wait_since}"]


def test_a_dropped_seat_gets_its_grace_then_托管_until_the_hand_is_settled(
    service: TableService,
) -> None:
    state = dealt(service, "t1")
    away = (state.hand.turn + 1) % 4  # type: ignore[union-attr]
    accept(service, "t1", ReportDisconnect(seat=away), "t1/drop")
    assert any(k.startswith(f"reconnect_grace:{away}:") for k in timer_keys(service.store, "t1"))
    accept(service, "t1", ReportReconnect(seat=away), "t1/back")
    assert not any(k.startswith("reconnect_grace") for k in timer_keys(service.store, "t1"))
    accept(service, "t1", ReportDisconnect(seat=away), "t1/drop-again")
    rush(service.store, "reconnect_grace")
    keeper(service).tick()
    assert service.load("t1").presence[away].grace_over
    state = Bots(service).play_hand(service.load("t1"))
    assert state.hand_over  # every turn of the dropped seat was played at once, by the system
    assert not any(k.startswith(f"turn:{away}:") for k in timer_keys(service.store, "t1"))


def test_shanghai_a_drop_past_the_grace_is_penalised_when_the_timer_fires(
    service: TableService,
) -> None:
    state = dealt(service, "t1", variant="shanghai")
    away = (state.hand.turn + 2) % 4  # type: ignore[union-attr]
    accept(service, "t1", ReportDisconnect(seat=away), "t1/drop")
    rush(service.store)
    while keeper(service).tick():
        if "penalty_adjudicated" in types_by(service.store, "t1", "timer"):
            break
        rush(service.store)
    (penalty,) = [e for e in service.store.read_stream("t1") if e.type == "penalty_adjudicated"]
    assert penalty.payload["seat"] == away and penalty.payload["cause"] == "dropped"
    assert penalty.actor.kind == "timer"


def test_shanghai_the_fifth_move_the_system_makes_for_a_seat_is_penalised(
    service: TableService,
) -> None:
    dealt(service, "t1", variant="shanghai")
    for _ in range(200):  # nobody moves: the timers play every seat
        rush(service.store)
        if not keeper(service).tick():
            break
        if "penalty_adjudicated" in types_by(service.store, "t1", "timer"):
            break
    penalties = [e for e in service.store.read_stream("t1") if e.type == "penalty_adjudicated"]
    assert penalties and penalties[0].payload["cause"] == "timeouts"


def test_a_leaving_seat_is_played_out_by_the_timers_and_the_series_ends(
    service: TableService,
) -> None:
    dealt(service, "t1", variant="harbin")
    accept(service, "t1", LeaveTable(seat=1), "t1/leave")
    for _ in range(1000):  # the others never move: the timers play them, 托管 plays the leaver
        if "series_ended" in [e.type for e in service.store.read_stream("t1")]:
            break
        rush(service.store)
        assert keeper(service).tick() > 0, "the table waits on nothing, yet its series goes on"
    assert "series_ended" in [e.type for e in service.store.read_stream("t1")]
    assert timer_keys(service.store, "t1") == []


def test_two_timekeepers_at_once_fire_every_timeout_once(store_url: str) -> None:
    tables = [f"t{n}" for n in range(6)]
    first, second = TableService(open_store(store_url)), TableService(open_store(store_url))
    for table_id in tables:
        dealt(first, table_id)
    stop = threading.Event()
    loops = [threading.Thread(target=keeper(s).run, args=(stop,)) for s in (first, second)]
    for loop in loops:
        loop.start()
    try:
        for _ in range(30):  # the clock keeps running out while both keepers race
            rush(first.store)
            time.sleep(0.1)
    finally:
        stop.set()
        for loop in loops:
            loop.join(10)
    fired: Counter[str | None] = Counter(
        e.command_id
        for table_id in tables
        for e in first.store.read_stream(table_id)
        if e.type == "wait_timed_out"
    )
    assert len(fired) >= len(tables) and max(fired.values()) == 1  # one per timer, none twice
