"""``run_command``: a command as JSON data in, its outcome recorded under the command id, on both
stores; no queue in between (the workers' tests send the same commands through Celery)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from games import PLAYERS

from events.envelope import Actor
from events.outcomes import CommandOutcome
from events.store import open_store
from services.bots.winning_bot import winning_command
from services.rules.table import CommandRejected, decide
from services.rules.table.commands import Command, Pung
from services.rules.table.legal import seats_to_act
from services.tables import TableService
from services.tables.runner import outcome_store, run_command

OPEN = {"command": "open_table", "table_id": "t1", "variant": "harbin", "players": list(PLAYERS)}


@pytest.fixture
def service(store_url: str) -> Iterator[TableService]:
    store = open_store(store_url)
    yield TableService(store, chosen_deals=True)
    store.close()


def dealt(service: TableService) -> None:
    for command, command_id in ((OPEN, "open"), ({"command": "start_hand"}, "deal")):
        outcome = run_command(service, "t1", command, actor=None, command_id=command_id)
        assert outcome.accepted, outcome


def dealt_and_a_move(service: TableService) -> tuple[int, Command]:
    """The table dealt, and a legal move of the first seat it waits on."""
    dealt(service)
    state = service.load("t1")
    seat = seats_to_act(state)[0]
    return seat, winning_command(state, seat, random.Random(1))


def test_an_accepted_command_names_the_versions_and_positions_of_its_events(
    service: TableService,
) -> None:
    dealt(service)
    outcome = outcome_store(service.store).load_outcome("deal")
    assert outcome is not None and outcome.status == "accepted"
    recorded = [e for e in service.store.read_stream("t1") if e.command_id == "deal"]
    assert (outcome.first_version, outcome.last_version) == (
        recorded[0].version, recorded[-1].version,
    )
    assert (outcome.first_position, outcome.last_position) == (
        recorded[0].position, recorded[-1].position,
    )
    assert outcome.actor == Actor.system()


def test_a_refusal_carries_the_rules_reason_and_reaches_the_seat_that_sent_it(
    service: TableService,
) -> None:
    dealt(service)
    state = service.load("t1")
    idle = next(s for s in range(4) if s not in seats_to_act(state))
    with pytest.raises(CommandRejected) as rules_say:
        decide(state, Pung(seat=idle))
    outcome = run_command(
        service, "t1", {"command": "pung", "seat": idle},
        actor=Actor.of_seat(idle), command_id="too-early",
    )
    assert (outcome.status, outcome.code, outcome.reason) == (
        "refused", "refused_by_rules", rules_say.value.reason,
    )
    assert outcome_store(service.store).refusals_for("t1", idle) == [outcome]
    assert service.store.stream_version("t1") == state_version(service)


def state_version(service: TableService) -> int:
    return max(e.version for e in service.store.read_stream("t1"))


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"command": "discard_tile", "seat": 9, "tile": "5m"}, "seat"),
        ({"command": "discard_tile", "seat": 0, "tile": "10m"}, "tile"),
        ({"command": "fly_away", "seat": 0}, "fly_away"),
        ({"seat": 0}, "'command'"),
        (["discard_tile"], "JSON object"),
        ({"command": "pung", "seat": 0, "extra": 1}, "extra"),
    ],
)
def test_a_malformed_command_is_refused_naming_what_was_wrong(
    service: TableService, data: object, named: str
) -> None:
    dealt(service)
    before = service.store.stream_version("t1")
    outcome = run_command(service, "t1", data, actor=Actor.of_seat(0), command_id="bad")  # type: ignore[arg-type]
    assert (outcome.status, outcome.code) == ("refused", "invalid_command")
    assert outcome.reason is not None and named in outcome.reason
    assert outcome_store(service.store).load_outcome("bad") == outcome
    assert service.store.stream_version("t1") == before


def test_a_command_id_already_answered_keeps_its_first_outcome_whatever_comes_under_it_again(
    service: TableService,
) -> None:
    dealt(service)
    state = service.load("t1")
    seat = seats_to_act(state)[0]
    early = run_command(
        service, "t1", {"command": "discard_tile", "seat": (seat + 1) % 4, "tile": "1m"},
        actor=None, command_id="d1",
    )
    assert early.status == "refused"
    legal = winning_command(state, seat, random.Random(1))
    again = run_command(service, "t1", legal, actor=None, command_id="d1")
    assert again == early
    assert service.store.find_command("d1", "t1", None) is None  # nothing of it was appended


def test_a_command_appended_by_a_worker_that_died_before_recording_is_answered_on_redelivery(
    service: TableService,
) -> None:
    seat, command = dealt_and_a_move(service)
    service.handle("t1", command, command_id="d1")  # appended; the outcome never recorded
    assert outcome_store(service.store).load_outcome("d1") is None
    outcome = run_command(service, "t1", command.model_dump(mode="json"), actor=None,
                          command_id="d1")
    recorded = [e for e in service.store.read_stream("t1") if e.command_id == "d1"]
    assert outcome.status == "accepted"
    assert (outcome.first_version, outcome.last_version) == (
        recorded[0].version, recorded[-1].version,
    )


def test_a_stale_expected_version_is_refused_as_stale(service: TableService) -> None:
    dealt(service)
    version = service.store.stream_version("t1")
    outcome = run_command(
        service, "t1", {"command": "request_autoplay", "seat": 2},
        actor=None, command_id="auto", if_version=version - 1,
    )
    assert (outcome.status, outcome.code) == ("refused", "stale_version")
    assert str(version) in (outcome.reason or "")


def test_the_platforms_default_waits_open_a_table_where_it_names_none(
    service: TableService,
) -> None:
    own = {**OPEN, "timing": {"turn": 30}}
    outcome = run_command(service, "t1", own, actor=None, command_id="open",
                          default_timing={"turn": 9, "claim": 4})
    assert outcome.accepted
    timing = service.load("t1").timing
    assert (timing.turn, timing.claim) == (30, 4)


@pytest.mark.parametrize(("table_id", "command_id"), [("t1", "has space"), ("", "c1")])
def test_a_command_under_ids_no_store_can_keep_is_refused_and_not_recorded(
    service: TableService, table_id: str, command_id: str
) -> None:
    outcome = run_command(service, table_id, OPEN, actor=None, command_id=command_id)
    assert (outcome.status, outcome.code) == ("refused", "invalid_id")
    assert outcome.sequence == 0


STORE_TRIPS = ("load_outcome", "record_outcome", "append", "read_stream", "read_event",
               "find_command", "stream_version", "load_snapshot", "load_seed")  # fmt: skip


def counted(store: object, calls: list[str], before: Callable[[str], None] = lambda _: None) -> None:
    """Count each call ``store`` makes to the database by what it asks (``before`` runs
    first: another process's move, interleaved)."""
    for name in STORE_TRIPS:
        real = getattr(store, name)

        def trip(*args: Any, _name: str = name, _real: Any = real, **kwargs: Any) -> Any:
            calls.append(_name)
            before(_name)
            return _real(*args, **kwargs)

        setattr(store, name, trip)


def test_a_move_on_a_table_the_worker_folded_costs_one_store_trip(service: TableService) -> None:
    dealt(service)
    seat = seats_to_act(service.load("t1"))[0]
    command = winning_command(service.load("t1"), seat, random.Random(1))
    calls: list[str] = []
    counted(service.store, calls)
    outcome = run_command(service, "t1", command.model_dump(mode="json"), actor=None,
                          command_id="d1")  # fmt: skip
    assert outcome.accepted
    assert calls == ["append"]  # no look for an earlier outcome; the outcome went in with it
    kept = outcome_store(service.store).load_outcome("d1")
    assert kept == outcome.model_copy(update={"sequence": kept.sequence if kept else 0})


def test_a_command_refused_by_another_delivery_meanwhile_keeps_that_refusal_and_appends_nothing(
    service: TableService,
) -> None:
    seat, command = dealt_and_a_move(service)
    record = outcome_store(service.store).record_outcome
    refused = CommandOutcome(command_id="d1", table_id="t1", status="refused", code="table_busy",
                             reason="busy", actor_kind="seat", actor_seat=seat)  # fmt: skip
    # the other delivery records its refusal before our append (as if after a look of ours)
    counted(service.store, [], lambda name: name == "append" and record(refused) and None)
    outcome = run_command(service, "t1", command.model_dump(mode="json"), actor=None,
                          command_id="d1")  # fmt: skip
    assert (outcome.status, outcome.code) == ("refused", "table_busy")
    assert service.store.find_command("d1", "t1", None) is None
    assert service.store.stream_version("t1") == state_version(service)


def test_an_accepted_command_delivered_again_after_the_table_moved_on_answers_its_first_outcome(
    service: TableService,
) -> None:
    dealt(service)
    state = service.load("t1")
    first = winning_command(state, seats_to_act(state)[0], random.Random(1))
    answered = run_command(service, "t1", first.model_dump(mode="json"), actor=None, command_id="d1")
    moved = service.load("t1")
    then = winning_command(moved, seats_to_act(moved)[0], random.Random(2))
    assert run_command(service, "t1", then.model_dump(mode="json"), actor=None, command_id="d2").accepted
    version = service.store.stream_version("t1")
    for fresh in (False, True):  # on this process's fold, and on one read from the store
        again_by = service if not fresh else TableService(service.store, chosen_deals=True)
        again = run_command(again_by, "t1", first.model_dump(mode="json"), actor=None, command_id="d1")
        assert again == outcome_store(service.store).load_outcome("d1")
        assert (again.status, again.first_version) == ("accepted", answered.first_version)
        assert service.store.stream_version("t1") == version
