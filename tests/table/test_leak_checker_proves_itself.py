"""The leak checker proves itself: every field a redaction policy hides from some viewer, once
sent to that viewer, is reported as a leak naming the event, the field and the viewer.

For each (event type, field, kind of viewer) that ``POLICIES`` hides (from the seat the event is
about, from the other seats, from a spectator), a step of ``leak_scenarios`` that sets the field
is looked for; the field is turned to shown for that kind of viewer in a copy of the policies,
and the checker must report it there. A hidden field that no scenario sets, or whose leak the
checker cannot see, fails: a new event cannot be added without its scenario. The room and player
events are held to operators only the same way (decision 18).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

import pytest

import services.rules.events.accounts  # noqa: F401  (registers the account and room events the policies name)
import services.rules.events.rooms  # noqa: F401
from events.base import DomainEvent
from events.registry import registry
from services.rules.table.redact import POLICIES, SECRET, Field, Policy, Show, Viewer, apply
from services.rules.table.state import TableState

from .leak_checker import OPERATORS_ONLY_MODULES, Leak, Redact, event_leaks_at
from .leak_scenarios import every_step
from .secrets import Viewer as Looker

Role = Literal["owner", "seats", "spectator"]
Hidden = tuple[str, str, Role]


def full_rule(field: Field) -> Show | None:
    """The field at its fullest: as the operator gets it (every field of every event, a test of
    ``test_redact`` holds), or, for one the operator is not sent (the 宝 told on one's own 听,
    no field of the event), as the seat it is about gets it."""
    return field.operator if field.operator is not None else field.owner


def roles_of(type_name: str) -> tuple[Role, ...]:
    """The kinds of viewer an event of this type meets: its own seat only if it names one."""
    about_a_seat = "seat" in registry.model(type_name).model_fields
    return ("owner", "seats", "spectator") if about_a_seat else ("seats", "spectator")


def hidden_fields(policies: Mapping[str, Policy]) -> list[Hidden]:
    """Every (event type, field, kind of viewer) whose rule gives less than the field's fullest."""
    return [
        (type_name, field_name, role)
        for type_name, policy in policies.items()
        for field_name, field in policy.items()
        for role in roles_of(type_name)
        if field.rule(role) is not full_rule(field)
    ]


def flipped(policies: Mapping[str, Policy], type_name: str, field_name: str, role: Role) -> Redact:
    """The redaction under a copy of ``policies`` where that one field is shown to that role."""
    field = policies[type_name][field_name]
    leaky = {**policies, type_name: {**policies[type_name], field_name: replace(
        field, **{role: full_rule(field)})}}  # fmt: skip

    def redact(viewer: Viewer, event: DomainEvent, before: TableState) -> dict[str, Any]:
        return apply(leaky.get(event.type), viewer, event.model_dump(mode="json"), before)

    return redact


def honest(viewer: Viewer, event: DomainEvent, before: TableState) -> dict[str, Any]:
    return apply(POLICIES.get(event.type), viewer, event.model_dump(mode="json"), before)


def viewers_of(role: Role, event: DomainEvent) -> list[Looker]:
    seat = getattr(event, "seat", None)
    if role == "owner":
        return [seat] if isinstance(seat, int) else []
    return [s for s in range(4) if s != seat] if role == "seats" else [None]


def caught(
    policies: Mapping[str, Policy], type_name: str, field_name: str, role: Role
) -> tuple[str, Leak] | None:
    """The first scenario step where the checker reports that field, shown to that role, as a
    leak to a viewer of the role: the scenario's name and the leak; None if there is none."""
    redact = flipped(policies, type_name, field_name, role)
    for named, (before, event, after) in every_step():
        if event.type != type_name:
            continue
        for leak in event_leaks_at(before, event, after, redact, viewers_of(role, event)):
            if leak.field == field_name:
                return named, leak
    return None


HIDDEN = hidden_fields(POLICIES)


def test_the_scenarios_leak_nothing_under_the_real_policies() -> None:
    """So that a leak the checker reports below is the flipped field's, and no other's."""
    found = [
        f"{named}: {leak}"
        for named, (before, event, after) in every_step()
        for leak in event_leaks_at(before, event, after, honest)
    ]
    assert not found, "\n".join(found[:10])


@pytest.mark.parametrize(("type_name", "field_name", "role"), HIDDEN)
def test_every_hidden_field_shown_to_its_viewer_is_reported_as_a_leak(
    type_name: str, field_name: str, role: Role
) -> None:
    found = caught(POLICIES, type_name, field_name, role)
    assert found is not None, (
        f"{type_name}.{field_name} is hidden from {role}, but no scenario sets it so that the "
        "checker sees it shown: add a step that sets it to tests/table/leak_scenarios.py (or "
        "teach tests/table/leak_checker.py the secret)"
    )
    _, leak = found
    who = "spectator" if leak.viewer is None else f"seat {leak.viewer}"
    assert (leak.event, leak.field) == (type_name, field_name)
    assert str(leak).startswith(f"{who} sent {type_name}: ") and field_name in leak.what


def test_the_walk_holds_the_leaks_the_issue_names_and_no_public_field() -> None:
    """Issue 28: a 换宝's new 宝 sent to seats not 听, a 塘沽 风头杠's replacement sent to all."""
    named = {
        ("bao_changed", "new", "seats"),
        ("kong_declared", "replacement", "seats"),
        ("kong_declared", "replacement", "spectator"),
        ("claim_answered", "seat", "seats"),
        ("player_seated", "seat", "owner"),
    }
    assert named <= set(HIDDEN)
    shown_to_all = {
        (t, f)
        for t, policy in POLICIES.items()
        for f, rule in policy.items()
        if all(rule.rule(r) is full_rule(rule) for r in roles_of(t))
    }
    assert ("tile_discarded", "tile") in shown_to_all
    assert not {(t, f) for t, f, _ in HIDDEN} & shown_to_all


def test_a_hidden_field_that_no_scenario_sets_fails_the_walk() -> None:
    """A field the policies hide but no event of the scenarios carries (here one ``tile_drawn``
    does not have): it is walked, and nothing shows it, so its case of the walk fails."""
    policies = {**POLICIES, "tile_drawn": {**POLICIES["tile_drawn"], "next_tile": SECRET}}
    assert ("tile_drawn", "next_tile", "seats") in hidden_fields(policies)
    assert caught(policies, "tile_drawn", "next_tile", "seats") is None
    assert caught(policies, "tile_drawn", "tile", "seats") is not None


def _operators_only_types() -> list[str]:
    return [t for t in registry.types() if registry.model(t).__module__ in OPERATORS_ONLY_MODULES]


def test_every_room_and_player_event_is_in_a_scenario_with_every_field_set() -> None:
    """Decision 18: the room and player events are for operators only, so each must be played
    with every field set, where the checker would see any of them sent to a seat."""
    seen: dict[str, set[str]] = {}
    for _, (_, event, _) in every_step():
        dumped = event.model_dump(mode="json")
        seen.setdefault(event.type, set()).update(
            k for k, v in dumped.items() if v not in (None, 0, "", {}, [])
        )
    for type_name in _operators_only_types():
        fields = set(registry.model(type_name).model_fields) - {"type"}
        unset = fields - seen.get(type_name, set())
        assert not unset, f"{type_name}: no scenario sets {sorted(unset)}"


@pytest.mark.parametrize("type_name", _operators_only_types())
def test_room_and_player_events_are_hidden_from_every_viewer_but_the_operator(
    type_name: str,
) -> None:
    for field_name in set(registry.model(type_name).model_fields) - {"type"}:
        hidden_from = {r for t, f, r in HIDDEN if (t, f) == (type_name, field_name)}
        assert hidden_from == set(roles_of(type_name)), (type_name, field_name, hidden_from)
