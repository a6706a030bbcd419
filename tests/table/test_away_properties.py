"""Properties of hands in which seats time out, drop, come back, leave, or the table is dissolved,
at random moments, in every variant: every tile stays in exactly one place; while a hand is in
play the table always waits on something a timekeeper can end; every deadline's timeout is
accepted; and replaying the events (through their JSON form) gives the live state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.base import DomainEvent
from events.registry import registry
from services.rules.table import CommandRejected, TableState, decide_and_evolve, replay
from services.rules.table.commands import (
    Command,
    DissolveTable,
    OpenTable,
    ReportDisconnect,
    ReportReconnect,
    StartHand,
)
from services.rules.table.conservation import conservation_errors
from services.rules.table.deadlines import deadlines
from services.rules.table.legal import play_commands, seat_commands

from .builders import VARIANTS

SETTINGS = settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
MAX_COMMANDS = 1500


def _choices(state: TableState, rng: random.Random) -> list[tuple[float, Command]]:
    """Mostly moves; now and then a timeout, a seat going away or coming back, a dissolution."""
    found: list[tuple[float, Command]] = []
    for seat in range(4):
        found += [(1.0, c) for c in play_commands(state, seat)]
        found += [(0.02, c) for c in seat_commands(state, seat)]
        presence = state.presence[seat]
        if not presence.left:
            back = ReportReconnect(seat=seat)
            found.append((0.02, back if not presence.connected else ReportDisconnect(seat=seat)))
    found += [(0.5, d.timeout) for d in deadlines(state)]
    found.append((0.002, DissolveTable()))
    return found


def play_hands(variant: str, seed: int, hands: int = 2) -> tuple[TableState, list[DomainEvent]]:
    rng = random.Random(seed)
    state, events = TableState(), list[DomainEvent]()
    opened, state = decide_and_evolve(
        state, OpenTable(table_id="p", variant=variant, players=("a", "b", "c", "d"))
    )
    events += opened
    for number in range(hands):
        produced, state = decide_and_evolve(
            state, StartHand(seed=f"away-{variant}-{seed}-{number}")
        )
        events += produced
        for _ in range(MAX_COMMANDS):
            if state.hand_over:
                break
            waits = deadlines(state)
            assert waits, "a hand in play waits on nothing a timekeeper could end"
            for deadline in waits:  # each announced wait may be ended by its timeout
                decide_and_evolve(state, deadline.timeout)
            options = _choices(state, rng)
            command = rng.choices([c for _, c in options], weights=[w for w, _ in options])[0]
            try:  # every choice is one the table offered: none may be refused
                produced, state = decide_and_evolve(state, command)
            except CommandRejected as refusal:
                raise AssertionError(f"{command!r} was offered and refused: {refusal}") from None
            events += produced
            problem = conservation_errors(state)
            assert problem is None, problem
        assert state.hand_over, "the hand did not end"
    return state, events


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
def test_seats_coming_and_going_keep_every_tile_and_replay_to_the_live_state(
    variant: str, seed: int
) -> None:
    state, events = play_hands(variant, seed)
    stored = [registry.model(e.type).model_validate(e.model_dump(mode="json")) for e in events]
    assert replay(stored) == state
    assert state.version == len(events)
