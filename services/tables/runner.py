"""One command from a message to its recorded outcome: parse, ``TableService.handle``, record.

Whoever runs commands (a Celery worker, the timekeeper, a test) calls ``run_command`` with the
command as JSON data and a command id (a due timer: ``fire_timer``, the same path), and gets a
``CommandOutcome`` back, recorded in the store under that id. Input that is not a command is
refused with what was wrong, never raised: a message that cannot be parsed must still end in an
outcome its sender can read. An id that already has an outcome is answered with it: a
command that was refused stays refused, even if its redelivery would now be legal (its append
carries its outcome, and the store appends nothing under an id with one). A move on a table the
process folded last costs one store trip: the append, with its outcome.

``TableBusyError`` (other writers kept winning), ``RulesVersionUnavailable`` (the table's rules
version is not one this process has) and a store that cannot be reached are raised: nothing
was decided, so nothing is recorded, and the caller tries again later with the same id (for a
missing version, the queue hands it to a process that has it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from events.envelope import Actor, InvalidIdError, check_id, utc_now
from events.outcomes import CommandOutcome, OutcomeStore, bounded_reason, receipt_of
from events.store.base import CommandConflictError, EventStore, OutcomeRecordedError
from events.store.timers import DueTimer
from services.rules.table.commands import Command, OpenTable
from services.tables.codec import COMMANDS, actor_of
from services.tables.service import Rejected, TableService
from services.tables.timers import timeout_command_id

__all__ = [
    "CommandOutcome", "fire_timer", "outcome_store", "parse_command", "record_refusal",
    "run_command",
]  # fmt: skip

_SHOWN_ERRORS = 3


def outcome_store(store: EventStore) -> OutcomeStore:
    """The store as the keeper of outcomes (both stores are one)."""
    if not isinstance(store, OutcomeStore):
        raise TypeError(f"{type(store).__name__} keeps no command outcomes")
    return store


def parse_command(data: object) -> Command | str:
    """The engine's command from JSON data, or what is wrong with the data."""
    if isinstance(data, Command):
        return data
    if not isinstance(data, Mapping):
        return f"a command is a JSON object, not {type(data).__name__}"
    if "command" not in data:
        return "the command names no 'command' (what to do, e.g. 'discard_tile')"
    try:
        command: Command = COMMANDS.validate_python(dict(data))
    except ValidationError as error:
        problems = [_problem(e["loc"], e["msg"], data["command"]) for e in error.errors()]
        more = len(problems) - _SHOWN_ERRORS
        shown = "; ".join(problems[:_SHOWN_ERRORS]) + (f"; and {more} more" if more > 0 else "")
        return f"not a valid {data['command']!r} command: {shown}"
    return command


def _problem(loc: tuple[int | str, ...], message: str, tag: object) -> str:
    """``seat: Input should be ...``: where, without the union's tag pydantic puts first."""
    where = loc[1:] if loc and loc[0] == tag else loc
    return f"{'.'.join(str(p) for p in where) or 'command'}: {message}"


def run_command(
    service: TableService,
    table_id: str,
    command_data: Mapping[str, Any] | Command,
    *,
    actor: Actor | None,
    command_id: str,
    if_version: int | None = None,
    correlation_id: str | None = None,
    default_timing: Mapping[str, int] | None = None,
) -> CommandOutcome:
    """Run one command and record its outcome under ``command_id`` (the first one wins).

    ``actor``: who sent it (None: the one the command names, as ``TableService.handle``
    decides). ``default_timing``: seconds an ``OpenTable`` takes for the waits it does not
    name itself (the platform's defaults, before the variant's)."""
    try:
        check_id("table_id", table_id)
        check_id("command_id", command_id)
    except InvalidIdError as error:  # no id to record it under: answered, not recorded
        return _refused(str(command_id), str(table_id), actor, str(error), "invalid_id",
                        correlation_id)
    # No look for an earlier outcome first (a trip on every command, for the rare redelivery):
    # an accepted decision's append refuses an id with an outcome (OutcomeRecordedError), a
    # recorded id's append answers its first events, and a refusal's record keeps the first.
    outcomes = outcome_store(service.store)
    try:
        outcome, receipted = _decide(
            service, table_id, command_data, actor, command_id, if_version, correlation_id,
            default_timing,
        )
    except OutcomeRecordedError:  # refused by another delivery since we looked: that stands
        refused = outcomes.load_outcome(command_id)
        assert refused is not None  # outcomes are never deleted
        return refused
    # an accepted command's outcome went in with its events (one trip, not two)
    return outcome if receipted else outcomes.record_outcome(outcome)


def fire_timer(service: TableService, timer: DueTimer) -> CommandOutcome:
    """Give the table the timeout a due timer carries, as the timer (``Actor.timer``), through
    the command path: the outcome is recorded under the timer's command id.

    The row is dropped after: an accepted timeout ended its wait (its append removed the row
    already), and a refused one, or a second firing, would leave it for good otherwise."""
    outcome = run_command(
        service,
        timer.stream_id,
        timer.command,
        actor=Actor.timer(),
        command_id=timeout_command_id(timer.stream_id, timer.key),
    )
    service.store.drop_timer(timer.stream_id, timer.key)  # type: ignore[attr-defined]
    return outcome


def record_refusal(
    service: TableService,
    table_id: str,
    command_id: str,
    reason: str,
    code: str,
    *,
    actor: Actor | None = None,
    correlation_id: str | None = None,
) -> CommandOutcome:
    """Record that a command was refused before the table service saw it (say, its message
    named no actor that exists); an earlier outcome of the id wins, as always."""
    try:
        check_id("table_id", table_id)
        check_id("command_id", command_id)
    except InvalidIdError as error:
        return _refused(str(command_id), str(table_id), actor, str(error), "invalid_id",
                        correlation_id)
    refused = _refused(command_id, table_id, actor, reason, code, correlation_id)
    return outcome_store(service.store).record_outcome(refused)


def _decide(
    service: TableService,
    table_id: str,
    command_data: Mapping[str, Any] | Command,
    actor: Actor | None,
    command_id: str,
    if_version: object,
    correlation_id: str | None,
    default_timing: Mapping[str, int] | None,
) -> tuple[CommandOutcome, bool]:
    """The command's outcome, and whether it is recorded already (with its events)."""
    parsed = parse_command(command_data)
    if isinstance(parsed, str):
        return _refused(command_id, table_id, actor, parsed, "invalid_command",
                        correlation_id), False  # fmt: skip
    command = _with_default_timing(parsed, default_timing)
    actor = actor or actor_of(command)
    if if_version is not None and (
        isinstance(if_version, bool) or not isinstance(if_version, int) or if_version < 0
    ):
        reason = f"if_version must be a version (an integer >= 0), not {if_version!r}"
        return _refused(command_id, table_id, actor, reason, "invalid_command",
                        correlation_id), False  # fmt: skip
    receipt = CommandOutcome(command_id=command_id, table_id=table_id, status="accepted",
                             actor_kind=actor.kind, actor_seat=actor.seat,
                             correlation_id=correlation_id)  # fmt: skip
    try:
        result = service.handle(table_id, command, command_id=command_id, actor=actor,
                                if_version=if_version, receipt=receipt)  # fmt: skip
    except CommandConflictError as error:
        return _refused(command_id, table_id, actor, str(error), "command_id_reused",
                        correlation_id), False  # fmt: skip
    if isinstance(result, Rejected):
        return _refused(command_id, table_id, actor, result.reason, result.code,
                        correlation_id), False  # fmt: skip
    if result.receipted:  # as the store recorded it (its sequence aside)
        return receipt_of(receipt, result.events), True
    return receipt_of(receipt, result.events, recorded_at=utc_now()), False  # to record now


def _with_default_timing(command: Command, default: Mapping[str, int] | None) -> Command:
    if not default or not isinstance(command, OpenTable):
        return command
    return command.model_copy(update={"timing": {**default, **command.timing}})


def _refused(
    command_id: str,
    table_id: str,
    actor: Actor | None,
    reason: str,
    code: str,
    correlation_id: str | None,
) -> CommandOutcome:
    actor = actor or Actor.system()  # unparsed and sent by no one named: the platform's
    return CommandOutcome(
        command_id=command_id,
        table_id=table_id,
        status="refused",
        reason=bounded_reason(reason),
        code=code,
        actor_kind=actor.kind,
        actor_seat=actor.seat,
        correlation_id=correlation_id,
    )
