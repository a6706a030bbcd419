"""Between the engine's events and the store's envelopes; secrets stay out of the stream.

The deal (``hand_started``) keeps only the commitment of its seed in the stream; the seed
itself is sealed in the store apart and joined back in when the table is loaded.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

import services.rules.events.accounts  # noqa: F401  (registers the account events the stores also hold)
from events.base import DomainEvent
from events.envelope import Actor, NewEvent, RecordedEvent
from events.registry import registry
from services.rules import RULES_VERSION
from services.rules.events.hand import HandStarted
from services.rules.table.commands import AnyCommand, Command, StartHand

COMMANDS: TypeAdapter[Any] = TypeAdapter(AnyCommand)
"""Every command parsed by its ``command`` name: the house's one adapter (``parse_command`` for
the command path and the API, ``command_from_record`` for what the store kept)."""


def to_new_event(event: DomainEvent, actor: Actor, rules_version: str = RULES_VERSION) -> NewEvent:
    """The envelope to append, stamped with the rules version that decided it (the table's);
    a deal's seed is left out of the stream."""
    if isinstance(event, HandStarted) and event.seed is not None:
        event = event.model_copy(update={"seed": None})
    return registry.new_event(event, actor=actor, rules_version=rules_version)


def decode(recorded: RecordedEvent) -> DomainEvent:
    return registry.decode(recorded)


def command_record(command: Command) -> dict[str, Any]:
    """The command as recorded beside its events (a StartHand's seed stays sealed)."""
    data = command.model_dump(mode="json")
    if isinstance(command, StartHand) and command.wall is None:
        data["seed"] = None
        data["seed_sealed"] = True
    return data


def command_from_record(data: dict[str, Any], seed: str | None = None) -> Command:
    """A recorded command back as a model; ``seed`` restores a sealed StartHand seed."""
    data = {k: v for k, v in data.items() if k != "seed_sealed"}
    if data.get("command") == "start_hand" and seed is not None:
        data["seed"] = seed
    command: Command = COMMANDS.validate_python(data)
    return command


def actor_of(command: Command) -> Actor:
    """Who gives this command: the seat it names, the system (timers too) or an operator."""
    seat = getattr(command, "seat", None)
    if command.issued_by == "seat" and isinstance(seat, int):
        return Actor.of_seat(seat)
    return Actor.operator() if command.issued_by == "operator" else Actor.system()
