"""Commands sent through Celery to a real worker, on Redis + PostgreSQL and on the embedded path:
each ends in the outcome recorded under its command id, which the sender awaits."""

from __future__ import annotations

import random
import uuid
from typing import Any

import pytest
import structlog
from worker_kit import Through

from events.envelope import Actor
from services.bots.winning_bot import winning_command
from services.rules.table import CommandRejected, decide
from services.rules.table.commands import Pung
from services.rules.table.legal import seats_to_act
from services.tables import TableService
from services.tables.runner import outcome_store
from workers.client import await_outcome, submit, submit_and_wait

PLAYERS = ["ann", "bo", "cy", "di"]
WAIT = 60.0  # bounded: the first command also waits for the worker to be up


def new_table(through: Through) -> str:
    """A table opened and dealt through the worker; its id."""
    table_id = f"t-{uuid.uuid4().hex[:10]}"
    opened = submit_and_wait(
        through.app, through.store, table_id,
        {"command": "open_table", "table_id": table_id, "variant": "harbin", "players": PLAYERS},
        command_id=f"{table_id}/open", timeout=WAIT,
    )
    dealt = submit_and_wait(
        through.app, through.store, table_id, {"command": "start_hand"},
        command_id=f"{table_id}/deal", timeout=WAIT,
    )
    assert opened.accepted and dealt.accepted, (opened, dealt)
    return table_id


def test_an_accepted_command_names_the_events_it_recorded(through: Through) -> None:
    table_id = new_table(through)
    outcome = await_outcome(through.store, f"{table_id}/deal", WAIT)
    recorded = [e for e in through.store.read_stream(table_id) if e.command_id == outcome.command_id]
    assert outcome.status == "accepted"
    assert [outcome.first_version, outcome.last_version] == [
        recorded[0].version, recorded[-1].version,
    ]
    assert [outcome.first_position, outcome.last_position] == [
        recorded[0].position, recorded[-1].position,
    ]


def test_a_refused_command_carries_the_rules_reason_to_the_seat_that_sent_it(
    through: Through,
) -> None:
    table_id = new_table(through)
    state = TableService(through.store).load(table_id)
    idle = next(s for s in range(4) if s not in seats_to_act(state))
    with pytest.raises(CommandRejected) as rules_say:
        decide(state, Pung(seat=idle))
    outcome = submit_and_wait(
        through.app, through.store, table_id, {"command": "pung", "seat": idle},
        command_id=f"{table_id}/pung", actor=Actor.of_seat(idle), timeout=WAIT,
    )
    assert (outcome.status, outcome.code, outcome.reason) == (
        "refused", "refused_by_rules", rules_say.value.reason,
    )
    assert outcome_store(through.store).refusals_for(table_id, idle) == [outcome]


def test_the_same_command_id_sent_twice_is_recorded_once_and_both_get_its_outcome(
    through: Through,
) -> None:
    table_id = new_table(through)
    state = TableService(through.store).load(table_id)
    seat = seats_to_act(state)[0]
    move = winning_command(state, seat, random.Random(3)).model_dump(mode="json")
    command_id = f"{table_id}/move-1"
    for _ in range(2):
        submit(through.app, table_id, move, command_id=command_id)
    first = await_outcome(through.store, command_id, WAIT)
    submit(through.app, table_id, move, command_id=command_id)
    again = await_outcome(through.store, command_id, WAIT)
    assert first.status == "accepted" and again == first
    recorded = [e for e in through.store.read_stream(table_id) if e.command_id == command_id]
    assert [e.version for e in recorded] == list(range(first.first_version or 0,
                                                       (first.last_version or 0) + 1))


@pytest.mark.parametrize(
    ("command", "actor", "named"),
    [
        ({"command": "discard_tile", "seat": 9, "tile": "5m"}, {"kind": "seat", "seat": 1}, "seat"),
        ({"command": "fly_away"}, None, "fly_away"),
        ({"command": "pung", "seat": 1}, {"kind": "seat", "seat": 7}, "actor"),
        ({"command": "pung", "seat": 1}, {"kind": "robot"}, "actor"),
    ],
)
def test_a_malformed_command_is_refused_naming_what_was_wrong(
    through: Through, command: dict[str, object], actor: dict[str, object] | None, named: str
) -> None:
    table_id = f"t-{uuid.uuid4().hex[:10]}"
    command_id = f"{table_id}/bad"
    through.app.send_task(  # as any producer might send it, past the client's checks
        "paiju.commands.handle",
        kwargs={"table_id": table_id, "command": command, "command_id": command_id,
                "actor": actor},
    )
    outcome = await_outcome(through.store, command_id, WAIT)
    assert (outcome.status, outcome.code) == ("refused", "invalid_command")
    assert named in (outcome.reason or "")
    assert through.store.stream_version(table_id) == 0


def test_the_workers_log_lines_carry_the_task_the_table_the_command_and_the_callers_id(
    through: Through,
) -> None:
    table_id = f"t-{uuid.uuid4().hex[:10]}"
    command_id = f"{table_id}/open"
    correlation = f"req-{uuid.uuid4().hex[:8]}"
    outcome = submit_and_wait(
        through.app, through.store, table_id,
        {"command": "open_table", "table_id": table_id, "variant": "harbin", "players": PLAYERS},
        command_id=command_id, correlation_id=correlation, timeout=WAIT,
    )
    assert outcome.correlation_id == correlation

    def ours_of(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [line for line in lines if line.get("command_id") == command_id]

    def finished(lines: list[dict[str, Any]]) -> bool:
        return any("succeeded" in str(line.get("event")) for line in ours_of(lines))

    ours = ours_of(through.log_lines_until(finished))
    handled = [line for line in ours if line.get("event") == "command.accepted"]
    assert len(handled) == 1, ours
    assert handled[0]["table_id"] == table_id
    assert handled[0]["correlation_id"] == correlation
    assert handled[0]["task"] == "paiju.commands.handle"
    celery_own = [line for line in ours if line.get("logger", "").startswith("celery")]
    assert celery_own, "Celery's own records about the task are JSON lines with its ids too"
    assert {line["task_id"] for line in ours} == {handled[0]["task_id"]}


def test_a_correlation_id_bound_in_the_callers_log_context_travels_with_any_task_it_sends(
    through: Through,
) -> None:
    table_id = f"t-{uuid.uuid4().hex[:10]}"
    correlation = f"req-{uuid.uuid4().hex[:8]}"
    with structlog.contextvars.bound_contextvars(correlation_id=correlation):
        through.app.send_task(  # no header given: before_task_publish adds it
            "paiju.commands.handle",
            kwargs={"table_id": table_id, "command": {"command": "start_hand"},
                    "command_id": f"{table_id}/deal"},
        )
    outcome = await_outcome(through.store, f"{table_id}/deal", WAIT)
    assert outcome.status == "refused"  # no table was opened
    assert outcome.correlation_id == correlation
