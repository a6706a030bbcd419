"""Command outcomes kept by the store, on SQLite and a real PostgreSQL alike."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from store_kit import StoreSpec

from events.envelope import InvalidIdError
from events.outcomes import CommandOutcome, OutcomeStore
from events.store.base import EventStore


def outcomes(store: EventStore) -> OutcomeStore:
    assert isinstance(store, OutcomeStore)
    return store


def refused(command_id: str, seat: int = 1, table_id: str = "t1", **more: Any) -> CommandOutcome:
    return CommandOutcome(
        command_id=command_id,
        table_id=table_id,
        status="refused",
        reason=f"not seat {seat}'s turn",
        code="refused_by_rules",
        actor_kind="seat",
        actor_seat=seat,
        **more,
    )


def accepted(command_id: str, table_id: str = "t1") -> CommandOutcome:
    return CommandOutcome(
        command_id=command_id,
        table_id=table_id,
        status="accepted",
        first_version=4,
        last_version=6,
        first_position=40,
        last_position=42,
        actor_kind="timer",
        correlation_id="req-7",
    )


def test_an_outcome_reads_back_as_it_was_recorded(store: EventStore) -> None:
    sent = accepted("c1")
    recorded = outcomes(store).record_outcome(sent)
    assert recorded.sequence > 0
    assert recorded == sent.model_copy(update={"sequence": recorded.sequence})
    assert outcomes(store).load_outcome("c1") == recorded
    assert outcomes(store).load_outcome("never-sent") is None


def test_the_first_outcome_recorded_for_a_command_id_is_the_one_kept(store: EventStore) -> None:
    first = outcomes(store).record_outcome(accepted("c1"))
    again = outcomes(store).record_outcome(refused("c1"))
    assert again == first
    assert again.status == "accepted"


def test_a_seats_refusals_come_back_in_the_order_recorded_after_a_cursor(
    store: EventStore,
) -> None:
    kept = outcomes(store)
    kept.record_outcome(refused("a", seat=1))
    kept.record_outcome(refused("b", seat=2))
    kept.record_outcome(accepted("c"))
    kept.record_outcome(refused("d", seat=1))
    kept.record_outcome(refused("e", seat=1, table_id="t2"))
    mine = kept.refusals_for("t1", 1)
    assert [o.command_id for o in mine] == ["a", "d"]
    assert [o.command_id for o in kept.refusals_for("t1", 1, after=mine[0].sequence)] == ["d"]
    assert kept.refusals_for("t1", 1, after=mine[1].sequence) == []
    assert [o.command_id for o in kept.refusals_for("t1", 2)] == ["b"]


def test_a_waiter_is_woken_by_an_outcome_recorded_by_another_store_object(
    spec: StoreSpec, store: EventStore
) -> None:
    other = spec.open()
    got: list[CommandOutcome | None] = []
    waiting = threading.Thread(target=lambda: got.append(outcomes(store).wait_for_outcome("c9", 20)))
    waiting.start()
    try:
        recorded = outcomes(other).record_outcome(refused("c9"))
    finally:
        waiting.join(30)
        other.close()
    assert got == [recorded]


def test_waiting_for_an_outcome_never_recorded_ends_with_none(store: EventStore) -> None:
    assert outcomes(store).wait_for_outcome("never-sent", 0.2) is None


def test_an_outcome_already_recorded_is_answered_without_waiting(store: EventStore) -> None:
    recorded = outcomes(store).record_outcome(accepted("c1"))
    assert outcomes(store).wait_for_outcome("c1", 0) == recorded


@pytest.mark.parametrize("command_id", ["", "has space", "x" * 10_000])
def test_an_outcome_under_an_id_no_store_can_keep_is_refused_naming_the_id(
    store: EventStore, command_id: str
) -> None:
    with pytest.raises(InvalidIdError, match="command_id"):
        outcomes(store).record_outcome(refused(command_id))
