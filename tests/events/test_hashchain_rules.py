"""The hash chain's rules, in memory (no store): what a hash covers and in which form, the two
ways of computing it agreeing byte for byte, and which break ``find_break`` names where.

events/hashchain.py: "Each event's hash is the SHA-256 (hex) of the canonical JSON (sorted keys,
no whitespace, UTF-8) of its content … and prev_hash … The global position is left out on purpose."
"""

from __future__ import annotations

import dataclasses
import hashlib
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from events.envelope import Actor, RecordedEvent
from events.hashchain import (
    GENESIS_HASH,
    canonical_json,
    event_hash,
    event_hash_json,
    format_time,
    recompute_hash,
    sha256_hex,
)

MOMENT = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
CONTENT: dict[str, Any] = {
    "stream_id": "t-1",
    "version": 1,
    "event_id": uuid.UUID(int=1),
    "type": "tile_discarded",
    "schema_version": 1,
    "payload": {"seat": 0, "tile": "中"},
    "recorded_at": MOMENT,
    "actor": Actor.of_seat(0),
    "command_id": "c-1",
    "command": {"tile": "7z"},
    "rules_version": "2024.1",
    "prev_hash": GENESIS_HASH,
}
# the canonical JSON of CONTENT, written out: keys sorted, no whitespace, 中 unescaped
CANONICAL = (
    '{"actor":{"kind":"seat","seat":0},"command":{"tile":"7z"},"command_id":"c-1",'
    '"event_id":"00000000-0000-0000-0000-000000000001","payload":{"seat":0,"tile":"中"},'
    '"prev_hash":"' + "0" * 64 + '","recorded_at":"2024-01-02T03:04:05.000000+00:00",'
    '"rules_version":"2024.1","schema_version":1,"stream_id":"t-1","type":"tile_discarded",'
    '"version":1}'
)


def spliced(content: dict[str, Any]) -> str:
    """``event_hash_json`` of the same content, from the texts a store writes."""
    return event_hash_json(
        **{
            k: v
            for k, v in content.items()
            if k not in ("payload", "command", "event_id", "recorded_at")
        },
        event_id=str(content["event_id"]),
        recorded_at=format_time(content["recorded_at"]),
        payload_json=canonical_json(content["payload"]),
        command_json=canonical_json(content["command"]),
    )


def test_an_events_hash_is_the_sha256_of_its_canonical_json_in_utf8() -> None:
    """Sorted keys, no whitespace, UTF-8, microseconds always written: a stored chain keeps
    verifying only while these bytes never change."""
    expected = hashlib.sha256(CANONICAL.encode("utf-8")).hexdigest()
    assert event_hash(**CONTENT) == expected
    assert spliced(CONTENT) == expected


def test_canonical_json_sorts_keys_writes_no_spaces_and_refuses_nan() -> None:
    assert canonical_json({"b": [1, 2], "a": "西"}) == '{"a":"西","b":[1,2]}'
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


def test_sha256_hex_hashes_the_utf8_bytes() -> None:
    assert sha256_hex("abc") == ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    assert sha256_hex("中") == hashlib.sha256("中".encode()).hexdigest()


def test_recorded_time_always_carries_microseconds() -> None:
    assert format_time(MOMENT) == "2024-01-02T03:04:05.000000+00:00"
    assert format_time(MOMENT.replace(microsecond=7)) == "2024-01-02T03:04:05.000007+00:00"


CHANGES: list[tuple[str, Any]] = [
    ("stream_id", "t-2"),
    ("version", 2),
    ("event_id", uuid.UUID(int=2)),
    ("type", "tile_drawn"),
    ("schema_version", 2),
    ("payload", {"seat": 0, "tile": "白"}),
    ("recorded_at", MOMENT + timedelta(microseconds=1)),
    ("actor", Actor.of_seat(1)),
    ("actor", Actor.system()),
    ("command_id", None),
    ("command", None),
    ("rules_version", "2024.2"),
    ("prev_hash", "f" * 64),
]


@pytest.mark.parametrize(("field", "value"), CHANGES)
def test_every_field_of_the_content_is_covered_by_the_hash(field: str, value: Any) -> None:
    """A change to any one field of the content changes the hash, computed either way, and
    the two ways still agree."""
    changed = {**CONTENT, field: value}
    assert event_hash(**changed) != event_hash(**CONTENT)
    assert spliced(changed) == event_hash(**changed)


@pytest.mark.parametrize(
    "actor",
    [Actor.of_seat(s) for s in range(4)] + [Actor.system(), Actor.timer(), Actor.operator()],
)
def test_the_spliced_hash_agrees_for_every_actor_asked_in_any_order(actor: Actor) -> None:
    """The spliced form keeps each actor's JSON once computed: a seat's is never another's."""
    for other in (Actor.of_seat(3), Actor.system(), actor):
        content = {**CONTENT, "actor": other}
        assert spliced(content) == event_hash(**content)


@pytest.mark.parametrize(
    ("field", "value"),
    [("stream_id", 'a "quoted"\\table 中'), ("rules_version", "v\u00e9"), ("command_id", "c\t")],
)
def test_the_spliced_hash_agrees_on_text_that_json_must_escape(field: str, value: str) -> None:
    content = {**CONTENT, field: value}
    assert spliced(content) == event_hash(**content)


def test_the_global_position_is_not_in_the_hash() -> None:
    """ "The global position is left out on purpose: it is where a store put the event."""
    event = RecordedEvent(position=7, hash=event_hash(**CONTENT), **CONTENT)
    assert recompute_hash(event) == event.hash
    assert recompute_hash(dataclasses.replace(event, position=99)) == event.hash


@pytest.mark.parametrize("value", ["t-1", 'q"\\中', 0, 57, -3, None, True, False, 1.5])
def test_the_quick_scalar_encoding_is_the_canonical_json_of_the_value(value: Any) -> None:
    """``_scalar_json``: "canonical_json(value), quicker for the str, int and None of an
    envelope" — and the same for any other scalar (a bool is JSON true, never Python's True)."""
    from events.hashchain import _scalar_json

    assert _scalar_json(value) == canonical_json(value)
