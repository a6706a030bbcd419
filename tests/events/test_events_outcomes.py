"""Command outcomes kept by the store, on SQLite and a real PostgreSQL alike."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from store_kit import StoreSpec

from events.envelope import Actor, InvalidIdError, NewEvent
from events.outcomes import CommandOutcome, OutcomeStore, RequestStore
from events.store.base import ConcurrencyError, EventStore, OutcomeRecordedError


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


def test_every_tables_refusals_come_back_in_the_order_recorded_after_a_sequence(
    store: EventStore,
) -> None:
    kept = outcomes(store)
    assert kept.last_outcome_sequence() == 0
    kept.record_outcome(refused("a", seat=1))
    kept.record_outcome(accepted("c"))
    kept.record_outcome(refused("e", seat=3, table_id="t2"))
    found = kept.refusals_after(0)
    assert [(o.command_id, o.table_id) for o in found] == [("a", "t1"), ("e", "t2")]
    assert [o.command_id for o in kept.refusals_after(found[0].sequence)] == ["e"]
    assert kept.refusals_after(found[1].sequence) == []
    assert kept.refusals_after(0, limit=1) == found[:1]
    assert kept.last_outcome_sequence() == found[1].sequence


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


def moves(count: int) -> list[NewEvent]:
    return [NewEvent("tile_discarded", {"seat": 0, "tile": f"{n + 1}m"}, Actor.of_seat(0), "r1")
            for n in range(count)]  # fmt: skip


def receipt(command_id: str, table_id: str = "t1") -> CommandOutcome:
    """An accepted outcome as a runner hands it to the append: versions and positions unset."""
    return CommandOutcome(command_id=command_id, table_id=table_id, status="accepted",
                          actor_kind="seat", actor_seat=0, correlation_id="req-9")  # fmt: skip


@pytest.mark.parametrize("count", [1, 3, 12])  # one event, a scalar batch, a JSON array
def test_an_append_records_its_commands_outcome_naming_the_events_it_recorded(
    store: EventStore, count: int
) -> None:
    store.append("t1", 0, moves(1))
    sent = receipt("c1")
    recorded = store.append("t1", 1, moves(count), "c1", {"command": "x"}, outcome=sent)
    kept = outcomes(store).load_outcome("c1")
    assert kept is not None and kept.sequence > 0
    assert kept == sent.model_copy(update={
        "sequence": kept.sequence, "first_version": 2, "last_version": 1 + count,
        "first_position": recorded[0].position, "last_position": recorded[-1].position,
        "recorded_at": recorded[-1].recorded_at})  # recorded with its events  # fmt: skip
    assert outcomes(store).wait_for_outcome("c1", 0) == kept


def test_an_append_whose_command_was_refused_before_appends_nothing(store: EventStore) -> None:
    first = outcomes(store).record_outcome(refused("c1", seat=0))
    with pytest.raises(OutcomeRecordedError, match="c1"):
        store.append("t1", 0, moves(2), "c1", {"command": "x"}, outcome=receipt("c1"))
    assert store.read_stream("t1") == []
    assert outcomes(store).load_outcome("c1") == first
    # the same append without its outcome is not refused on the refusal's account
    assert len(store.append("t1", 0, moves(1), "c2", {"command": "x"}, outcome=receipt("c2"))) == 1


def test_a_retried_append_answers_its_first_events_and_keeps_the_first_outcome(
    store: EventStore,
) -> None:
    first = store.append("t1", 0, moves(2), "c1", {"command": "x"}, outcome=receipt("c1"))
    kept = outcomes(store).load_outcome("c1")
    again = store.append("t1", 0, moves(2), "c1", {"command": "x"}, outcome=receipt("c1"))
    assert [e.event_id for e in again] == [e.event_id for e in first]
    assert outcomes(store).load_outcome("c1") == kept


def test_an_append_refused_for_its_version_records_no_outcome(store: EventStore) -> None:
    store.append("t1", 0, moves(1))
    with pytest.raises(ConcurrencyError):
        store.append("t1", 0, moves(1), "c1", {"command": "x"}, outcome=receipt("c1"))
    assert outcomes(store).load_outcome("c1") is None


@pytest.mark.parametrize("wrong", [
    {"status": "refused", "code": "refused_by_rules"}, {"command_id": "c2"}, {"table_id": "t2"}])  # fmt: skip
def test_an_append_records_only_its_own_commands_accepted_outcome(
    store: EventStore, wrong: dict[str, Any]
) -> None:
    with pytest.raises(ValueError, match="own command's accepted outcome"):
        store.append("t1", 0, moves(1), "c1", {"command": "x"},
                     outcome=receipt("c1").model_copy(update=wrong))  # fmt: skip
    assert store.read_stream("t1") == [] and outcomes(store).load_outcome("c1") is None


def test_an_append_with_no_events_carries_no_outcome(store: EventStore) -> None:
    with pytest.raises(ValueError, match="with events"):
        store.append("t1", 0, [], "c1", {"command": "x"}, outcome=receipt("c1"))
    assert outcomes(store).load_outcome("c1") is None


def test_an_append_that_records_an_outcome_wakes_whoever_awaits_it(store: EventStore) -> None:
    assert isinstance(store, RequestStore)
    woken = threading.Event()
    stop = store.on_outcome("c1", woken.set)
    try:
        listener = getattr(store, "_outcome_listener", None)  # PostgreSQL: its LISTEN, up first
        if listener is not None:
            assert listener().listening.wait(10)
        store.append("t1", 0, moves(1), "c1", {"command": "x"}, outcome=receipt("c1"))
        assert woken.wait(10)  # told, not found by a poll
    finally:
        stop()
