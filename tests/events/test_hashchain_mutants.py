"""Rules of the hash chain that its first tests left unsaid (mutants that survived them):
a break and a head are fixed values with no room for more; a head's version is ASCII digits
only; the expected and the published head are passed by name; a head below version 1 names no
event; an event stored at a version below its place is altered; the cache of each actor's JSON
stays bounded even when two fills of it overlap.
"""

from __future__ import annotations

import dataclasses
import uuid

import pytest
from test_hashchain_breaks import chain  # the stream builder of the chain's break tests

import events.hashchain as hashchain
from events.envelope import Actor
from events.hashchain import (
    GENESIS_HASH,
    ChainBreak,
    ChainBroken,
    Head,
    event_hash_json,
    find_break,
    parse_head,
    verify_chain,
)

DIGEST = "ab12" * 16
STRANGER = "cd" * 32  # a head hash that no event of these streams has


def a_break() -> ChainBreak:
    broken = find_break(chain(2), expected_head=3)
    assert broken is not None
    return broken


def test_a_chain_break_once_found_cannot_be_changed() -> None:
    broken = a_break()
    with pytest.raises(dataclasses.FrozenInstanceError):
        broken.kind = "altered"  # type: ignore[misc]
    assert broken.kind == "truncated"


def test_a_chain_break_holds_its_fields_and_nothing_else() -> None:
    broken = a_break()
    assert not hasattr(broken, "__dict__")
    with pytest.raises(AttributeError):
        object.__setattr__(broken, "note", "more")


def test_a_head_once_parsed_cannot_be_changed() -> None:
    head = parse_head(f"7:{DIGEST}")
    with pytest.raises(dataclasses.FrozenInstanceError):
        head.version = 8  # type: ignore[misc]
    assert head == Head(DIGEST, 7)


def test_a_head_holds_its_hash_and_version_and_nothing_else() -> None:
    head = parse_head(f"7:{DIGEST}")
    assert not hasattr(head, "__dict__")
    with pytest.raises(AttributeError):
        object.__setattr__(head, "note", "more")


@pytest.mark.parametrize("version", ["+7", "7_0", "7 ", "\u0663", "\uff17"])
def test_a_head_whose_version_is_not_ascii_digits_is_refused(version: str) -> None:
    """int() takes a sign, underscores, inner spaces and any script's digits (Arabic-Indic
    3, fullwidth 7); a head's version takes none of them."""
    with pytest.raises(ValueError, match="a head's version is a number from 1"):
        parse_head(f"{version}:{DIGEST}")


def test_the_expected_and_the_published_head_are_given_by_name_only() -> None:
    events = chain(2)
    with pytest.raises(TypeError):
        find_break(events, 3)  # type: ignore[misc]
    with pytest.raises(TypeError):
        find_break(events, None, Head(STRANGER))  # type: ignore[misc]
    with pytest.raises(TypeError):
        verify_chain(events, 3)  # type: ignore[misc]
    with pytest.raises(TypeError):
        verify_chain(events, None, Head(STRANGER))  # type: ignore[misc]
    # the events themselves may be named
    assert find_break(events=events) is None
    with pytest.raises(ChainBroken):
        verify_chain(events=events, expected_head=3)


@pytest.mark.parametrize("version", [-1, -2, -3])
def test_a_published_head_at_a_version_below_one_names_no_event_of_the_stream(
    version: int,
) -> None:
    """Counted from the end, -1 would be the last event: a version is never counted so."""
    broken = find_break(chain(3), head=Head(STRANGER, version))
    assert broken is not None
    assert (broken.kind, broken.version, broken.event_id) == ("rewritten", version, None)
    assert f"(version {version} has nothing)" in broken.detail


def test_an_event_stored_at_a_version_below_its_place_is_named_altered() -> None:
    """Its hash covers the version it was stored with, so only its place can tell."""
    events = chain(3, versions=[1, 1, 3])
    broken = find_break(events)
    assert broken is not None
    assert (broken.kind, broken.version, broken.event_id) == ("altered", 2, events[1].event_id)
    assert "stored version 1" in broken.detail
    assert find_break(chain(1, versions=[0])) is not None


def test_the_cache_of_each_actors_json_stops_growing_even_after_two_fills_overlap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two fills may each see room for one more (threads; here a key whose hash re-enters the
    hash): the cache then holds one past its bound, and must take no more after that."""
    cache: dict[tuple[type, str, int | None], str] = {}
    monkeypatch.setattr(hashchain, "_actor_json", cache)

    def spliced(actor: Actor) -> str:
        return event_hash_json(
            stream_id="t",
            version=1,
            event_id=str(uuid.UUID(int=1)),
            type="tile_discarded",
            schema_version=1,
            payload_json="{}",
            recorded_at="2024-01-01T00:00:00.000000+00:00",
            actor=actor,
            command_id=None,
            command_json="null",
            rules_version="r",
            prev_hash=GENESIS_HASH,
        )

    def kind_of_actor(n: int, meta: type = type) -> Actor:
        return meta(f"Actor{n}", (Actor,), {})("system")  # a class of its own: a key of its own

    class Reentering(type):
        """Hashing this class the second time (as the cache stores it) hashes another actor."""

        hashed = 0

        def __hash__(cls) -> int:
            Reentering.hashed += 1
            if Reentering.hashed == 2:
                spliced(kind_of_actor(1000))
            return id(cls)

    for n in range(63):
        spliced(kind_of_actor(n))
    spliced(kind_of_actor(999, Reentering))  # fills the last place twice over
    overfull = len(cache)
    for n in range(2000, 2100):
        spliced(kind_of_actor(n))
    assert len(cache) == overfull <= 65
