"""Which break the hash chain names, and where, in memory: ``find_break`` names the first event
altered, removed or reordered, a stream cut short of its expected head, and one that no longer
holds a published head (truncated or rewritten); ``parse_head`` reads ``[VERSION:]HASH``.

events/hashchain.py: "verify_chain re-computes every hash in stream order and names the first
event that was altered, removed (a link points at nothing) or reordered (a link points at another
event of the stream, or positions run backwards)."
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime

import pytest

from events.envelope import Actor, RecordedEvent
from events.hashchain import (
    GENESIS_HASH,
    ChainBreak,
    ChainBroken,
    Head,
    canonical_json,
    command_digest,
    command_digest_json,
    event_hash,
    find_break,
    parse_head,
    verify_chain,
)


def chain(count: int, stream: str = "t", positions: list[int] | None = None,
          versions: list[int] | None = None) -> list[RecordedEvent]:  # fmt: skip
    """A well-linked stream of ``count`` events at rising global positions, each stored at its
    place or at ``versions[i]``."""
    events: list[RecordedEvent] = []
    prev = GENESIS_HASH
    for i in range(count):
        content = dict(
            stream_id=stream,
            version=versions[i] if versions else i + 1,
            event_id=uuid.UUID(int=i + 1 + 100 * len(stream)),
            type="tile_discarded",
            schema_version=1,
            payload={"seat": i % 4, "tile": f"{i % 9 + 1}m"},
            recorded_at=datetime(2024, 1, 1, tzinfo=UTC),
            actor=Actor.of_seat(i % 4),
            command_id=f"c{i}",
            command={"n": i},
            rules_version="r",
            prev_hash=prev,
        )
        digest = event_hash(**content)  # type: ignore[arg-type]
        position = positions[i] if positions else 10 * (i + 1)
        events.append(RecordedEvent(position=position, hash=digest, **content))  # type: ignore[arg-type]
        prev = digest
    return events


def where(broken: ChainBreak | None) -> tuple[str, int, uuid.UUID | None] | None:
    return None if broken is None else (broken.kind, broken.version, broken.event_id)


def test_an_untouched_stream_and_two_interleaved_streams_have_no_break() -> None:
    a, b = chain(4, "a"), chain(3, "b")
    assert find_break(a) is None
    assert find_break([a[0], b[0], a[1], b[1], b[2], a[2], a[3]]) is None
    verify_chain(a, expected_head=4, head=Head(a[3].hash, 4))


def test_an_altered_payload_is_named_at_its_version() -> None:
    events = chain(5)
    events[2] = dataclasses.replace(events[2], payload={"seat": 2, "tile": "3p"})
    assert where(find_break(events)) == ("altered", 3, events[2].event_id)


def test_a_stored_version_that_differs_from_its_place_is_named_altered() -> None:
    """A hash recomputed with the stored version would verify, so the version is checked
    against the event's place in the stream as well."""
    events = chain(3)
    content = {f.name: getattr(events[0], f.name) for f in dataclasses.fields(events[0])}
    content.update(version=5)
    del content["position"], content["hash"]
    events[0] = RecordedEvent(position=10, hash=event_hash(**content), **content)
    broken = find_break(events[:1])
    assert where(broken) == ("altered", 1, events[0].event_id)
    assert broken is not None and "stored version 5" in broken.detail


def test_a_missing_event_is_named_removed_at_the_place_it_left() -> None:
    events = chain(5)
    del events[1]
    assert where(find_break(events)) == ("removed", 2, events[1].event_id)
    assert where(find_break(chain(3)[1:])) == ("removed", 1, chain(3)[1].event_id)


def test_two_swapped_events_are_named_reordered() -> None:
    events = chain(5)
    events[1], events[2] = events[2], events[1]
    broken = find_break(events)
    assert where(broken) == ("reordered", 2, events[1].event_id)
    assert broken is not None and "follows version 2" in broken.detail


@pytest.mark.parametrize("second", [10, 5])
def test_global_positions_that_do_not_rise_are_named_reordered(second: int) -> None:
    """Positions are strictly increasing: a repeat (10, 10) is as wrong as a step back."""
    events = chain(3, positions=[10, second, 30])
    broken = find_break(events)
    assert where(broken) == ("reordered", 2, events[1].event_id)
    assert broken is not None and f"position {second} is not after 10" in broken.detail


def test_a_stream_shorter_than_its_expected_head_is_truncated_after_its_last_event() -> None:
    events = chain(3)
    assert where(find_break(events, expected_head=4)) == ("truncated", 4, None)
    assert find_break(events, expected_head=3) is None
    assert find_break(events, expected_head=2) is None


def test_the_first_broken_stream_is_named_and_a_later_one_waits() -> None:
    a, b = chain(2, "a"), chain(2, "b")
    b[0] = dataclasses.replace(b[0], type="x")
    a[1] = dataclasses.replace(a[1], type="x")
    broken = find_break(b + a)
    assert broken is not None and (broken.stream_id, broken.version) == ("b", 1)


def test_a_published_head_held_anywhere_in_the_stream_is_found() -> None:
    """A stream that holds the head is, up to there, the stream that was published."""
    events = chain(5)
    assert find_break(events, head=Head(events[2].hash, 3)) is None
    assert find_break(events, head=Head(events[2].hash)) is None


def test_a_stream_cut_before_a_published_head_is_truncated() -> None:
    events = chain(5)
    broken = find_break(events[:3], head=Head(events[4].hash, 5))
    assert where(broken) == ("truncated", 4, None)
    assert broken is not None and "version 5 was published" in broken.detail


def test_a_stream_rewritten_under_a_published_head_is_named_at_its_version() -> None:
    events, other = chain(5), chain(5, "t", positions=[1, 2, 3, 4, 5])
    stranger = "ab" * 32
    broken = find_break(events, head=Head(stranger, 4))
    assert where(broken) == ("rewritten", 4, events[3].event_id)
    assert broken is not None and events[3].hash in broken.detail
    # without a version, the head is taken to be the last event's
    last = find_break(events, head=Head(stranger))
    assert where(last) == ("rewritten", 5, events[4].event_id)
    assert last is not None and f"version 5 has {events[4].hash}" in last.detail
    assert where(find_break(other, head=Head(stranger, 5))) == ("rewritten", 5, other[4].event_id)
    first = find_break(events, head=Head(stranger, 1))
    assert where(first) == ("rewritten", 1, events[0].event_id)
    assert first is not None and f"version 1 has {events[0].hash}" in first.detail


def test_a_head_at_a_version_the_stream_holds_no_event_for_names_nothing() -> None:
    broken = find_break(chain(2), head=Head("ab" * 32, 0))
    assert where(broken) == ("rewritten", 0, None)
    assert broken is not None and "has nothing" in broken.detail


def test_verify_chain_raises_with_the_break_it_found() -> None:
    events = chain(3)
    events[1] = dataclasses.replace(events[1], actor=Actor.system())
    with pytest.raises(ChainBroken) as caught:
        verify_chain(events)
    assert where(caught.value.broken) == ("altered", 2, events[1].event_id)
    assert str(caught.value) == (
        f"stream 't': altered at version 2 (event {events[1].event_id}): "
        "content does not match its hash"
    )
    head_break = ChainBreak("t", "truncated", 4, None, "cut")
    assert str(head_break) == "stream 't': truncated at version 4 (the stream head): cut"


DIGEST = "ab12" * 16


@pytest.mark.parametrize(
    ("text", "head"),
    [
        (DIGEST, Head(DIGEST)),
        (DIGEST.upper(), Head(DIGEST)),
        (f"  57:{DIGEST}\n", Head(DIGEST, 57)),
        (f"1:{DIGEST}", Head(DIGEST, 1)),
    ],
)
def test_a_head_is_64_hex_digits_optionally_after_its_version(text: str, head: Head) -> None:
    assert parse_head(text) == head


@pytest.mark.parametrize(
    "text",
    [
        DIGEST[:-1],
        DIGEST + "0",
        DIGEST[:-1] + "g",
        f"0:{DIGEST}",
        f"-1:{DIGEST}",
        f"x:{DIGEST}",
        f"²:{DIGEST}",
        f"1:2:{DIGEST}",
    ],
)
def test_anything_else_is_not_a_head(text: str) -> None:
    """A version is a number from 1; str.isdigit takes '²', which int() refuses."""
    with pytest.raises(ValueError):
        parse_head(text)


def test_a_command_digest_names_the_stream_and_the_command_either_way() -> None:
    """What makes two submissions of a command id "the same command"."""
    command = {"tile": "7z", "seat": 1}
    digest = command_digest("t-1", command)
    assert command_digest_json("t-1", canonical_json(command)) == digest
    assert command_digest("t-2", command) != digest
    assert command_digest("t-1", {"tile": "7z", "seat": 2}) != digest
    assert command_digest_json("t-1", canonical_json(None)) == command_digest("t-1", None)
