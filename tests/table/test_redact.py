"""``event_for``: an allow-list per event type and viewer, and what it keeps from each seat."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import pytest

import services.rules.events.accounts  # noqa: F401  (registers the account and room events the policies name)
import services.rules.events.rooms  # noqa: F401
from events.base import DomainEvent
from events.registry import registry
from services.rules.events import hand as ev
from services.rules.table import TableState, decide, evolve
from services.rules.table.commands import Kong
from services.rules.table.redact import POLICIES, WIN_POLICY, Field, apply, event_for

from .builders import Table, tail_for
from .test_bao import ready_seat_one

VIEWERS: tuple[int | Literal["spectator", "operator"], ...] = (0, 1, 2, 3, "spectator", "operator")


def _fields(model: type[DomainEvent]) -> set[str]:
    return set(model.model_fields) - {"type"}


def folded(table: Table) -> Iterator[tuple[TableState, DomainEvent]]:
    """Each event of ``table`` with the table just before it."""
    state = TableState()
    for event in table.events:
        yield state, event
        state = evolve(state, event)


# -- the allow-list itself ------------------------------------------------------------------------
def test_every_registered_event_type_has_a_policy() -> None:
    missing = [name for name in registry.types() if name not in POLICIES]
    assert not missing, f"event types with no redaction policy (add one to POLICIES): {missing}"


@pytest.mark.parametrize("type_name", registry.types())
def test_every_field_of_every_event_names_who_may_see_it(type_name: str) -> None:
    policy = POLICIES[type_name]
    unnamed = _fields(registry.model(type_name)) - set(policy)
    assert not unnamed, f"{type_name}: fields with no rule (sent to nobody): {sorted(unnamed)}"
    assert all(isinstance(rule, Field) for rule in policy.values())


def test_every_field_of_a_win_names_who_may_see_it() -> None:
    assert _fields(ev.Win) <= set(WIN_POLICY)


def test_the_operator_is_sent_every_field_of_every_event() -> None:
    for type_name, policy in POLICIES.items():
        for field_name in _fields(registry.model(type_name)):
            assert policy[field_name].operator is not None, (type_name, field_name)


class TileWhispered(DomainEvent):
    """An event nobody wrote a policy for (not registered: it exists only in this test)."""

    type: Literal["tile_whispered"] = "tile_whispered"
    seat: int
    tile: str


def test_an_event_with_no_policy_is_sent_as_its_type_alone_even_to_the_operator() -> None:
    event = TileWhispered(seat=0, tile="5m")
    for viewer in VIEWERS:
        assert event_for(viewer, event, TableState()) == {"type": "tile_whispered"}


def test_a_field_with_no_rule_is_left_out_for_every_viewer() -> None:
    payload: dict[str, Any] = {"type": "tile_drawn", "seat": 1, "tile": "5m", "wall": ["1m"]}
    for viewer in VIEWERS:
        assert "wall" not in apply(POLICIES["tile_drawn"], viewer, payload, TableState())


def test_an_events_type_is_always_sent() -> None:
    table = Table("shanghai")
    table.start()
    for before, event in folded(table):
        for viewer in VIEWERS:
            assert event_for(viewer, event, before)["type"] == event.type


# -- what the policies keep -----------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_the_bao_set_aside_is_sent_face_down_to_everyone_but_the_operator(variant: str) -> None:
    table = Table(variant)
    table.start(tail=tail_for(variant, bao="3s"))
    before, aside = next((b, e) for b, e in folded(table) if isinstance(e, ev.BaoSetAside))
    for viewer in (0, 1, 2, 3, "spectator"):
        assert event_for(viewer, aside, before)["tile"] is None
    assert event_for("operator", aside, before)["tile"] == "3s"


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_the_discard_that_declares_ready_tells_that_seat_the_bao_and_nobody_else(
    variant: str,
) -> None:
    table = ready_seat_one(variant, ["8p"])
    before, ready = next(
        (b, e) for b, e in folded(table) if isinstance(e, ev.TileDiscarded) and e.ready
    )
    assert event_for(1, ready, before)["bao"] == "3s"
    for viewer in (0, 2, 3, "spectator", "operator"):
        assert "bao" not in event_for(viewer, ready, before)
    assert event_for(0, ready, before)["ready"] == "plain"  # a plain 听 is announced here


def _kong_by_an_open_seat(variant: str) -> tuple[TableState, DomainEvent]:
    """Seat 0 pongs seat 1's 9p (so it is open), then declares 2222p face down: the table
    just before the 暗杠 and the event."""
    table = Table(variant)
    table.start({0: "2222p99p345m678m8s7z"}, draws=["9p", None, None, None, "1s"])
    table.play(0, "7z")
    table.discard(1, "9p")
    table.pass_all(but=[0])
    table.pung(0)
    table.play(0, "8s")
    for seat in (1, 2, 3):
        table.play(seat, table.drawn(seat) or "")
    assert table.seat(0).is_open and table.hand.turn == 0
    before = table.state
    declared = next(
        e for e in decide(before, Kong(seat=0, tile="2p")) if isinstance(e, ev.KongDeclared)
    )
    assert declared.kind == "concealed_kong"
    return before, declared


def test_harbin_keeps_a_concealed_kong_face_down_in_the_stream_even_once_its_owner_is_open() -> (
    None
):
    """Decision 4, ``001``: 碰或杠牌后必须亮明暗杠除外."""
    before, declared = _kong_by_an_open_seat("harbin")
    assert event_for(0, declared, before)["tiles"] == ["2p"] * 4
    for viewer in (1, 2, 3, "spectator"):
        assert event_for(viewer, declared, before)["tiles"] is None


def test_mudanjiang_shows_a_concealed_kong_in_the_stream_once_its_owner_is_open() -> None:
    """Decision 4, ``000``: 开门后暗杠也要亮明."""
    before, declared = _kong_by_an_open_seat("mudanjiang")
    for viewer in (0, 1, 2, 3, "spectator"):
        assert event_for(viewer, declared, before)["tiles"] == ["2p"] * 4


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shanghai"])
def test_a_kongs_replacement_draw_is_sent_to_its_owner_only(variant: str) -> None:
    before, declared = _kong_by_an_open_seat(variant)
    drawn = [e for e in decide(before, Kong(seat=0, tile="2p")) if isinstance(e, ev.TileDrawn)]
    assert drawn and drawn[0].from_tail
    state = evolve(before, declared)
    assert event_for(0, drawn[0], state)["tile"] == drawn[0].tile
    for viewer in (1, 2, 3, "spectator"):
        assert event_for(viewer, drawn[0], state)["tile"] is None


@pytest.mark.parametrize("variant", ["shanghai", "tanggu"])
def test_a_claim_answer_is_sent_to_the_other_seats_without_what_or_whose(variant: str) -> None:
    table = Table(variant)
    table.start({0: "345m678m99p2s4s6s8s1z2m", 2: "22m"})
    table.discard(0, "2m")
    table.pung(2)
    before, answer = [(b, e) for b, e in folded(table) if isinstance(e, ev.ClaimAnswered)][-1]
    assert event_for(2, answer, before)["claim"] == "pong"
    for viewer in (0, 1, 3, "spectator"):
        seen = event_for(viewer, answer, before)
        assert seen == {"type": "claim_answered", "seat": None, "claim": None, "tiles": []}
