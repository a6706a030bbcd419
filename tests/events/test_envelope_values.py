"""The envelope's values cannot change once made (an event is an immutable fact: its hash covers
what it holds) and hold only their own fields; a new event starts at schema 1; ids stop at 128
characters (docs/security.md, "Limits")."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from events.envelope import Actor, InvalidIdError, NewEvent, RecordedEvent, check_id


def _recorded() -> RecordedEvent:
    return RecordedEvent(
        stream_id="t1", version=1, position=1, event_id=uuid.uuid4(), type="table_opened",
        schema_version=1, payload={}, recorded_at=datetime(2026, 12, 6, tzinfo=UTC),
        actor=Actor.system(), command_id="c1", command=None, rules_version="paiju-rules/1",
        prev_hash="0" * 64, hash="1" * 64,
    )  # fmt: skip


VALUES: list[tuple[str, Any, str, Any]] = [
    ("an actor", Actor.of_seat(2), "seat", 3),
    ("a new event", NewEvent("tile_drawn", {}, Actor.system(), "paiju-rules/1"), "type", "win"),
    ("a recorded event", _recorded(), "version", 2),
]


@pytest.mark.parametrize(("what", "value", "name", "other"), VALUES, ids=[v[0] for v in VALUES])
def test_an_envelope_value_cannot_be_changed_once_made(
    what: str, value: Any, name: str, other: Any
) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, name, other)
    assert getattr(value, name) != other


@pytest.mark.parametrize(("what", "value", "name", "other"), VALUES, ids=[v[0] for v in VALUES])
def test_an_envelope_value_holds_its_fields_and_nothing_else(
    what: str, value: Any, name: str, other: Any
) -> None:
    assert not hasattr(value, "__dict__")
    with pytest.raises((AttributeError, TypeError)):
        object.__setattr__(value, "note", "smuggled")


def test_a_new_event_is_of_schema_one_unless_it_says_otherwise() -> None:
    assert NewEvent("tile_drawn", {}, Actor.system(), "paiju-rules/1").schema_version == 1


def test_an_id_of_129_characters_is_one_past_the_limit() -> None:
    check_id("table_id", "x" * 128)
    with pytest.raises(InvalidIdError, match="at most 128 characters, not 129"):
        check_id("table_id", "x" * 129)
