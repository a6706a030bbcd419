"""``redact``: the rules that a mutation run of ``services/rules/table/redact.py`` found no test
holding (issue 28): each test names the rule, given events and what each viewer is sent."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, Literal

import pytest

from events import hand as ev
from events.base import DomainEvent
from services.rules.table import TableState
from services.rules.table.redact import (
    PUBLIC,
    Field,
    Seen,
    apply,
    event_for,
    hidden,
    shown,
)

from .builders import Table
from .test_redact import folded

Viewer = int | Literal["spectator", "operator"]
SEATS: tuple[Viewer, ...] = (0, 1, 2, 3)
VIEWERS: tuple[Viewer, ...] = (*SEATS, "spectator", "operator")


def _first(table: Table, kind: type[DomainEvent]) -> tuple[TableState, Any]:
    """The first event of ``kind`` at ``table``, with the table just before it."""
    return next((b, e) for b, e in folded(table) if isinstance(e, kind))


def _dealt() -> tuple[TableState, ev.TilesDealt]:
    table = Table("shanghai")
    table.start()
    return _first(table, ev.TilesDealt)


# -- the deal -------------------------------------------------------------------------------------
def test_a_spectator_is_sent_four_empty_hands_one_per_seat() -> None:
    before, dealt = _dealt()
    assert event_for("spectator", dealt, before)["hands"] == [None, None, None, None]


# -- the allow-list's machinery -------------------------------------------------------------------
def test_a_field_left_out_for_a_viewer_does_not_stop_the_fields_after_it() -> None:
    """The 宝 goes with a 听 discard to its seat only: the other seats are still sent the tile
    after it, whatever the order the policy names its fields in."""
    policy = {"bao": Field(owner=shown), "seat": PUBLIC, "tile": PUBLIC}
    payload = {"type": "tile_discarded", "seat": 1, "tile": "8p", "bao": "3s"}
    assert apply(policy, 1, payload, TableState()) == {**payload}
    for viewer in (0, 2, 3, "spectator", "operator"):
        assert apply(policy, viewer, payload, TableState()) == {
            "type": "tile_discarded",
            "seat": 1,
            "tile": "8p",
        }


def test_a_fields_rules_cannot_be_changed_once_written() -> None:
    """A policy is shared by every table: no code can turn a field's rule to shown later."""
    with pytest.raises(FrozenInstanceError):
        PUBLIC.seats = hidden  # type: ignore[misc]


def test_a_field_holds_a_rule_for_the_four_kinds_of_viewer_and_nothing_else() -> None:
    """No rule can be hung on a field under another name (a slotted class: no ``__dict__``)."""
    field = Field(owner=shown)
    assert not hasattr(field, "__dict__")
    with pytest.raises(AttributeError):
        object.__setattr__(field, "spectators", shown)


def _seen_by_a_rule(viewer: Viewer) -> Seen:
    """The context a rule is handed, for ``viewer`` looking at a discard of seat 1."""
    handed: list[Seen] = []

    def rule(value: Any, seen: Seen) -> Any:
        handed.append(seen)
        return value

    field = Field(owner=rule, seats=rule, spectator=rule, operator=rule)
    apply({"tile": field}, viewer, {"type": "tile_discarded", "seat": 1}, TableState())
    return handed[0]


def test_a_rule_cannot_change_who_looks_or_what_it_looks_at() -> None:
    """A rule is handed who looks, the event and the table read-only: it cannot make the
    spectator the operator for the rules after it."""
    seen = _seen_by_a_rule("spectator")
    assert seen.viewer == "spectator"
    with pytest.raises(FrozenInstanceError):
        seen.viewer = "operator"  # type: ignore[misc]


def test_a_rule_is_handed_who_looks_the_event_and_the_table_and_nothing_else() -> None:
    """A slotted context: no rule can leave a note on it for the rules after it."""
    seen = _seen_by_a_rule(2)
    assert (seen.viewer, seen.payload["seat"]) == (2, 1)
    assert not hasattr(seen, "__dict__")
