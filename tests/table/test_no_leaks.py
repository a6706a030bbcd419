"""No seat's view or event stream holds what it may not know, over random hands of every variant.

Hands are played by the bots of ``services.bots`` (random, winning and mixed line-ups); after
every event, the event as each seat and a spectator is sent it and the view of the table after
it are searched for the facts kept from that viewer (``secrets``): other seats' concealed
tiles, the wall, the unrevealed seed, the 宝 before the viewer's 听, a face-down 暗杠. The same
search is shown to catch deliberately leaky policies and views, each on the hands it runs on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events import hand as ev
from events.base import DomainEvent
from services.bots.runner import MAX_COMMANDS_PER_HAND, hand_seed, lineup, open_table, play_hand
from services.rules.table import TableState, decide, evolve
from services.rules.table.commands import Command, StartHand
from services.rules.table.legal import seats_to_act
from services.rules.table.redact import POLICIES, PUBLIC, Viewer, apply, event_for
from services.rules.table.views import player_view
from services.rules.tiles import name, names, to_string

from .builders import STD, VARIANTS, Table
from .secrets import Redact, View, leaks_at

LINEUPS = ("random", "winning", "mixed")


def play_hand_checked(
    variant: str,
    bots: str,
    seed: int,
    redact: Redact = event_for,
    view: View = player_view,
    tight: bool = True,
    first_only: bool = False,
) -> list[str]:
    """Play the hand ``play_hand`` would play from ``seed``; every leak found after each event
    (``first_only``: stop at the first event with one)."""
    table, _ = open_table(variant)
    seats = lineup(bots)
    hand = hand_seed(str(seed), variant, 0)
    rng = random.Random(f"{hand}/bots")
    command: Command = StartHand(seed=hand)
    found: list[str] = []
    for _ in range(MAX_COMMANDS_PER_HAND):
        for event in decide(table, command):
            after = evolve(table, event)
            found += leaks_at(table, event, after, redact, view, tight)
            if found and first_only:
                return found
            table = after
        if table.hand_over:
            return found
        seat = seats_to_act(table)[0]
        command = seats[seat](table, seat, rng)
    raise AssertionError(f"{variant}: the hand did not end after {MAX_COMMANDS_PER_HAND} commands")


@pytest.mark.parametrize("variant", VARIANTS)
@settings(
    max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(bots=st.sampled_from(LINEUPS), seed=st.integers(min_value=0, max_value=2**32))
def test_no_view_or_event_holds_what_its_viewer_may_not_know(
    variant: str, bots: str, seed: int
) -> None:
    leaks = play_hand_checked(variant, bots, seed)
    assert not leaks, "\n".join(leaks[:10])


def first_hand_with(
    variant: str, bots: str, wanted: Callable[[Sequence[DomainEvent]], bool]
) -> int:
    """The first seed from 0 whose hand (as ``play_hand`` plays it) has what ``wanted`` asks."""
    for seed in range(300):
        table, _ = open_table(variant)
        _, record = play_hand(table, hand_seed(str(seed), variant, 0), lineup(bots))
        if wanted(record.events):
            return seed
    raise AssertionError(f"no {variant} hand of the first 300 has what the test needs")


def _face_down_kong(events: Sequence[DomainEvent]) -> bool:
    return any(isinstance(e, ev.KongDeclared) and e.kind == "concealed_kong" for e in events)


@pytest.mark.parametrize("variant", ["harbin", "mudanjiang"])
def test_a_hand_with_an_an_gang_leaks_none_of_its_tiles(variant: str) -> None:
    """Random hands rarely hold an 暗杠 (about 1 in 15), so one is looked for."""
    seed = first_hand_with(variant, "random", _face_down_kong)
    leaks = play_hand_checked(variant, "random", seed)
    assert not leaks, "\n".join(leaks[:10])


# -- the search catches a leak: deliberately leaky policies and views -----------------------------
def leaky(type_name: str, field_name: str) -> Redact:
    """``event_for`` with one field of one event type sent to everyone."""
    policies = {**POLICIES, type_name: {**POLICIES[type_name], field_name: PUBLIC}}

    def redact(viewer: Viewer, event: DomainEvent, before: TableState) -> dict[str, Any]:
        return apply(policies.get(event.type), viewer, event.model_dump(mode="json"), before)

    return redact


def _caught(variant: str, redact: Redact = event_for, view: View = player_view) -> list[str]:
    return play_hand_checked(variant, "winning", 1, redact, view, tight=False, first_only=True)


LEAKY_FIELDS = [
    ("tiles_dealt", "hands", VARIANTS, "tiles_dealt: hands"),
    ("tile_drawn", "tile", VARIANTS, "tile_drawn: tile"),
    ("hand_started", "seed", VARIANTS, "unrevealed seed"),
    ("bao_set_aside", "tile", ("mudanjiang", "harbin"), "bao_set_aside: tile"),
    ("flower_replaced", "replacement", ("shandong", "shanghai"), "flower_replaced: replacement"),
]


@pytest.mark.parametrize(
    ("type_name", "field_name", "variant", "expected"),
    [(t, f, v, e) for t, f, variants, e in LEAKY_FIELDS for v in variants],
)
def test_a_policy_that_sends_a_secret_field_to_everyone_is_caught(
    type_name: str, field_name: str, variant: str, expected: str
) -> None:
    leaks = _caught(variant, redact=leaky(type_name, field_name))
    assert any(expected in leak for leak in leaks), leaks


def leaks_in(events: Sequence[DomainEvent], redact: Redact) -> list[str]:
    """The search over given events, folded from an empty table."""
    found: list[str] = []
    table = TableState()
    for event in events:
        after = evolve(table, event)
        found += leaks_at(table, event, after, redact, player_view)
        table = after
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_policy_that_sends_a_given_wall_to_everyone_is_caught(variant: str) -> None:
    """A deal from a given wall (not from a seed) carries the wall in its ``hand_started``."""
    table = Table(variant)
    table.start(STD, draws=["9m", "1p"])
    table.play(0, "7z")
    assert table.of_type(ev.HandStarted)[0].wall
    assert not leaks_in(table.events, event_for)
    leaks = leaks_in(table.events, leaky("hand_started", "wall"))
    assert any("hand_started: wall" in leak for leak in leaks), leaks


def test_the_old_deny_nothing_redaction_is_caught() -> None:
    """Sending events as they are: what a new field got by default before the allow-list."""
    leaks = _caught("shanghai", redact=lambda viewer, event, before: event.model_dump(mode="json"))
    assert leaks


@pytest.mark.parametrize("variant", ["harbin", "mudanjiang"])
def test_a_policy_that_shows_every_an_gang_face_up_is_caught(variant: str) -> None:
    seed = first_hand_with(variant, "random", _face_down_kong)
    leaks = play_hand_checked(
        variant, "random", seed, redact=leaky("kong_declared", "tiles"), tight=False
    )
    assert any("kong_declared: tiles" in leak for leak in leaks), leaks


def _peeking(peek: Callable[[TableState, int | None], Any]) -> View:
    """``player_view`` with one more entry, under a name no checker knows."""

    def view(state: TableState, seat: int | None) -> dict[str, Any]:
        shown = player_view(state, seat)
        if shown["hand"] is not None and state.hand is not None:
            shown["hand"]["peek"] = peek(state, seat)
        return shown

    return view


def _next_seat(state: TableState, seat: int | None) -> int:
    return 0 if seat is None else (seat + 1) % 4


LEAKY_VIEWS: dict[str, Callable[[TableState, int | None], Any]] = {
    "the next seat's hand": lambda s, seat: to_string(s.hand.seat(_next_seat(s, seat)).concealed),
    "one tile of the next seat's hand": lambda s, seat: names(
        s.hand.seat(_next_seat(s, seat)).concealed[:1]
    ),
    "the wall": lambda s, seat: names(s.hand.wall[s.hand.head : s.hand.tail]),
    "the next tile of the wall": lambda s, seat: name(s.hand.wall[s.hand.head]),
    "the seed": lambda s, seat: s.hand.seed,
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("what", sorted(LEAKY_VIEWS))
def test_a_view_that_shows_a_secret_is_caught(variant: str, what: str) -> None:
    leaks = _caught(variant, view=_peeking(LEAKY_VIEWS[what]))
    assert any("view" in leak for leak in leaks), leaks


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_a_view_that_shows_the_bao_before_ready_is_caught(variant: str) -> None:
    def bao_to_all(state: TableState, seat: int | None) -> dict[str, Any]:
        shown = player_view(state, seat)
        hand = state.hand
        if hand is not None and hand.bao is not None and shown["hand"] is not None:
            shown["hand"]["bao"] = name(hand.bao)
        return shown

    leaks = _caught(variant, view=bao_to_all)
    assert any("view" in leak for leak in leaks), leaks
