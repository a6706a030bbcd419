"""Envelope validation, the payload registry and upcasting, and seed commitments."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

import pytest
from store_kit import RULES, PointsAwarded, TileDiscarded, test_registry

from events.base import DomainEvent
from events.envelope import Actor, NewEvent, RecordedEvent
from events.fairness import check_seed, commit_seed, new_seed
from events.registry import EventRegistry, RegistryError


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_seat_actor_accepts_seats_zero_to_three(seat: int) -> None:
    assert Actor.of_seat(seat).to_dict() == {"kind": "seat", "seat": seat}


@pytest.mark.parametrize(("kind", "seat"), [("seat", None), ("seat", 4), ("seat", -1),
                                            ("system", 0), ("timer", 2), ("robot", None)])
def test_an_actor_with_a_wrong_seat_or_kind_is_refused(kind: Any, seat: int | None) -> None:
    with pytest.raises(ValueError):
        Actor(kind, seat)


def test_a_new_event_must_not_repeat_its_type_in_the_payload() -> None:
    with pytest.raises(ValueError, match="type"):
        NewEvent("tile_discarded", {"type": "tile_discarded"}, Actor.system(), RULES)


def test_a_recorded_event_round_trips_through_its_dict_form() -> None:
    event = RecordedEvent(
        stream_id="t", version=1, position=7, event_id=uuid.uuid4(), type="x", schema_version=1,
        payload={"a": [1, 2]}, recorded_at=datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
        actor=Actor.operator(), command_id="c", command={"k": 1}, rules_version=RULES,
        prev_hash="0" * 64, hash="f" * 64,
    )
    assert RecordedEvent.from_dict(event.to_dict()) == event


def test_registered_payloads_encode_without_type_and_decode_to_their_model() -> None:
    new = test_registry.new_event(TileDiscarded(seat=1, tile="7s"), actor=Actor.of_seat(1),
                                  rules_version=RULES)
    assert (new.type, new.schema_version, new.payload) == ("tile_discarded", 1,
                                                           {"seat": 1, "tile": "7s"})
    assert new.actor == Actor.of_seat(1) and new.rules_version == RULES


def test_upcasters_run_step_by_step_to_the_current_version() -> None:
    registry = EventRegistry()

    @registry.register
    class Scored(DomainEvent):
        type: Literal["scored"] = "scored"
        schema_version = 3
        total: int
        unit: str

    registry.upcaster("scored", from_version=1)(lambda p: {"total": p["points"]})
    registry.upcaster("scored", from_version=2)(lambda p: {**p, "unit": "fan"})
    assert registry.upcast("scored", 1, {"points": 4}) == {"total": 4, "unit": "fan"}
    assert registry.upcast("scored", 3, {"total": 1, "unit": "x"}) == {"total": 1, "unit": "x"}
    with pytest.raises(RegistryError, match="newer"):
        registry.upcast("scored", 4, {})


def test_a_missing_upcasting_step_is_reported() -> None:
    registry = EventRegistry()

    @registry.register
    class Moved(DomainEvent):
        type: Literal["moved"] = "moved"
        schema_version = 2

    with pytest.raises(RegistryError, match="v1 to v2"):
        registry.upcast("moved", 1, {})


def test_two_models_cannot_claim_one_type_name() -> None:
    class Impostor(DomainEvent):
        type: Literal["tile_discarded"] = "tile_discarded"

    with pytest.raises(RegistryError, match="already registered"):
        test_registry.register(Impostor)
    assert test_registry.register(TileDiscarded) is TileDiscarded
    assert "points_awarded" in test_registry and PointsAwarded.schema_version == 2


def test_unknown_and_unregistered_types_are_refused() -> None:
    class Stray(DomainEvent):
        type: Literal["stray"] = "stray"

    with pytest.raises(RegistryError, match="unknown"):
        test_registry.model("stray")
    with pytest.raises(RegistryError, match="not registered"):
        test_registry.encode(Stray())


def test_a_seed_matches_only_its_own_commitment() -> None:
    seed = new_seed()
    assert len(seed) == 64 and seed != new_seed()
    commitment = commit_seed(seed)
    assert check_seed(seed, commitment) and check_seed(seed, commitment.upper())
    assert not check_seed(new_seed(), commitment)
    assert commit_seed("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_a_hand_settled_of_version_one_reads_its_kong_payments_as_hand_payments() -> None:
    """v2 renamed 塘沽's kong 局分 to ``hand_payments`` (they hold 独抱 and 上大台 too)."""
    from events.registry import registry
    from services.rules.events.hand import HandSettled

    old = {"payments": [0, 0, 0, 0], "kong_payments": [6, -2, -2, -2]}
    payload = registry.upcast("hand_settled", 1, old)
    settled = HandSettled.model_validate({**payload, "type": "hand_settled"})
    assert settled.hand_payments == (6, -2, -2, -2)
