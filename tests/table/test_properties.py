"""Properties of random legal play, in every variant.

A hand is played from a random seed by choosing among ``legal.play_commands`` (biased towards
winning, declaring 听 and claiming, so that those paths are walked too). After every command:
every tile is in exactly one place; while the hand is in play somebody may act; no seat's
``player_view`` shows a tile that is hidden from it. At the end: replaying the events (through
their JSON form) gives the live state, and the same seed and choices give the same events.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.base import DomainEvent
from events.registry import registry
from services.rules.events import hand as ev
from services.rules.melds import Meld
from services.rules.table import TableState, decide, evolve, replay
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    OpenTable,
    Pung,
    RaiseWildPair,
    StartHand,
)
from services.rules.table.conservation import conservation_errors
from services.rules.table.deal import full_set
from services.rules.table.legal import play_commands
from services.rules.table.state import HandState
from services.rules.table.views import player_view
from services.rules.table.winning import may_declare_ready, melds_after_kong
from services.rules.tiles import names, parse_tiles

from .builders import VARIANTS

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
MAX_COMMANDS = 1500


def _weight(command: Command) -> float:
    if isinstance(command, DeclareWin):
        return 60.0
    if isinstance(command, DiscardTile) and command.ready is not None:
        return 25.0
    if isinstance(command, (Chow, Pung, Kong, DeclareHonourKong, RaiseWildPair)):
        return 4.0
    return 1.0


def choose(state: TableState, rng: random.Random) -> Command | None:
    options = [c for seat in range(4) for c in play_commands(state, seat)]
    if not options:
        return None
    return rng.choices(options, weights=[_weight(c) for c in options])[0]


# -- what a seat may see ------------------------------------------------------------------------
def _tiles(text: str | None) -> list[str]:
    return names(parse_tiles(text)) if text else []


def visible_tiles(view: dict[str, Any]) -> Counter[str]:
    """Every tile face a view shows (the claim window's tile lies in a discard pile already)."""
    hand = view["hand"]
    seen: Counter[str] = Counter()
    for seat in hand["seats"]:
        seen.update(_tiles(seat["concealed"]))
        seen.update([seat["drawn"]] if seat["drawn"] else [])
        for meld in seat["melds"]:
            seen.update(_tiles(meld["tiles"]))
        seen.update(seat["discards"])
        seen.update(seat["flowers"])
        seen.update(seat["set_aside"])
    seen.update([hand["indicator"]] if hand["indicator"] else [])
    seen.update([hand["bao"]] if hand["bao"] else [])
    return seen


def hidden_from(state: TableState, viewer: int) -> Counter[str]:
    """Tiles the viewer may not see: other hands (unless shown by 明楼), their face-down kongs,
    the wall (the 混 indicator excepted) and the 宝 before the viewer is 听."""
    hand = state.hand
    assert hand is not None
    config = state.variant.config
    hidden: Counter[str] = Counter()
    for index, seat in enumerate(hand.seats):
        if index == viewer:
            continue
        hidden.update(names(seat.concealed if not seat.shown else ()))
        hidden.update(names([seat.drawn] if seat.drawn is not None else []))
        for meld in seat.melds:
            if meld.kind == "concealed_kong" and not (
                config.concealed_kong_shown_when_open and seat.is_open
            ):
                hidden.update(names(meld.tiles))
    wall = [
        t
        for i, t in enumerate(hand.wall[hand.head : hand.tail], start=hand.head)
        if i != hand.indicator_index
    ]
    hidden.update(names(wall))
    if hand.bao is not None and hand.seat(viewer).ready is None:
        hidden.update(names([hand.bao]))
    return hidden


def check_views(state: TableState) -> None:
    hand = state.hand
    if hand is None or hand.step == "ended":
        return
    everything = Counter(names(full_set(state.variant.config)))
    for viewer in range(4):
        view = player_view(state, viewer)
        assert "wall" not in view["hand"] and "seed" not in view["hand"]
        seen = visible_tiles(view)
        allowed = everything - hidden_from(state, viewer)
        leaked = seen - allowed
        assert not leaked, f"seat {viewer} sees {sorted(leaked.elements())} it may not"
        for index, seat in enumerate(view["hand"]["seats"]):
            if index != viewer:
                assert seat["drawn"] is None
                if not hand.seat(index).shown:
                    assert seat["concealed"] is None
        if hand.bao is not None and hand.seat(viewer).ready is None:
            assert view["hand"]["bao"] is None


# -- rules every event must keep ------------------------------------------------------------------
def check_rules(before: TableState, event: DomainEvent) -> None:
    """Per-event rule invariants: who may win, what a ready seat may throw, Harbin's 4 tiles."""
    hand = before.hand
    if hand is None:
        return
    config = before.variant.config
    if isinstance(event, ev.HandWon):
        for win in event.wins:
            seat = hand.seat(win.seat)
            assert not seat.xianggong, "a 相公 seat won"
            if config.ready_rule == "required":
                assert seat.ready is not None, f"{config.name}: a win without 听"
            if seat.ready == "open":
                assert win.self_drawn, "明楼 won on a discard"
            if not win.self_drawn and config.wildcard == "hun":
                assert parse_tiles(win.tile)[0] not in hand.wildcards, "a discarded 混 was won on"
        if not config.multiple_winners:
            assert len(event.wins) == 1
    elif isinstance(event, ev.TileDiscarded):
        seat = hand.seat(event.seat)
        if seat.ready is not None:
            assert seat.drawn is not None and names([seat.drawn]) == [event.tile], (
                "a ready seat changed its hand"
            )
    elif isinstance(event, ev.TileClaimed):
        seat = hand.seat(event.seat)
        assert len(seat.concealed) >= config.min_concealed_to_claim, (
            "a claim with too few concealed tiles"
        )
        if event.kind == "chi" and not event.ready:
            assert event.seat == (event.from_seat + 1) % 4, (
                "吃 from a seat that is not the previous one"
            )
        if seat.ready is not None:
            assert event.kind == "kong" and config.kong_after_ready == "if_still_ready", (
                "a ready seat claimed"
            )
            rest = list(seat.concealed)
            for _ in range(3):
                rest.remove(parse_tiles(event.tile)[0])
            assert_still_declarable(before, seat.melds, "kong", parse_tiles(event.tile)[0], rest)
        if config.wildcard == "hun":
            assert parse_tiles(event.tile)[0] not in hand.wildcards, "a discarded 混 was claimed"
    elif isinstance(event, ev.KongDeclared) and hand.seat(event.seat).ready is not None:
        seat = hand.seat(event.seat)
        kong_tile = parse_tiles(event.tiles[0])[0]
        rest = list(seat.hand)
        for _ in event.tiles:
            rest.remove(kong_tile)
        assert_still_declarable(before, seat.melds, event.kind, kong_tile, rest)
    elif isinstance(event, ev.ClaimAnswered):
        assert not hand.last_draws, "a claim window in the last draws"


def assert_still_declarable(
    before: TableState, melds: tuple[Meld, ...], kind: str, kong_tile: int, rest: list[int]
) -> None:
    """Decision 4: a kong after 听 leaves a hand that could declare 听 (哈尔滨's conditions too)."""
    config = before.variant.config
    assert before.hand is not None
    after = melds_after_kong(melds, kind, kong_tile)
    assert may_declare_ready(config, tuple(rest), after, before.hand.wildcards), (
        "a kong after 听 left a hand that could not declare 听"
    )


# -- playing a hand -----------------------------------------------------------------------------
def play_hand(
    variant: str, seed: str, rng: random.Random, hands: int = 1, views: bool = True
) -> tuple[TableState, list[DomainEvent]]:
    state = TableState()
    events: list[DomainEvent] = []

    def apply(command: Command) -> None:
        nonlocal state
        produced = decide(state, command)
        for event in produced:
            check_rules(state, event)
            state = evolve(state, event)
        events.extend(produced)
        error = conservation_errors(state)
        assert error is None, f"{command!r}: {error}"
        if views:
            check_views(state)

    apply(OpenTable(table_id="prop", variant=variant, players=("a", "b", "c", "d")))
    for number in range(hands):
        apply(StartHand(seed=f"{seed}-{number}"))
        for _ in range(MAX_COMMANDS):
            if state.hand_over:
                break
            command = choose(state, rng)
            assert command is not None, "the hand is in play but nobody may act"
            apply(command)
        assert state.hand_over, "the hand did not end"
    return state, events


def round_trip(events: list[DomainEvent]) -> list[DomainEvent]:
    """Each event through its stored JSON form and back."""
    back = []
    for event in events:
        kind, version, payload = registry.encode(event)
        stored = json.loads(json.dumps(payload))
        back.append(
            registry.model(kind).model_validate(
                {**registry.upcast(kind, version, stored), "type": kind}
            )
        )
    return back


seeds = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=8, max_size=16)


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=seeds, choices=st.integers(0, 2**32 - 1))
def test_random_legal_play_conserves_tiles_and_hides_what_each_seat_may_not_see(
    variant: str, seed: str, choices: int
) -> None:
    play_hand(variant, seed, random.Random(choices))


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=seeds, choices=st.integers(0, 2**32 - 1))
def test_replaying_the_stored_events_gives_the_live_state(
    variant: str, seed: str, choices: int
) -> None:
    state, events = play_hand(variant, seed, random.Random(choices), hands=2, views=False)
    assert replay(round_trip(events)) == state
    assert replay(events) == state


@SETTINGS
@given(variant=st.sampled_from(VARIANTS), seed=seeds, choices=st.integers(0, 2**32 - 1))
def test_the_same_seed_and_choices_give_the_same_events(
    variant: str, seed: str, choices: int
) -> None:
    _, first = play_hand(variant, seed, random.Random(choices), views=False)
    _, second = play_hand(variant, seed, random.Random(choices), views=False)
    assert [e.model_dump(mode="json") for e in first] == [e.model_dump(mode="json") for e in second]


def _ended(state: TableState) -> HandState:
    assert state.hand is not None
    return state.hand


@settings(max_examples=25, deadline=None, derandomize=True)
@given(variant=st.sampled_from(VARIANTS), seed=seeds, choices=st.integers(0, 2**32 - 1))
def test_a_settled_hand_pays_out_zero_in_total_and_names_a_valid_next_dealer(
    variant: str, seed: str, choices: int
) -> None:
    state, events = play_hand(variant, seed, random.Random(choices), views=False)
    settled = [e for e in events if e.type == "hand_settled"][-1]
    assert sum(settled.payments) == 0 and sum(settled.hand_payments) == 0  # type: ignore[attr-defined]
    assert settled.next_dealer is None or 0 <= settled.next_dealer <= 3  # type: ignore[attr-defined]
    assert _ended(state).step == "ended"
