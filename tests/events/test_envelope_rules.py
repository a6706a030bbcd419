"""The envelope's rules, in memory: which ids a store keeps, who may be an actor, what a new
event must be, and recorded times held in UTC (events/envelope.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from events.envelope import MAX_ID_CHARS, Actor, InvalidIdError, NewEvent, check_id, normalize_time


@pytest.mark.parametrize("value", ["t", "east.1:hand-2", "中" * MAX_ID_CHARS])
def test_an_id_of_printable_text_up_to_the_limit_is_kept(value: str) -> None:
    check_id("stream_id", value)


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (7, "must be text, not int"),
        ("", "must not be empty"),
        ("x" * (MAX_ID_CHARS + 1), f"at most {MAX_ID_CHARS} characters, not {MAX_ID_CHARS + 1}"),
        ("ab\x00", "a control character ('\\x00') at index 2"),
        ("a\ud800", "a lone surrogate ('\\ud800') at index 1"),
        ("a b", "a space (' ') at index 1"),
        ("\u3000", "a space ('\\u3000') at index 0"),
    ],
)
def test_an_id_no_store_keeps_is_refused_naming_the_field(value: object, problem: str) -> None:
    """No NUL (PostgreSQL), no lone surrogate (no driver encodes one), no space, not too long."""
    with pytest.raises(InvalidIdError) as caught:
        check_id("command_id", value)
    assert caught.value.field == "command_id"
    assert problem in str(caught.value)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_seat_actor_is_one_of_the_four_seats(seat: int) -> None:
    assert Actor.of_seat(seat).to_dict() == {"kind": "seat", "seat": seat}
    assert Actor.from_dict({"kind": "seat", "seat": seat}) == Actor.of_seat(seat)


@pytest.mark.parametrize("seat", [None, -1, 4, True, False])
def test_a_seat_actor_without_a_seat_0_to_3_is_refused(seat: object) -> None:
    """A bool is an int to Python, never a seat."""
    with pytest.raises(ValueError, match="seat 0-3"):
        Actor("seat", seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [Actor.system, Actor.timer, Actor.operator])
def test_the_other_actors_have_no_seat(make: object) -> None:
    actor = make()  # type: ignore[operator]
    assert actor.seat is None and Actor.from_dict({"kind": actor.kind}) == actor
    with pytest.raises(ValueError, match="has no seat"):
        Actor(actor.kind, 0)


def test_an_unknown_actor_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown actor kind"):
        Actor("player")  # type: ignore[arg-type]


def test_a_new_event_needs_a_type_kept_out_of_its_payload_and_a_schema_from_1() -> None:
    actor = Actor.system()
    assert NewEvent("x", {}, actor, "r", schema_version=1).schema_version == 1
    with pytest.raises(ValueError, match="needs a type"):
        NewEvent("", {}, actor, "r")
    with pytest.raises(ValueError, match="repeat 'type'"):
        NewEvent("x", {"type": "x"}, actor, "r")
    with pytest.raises(ValueError, match="starts at 1"):
        NewEvent("x", {}, actor, "r", schema_version=0)


def test_a_recorded_time_is_timezone_aware_and_held_in_utc() -> None:
    """ "UTC, microsecond precision: the form every store keeps and the hash covers."""
    local = datetime(2024, 1, 2, 9, 0, 0, 5, tzinfo=timezone(timedelta(hours=8)))
    held = normalize_time(local)
    assert held == local and held.tzinfo == UTC and held.hour == 1 and held.microsecond == 5
    with pytest.raises(ValueError, match="timezone-aware"):
        normalize_time(datetime(2024, 1, 2))
