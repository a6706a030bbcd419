"""Hands and events that set every field a redaction policy hides, played through the engine.

A step is an event with the table just before and after it. The steps come from:

- **the fixed hands**: whole hands the bots play (``decide``/``evolve``) from a fixed seed, each
  named for what it holds (a 换宝, a 塘沽 风头杠, an 暗杠, a silent 听, ...), which
  ``test_the_fixed_hands_hold_what_they_are_named_for`` holds them to;
- **built tables** (``builders.Table``): a deal from a given wall, a claim window's timeout and
  托管's pass in it, which no bot hand has;
- **the room and the player streams**: a room's own decisions (``services.rooms.room``) and the
  player-stream events the room and platform services append, at no table.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Sequence

from events.base import DomainEvent
from services.bots.runner import MAX_COMMANDS_PER_HAND, hand_seed, lineup, open_table
from services.rooms import room
from services.rules.events import accounts as ac
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.events import rooms as ro
from services.rules.table import TableState, decide, evolve
from services.rules.table.commands import Command, RequestAutoplay, StartHand
from services.rules.table.deadlines import deadlines
from services.rules.table.legal import seats_to_act

from .builders import STD, Table, tail_for

Step = tuple[TableState, DomainEvent, TableState]
Events = Sequence[DomainEvent]


def hand_steps(variant: str, bots: str, seed: int) -> Iterator[Step]:
    """The hand ``services.bots.runner.play_hand`` plays from ``seed``, step by step (the
    table's opening first)."""
    table = TableState()
    for event in open_table(variant)[1]:
        after = evolve(table, event)
        yield table, event, after
        table = after
    seats = lineup(bots)
    hand = hand_seed(str(seed), variant, 0)
    rng = random.Random(f"{hand}/bots")
    command: Command = StartHand(seed=hand)
    for _ in range(MAX_COMMANDS_PER_HAND):
        for event in decide(table, command):
            after = evolve(table, event)
            yield table, event, after
            table = after
        if table.hand_over:
            return
        seat = seats_to_act(table)[0]
        command = seats[seat](table, seat, rng)
    raise AssertionError(f"{variant}: the hand did not end after {MAX_COMMANDS_PER_HAND} commands")


def _any(of: type[DomainEvent], **fields: object) -> Callable[[Events], bool]:
    def holds(events: Events) -> bool:
        return any(
            isinstance(e, of) and all(getattr(e, k) == v for k, v in fields.items()) for e in events
        )

    return holds


def _both(*wanted: Callable[[Events], bool]) -> Callable[[Events], bool]:
    return lambda events: all(w(events) for w in wanted)


def _bao_changed(events: Events) -> bool:
    return any(isinstance(e, ev.BaoChanged) and e.new is not None for e in events)


def _wind_kong_replaced(events: Events) -> bool:
    return any(
        isinstance(e, ev.KongDeclared) and e.kind == "wind_kong" and e.replacement is not None
        for e in events
    )


def _readied(events: Events) -> bool:
    return any(isinstance(e, ev.TileDiscarded) and e.ready is not None for e in events)


def _chow_answered(events: Events) -> bool:
    return any(isinstance(e, ev.ClaimAnswered) and e.claim == "chi" and e.tiles for e in events)


FIXED_HANDS: dict[tuple[str, str, int], tuple[str, Callable[[Events], bool]]] = {
    ("harbin", "winning", 8): ("a 换宝 and a 听 told its 宝", _both(_bao_changed, _readied)),
    ("tanggu", "winning", 100): (
        "a 风头杠 of the winds with its replacement, and a plain (silent) 听",
        _both(_wind_kong_replaced, _any(ev.TileDiscarded, ready="plain")),
    ),
    ("mudanjiang", "winning", 0): ("a 换宝 and a 听 told its 宝", _both(_bao_changed, _readied)),
    ("harbin", "random", 1): ("an 暗杠", _any(ev.KongDeclared, kind="concealed_kong")),
    ("mudanjiang", "random", 18): ("an 暗杠", _any(ev.KongDeclared, kind="concealed_kong")),
    ("shandong", "winning", 0): (
        "an 暗楼 (a silent 听), flowers replaced and a 吃 answered",
        _both(_any(ev.TileDiscarded, ready="hidden"), _any(ev.FlowerReplaced), _chow_answered),
    ),
    ("shanghai", "winning", 0): (
        "flowers replaced and a 吃 answered",
        _both(_any(ev.FlowerReplaced), _chow_answered),
    ),
}
"""(variant, line-up, seed) -> what the hand holds, and the test of it. The no-leak property
test plays these first; each was found by playing seeds from 0 until one held it."""


# -- built tables: what no bot hand does ---------------------------------------------------------
def folded(events: Events, start: TableState | None = None) -> list[Step]:
    steps, table = [], TableState() if start is None else start
    for event in events:
        after = evolve(table, event)
        steps.append((table, event, after))
        table = after
    return steps


def given_wall() -> Events:
    """A deal from a given wall carries the wall in its ``hand_started``."""
    table = Table("harbin")
    table.start(STD, draws=["9m", "1p"], tail=tail_for("harbin"))
    table.play(0, "7z")
    return table.events


def claim_window_timeout() -> Events:
    """山东's standard deal: seat 0 throws 2m, seat 1 may 吃, seat 2 may 碰; the window runs out."""
    table = Table("shandong")
    table.start(STD, tail=tail_for("shandong"))
    table.discard(0, "2m")
    claim = next(d for d in deadlines(table.state) if d.wait == "claim")
    assert claim.seats == (1, 2)
    table.do(claim.timeout)
    return table.events


def autoplay_passes_a_claim() -> Events:
    """Seat 2, in 托管, could 碰 seat 0's 2m: 托管 passes for it (``seat_autoplayed``, not its
    turn)."""
    table = Table("harbin")
    table.start(STD, tail=tail_for("harbin"))
    table.do(RequestAutoplay(seat=2))
    table.discard(0, "2m")
    assert pe.SeatAutoplayed(seat=2, reason="requested", turn=False) in table.events
    return table.events


# -- the room and the player streams -------------------------------------------------------------
def room_forms_a_table() -> Events:
    """A room is set up, four players sit (one stands up and sits again), all are ready."""
    state = room.RoomState("east")
    made: list[DomainEvent] = []

    def record(events: list[DomainEvent]) -> None:
        nonlocal state
        for event in events:
            state = room.evolve_room(state, event)
        made.extend(events)

    settings = ro.RoomConfigured(
        room="east", variant="harbin", base_stake=5, minimum_points=100,
        turn_seconds=20, claim_seconds=8, options={"require_ready": True},
    )  # fmt: skip
    record(room.configure(state, settings))
    for player in ("ann", "bo", "cy", "di"):
        record(room.join(state, player, points=500))
    record(room.leave(state, "bo"))
    record(room.join(state, "bo", points=500))
    for player in ("ann", "bo", "cy", "di"):
        record(room.ready(state, player))
    assert isinstance(made[-1], ro.RoomTableStarted)
    return made


def player_streams() -> Events:
    """What the room and platform services append to a player's stream (``services.rooms``,
    ``services.accounts``), as they write it."""
    return [
        ac.PointsAdjusted(player="ann", amount=500, kind="grant", reason="welcome"),
        ro.RoomSeatClaimed(player="ann", room="east"),
        ro.RoomSeatReleased(
            player="ann", room="east", reason="series_ended", table_id="east.1", points=-40
        ),
        ro.TableSeatClaimed(player="bo", table_id="t-9"),
        ro.TableSeatReleased(player="bo", table_id="t-9", reason="series_ended", points=25),
    ]


BUILT: dict[str, Callable[[], Events]] = {
    "a deal from a given wall": given_wall,
    "a claim window that times out": claim_window_timeout,
    "托管 passing a claim": autoplay_passes_a_claim,
}
AT_NO_TABLE: dict[str, Callable[[], Events]] = {
    "a room forming a table": room_forms_a_table,
    "the player streams": player_streams,
}
"""On room and player streams: each event is judged with no table before or after it."""


@functools.cache
def every_step() -> tuple[tuple[str, Step], ...]:
    """Every step of every scenario, each with the scenario's name."""
    steps: list[tuple[str, Step]] = []
    for (variant, bots, seed), (holds, _) in FIXED_HANDS.items():
        named = f"{variant} {bots} hand {seed} ({holds})"
        steps += [(named, step) for step in hand_steps(variant, bots, seed)]
    for named, build in BUILT.items():
        steps += [(named, step) for step in folded(build())]
    for named, build in AT_NO_TABLE.items():
        steps += [(named, (TableState(), event, TableState())) for event in build()]
    return tuple(steps)
