"""A command's outcome, as the store keeps it under the command's id.

Every command that reaches a worker ends in one outcome: accepted (with the versions and
global positions of the events it recorded) or refused (with a reason for people and a code
for programs). The outcome is recorded once, under the command id: a redelivered command is
answered with the first one, and a refusal stays where the seat that sent it can find it
(``refusals_for``). The outcome is a receipt, not the truth: the events are. A refusal stores
no event; an accepted outcome names events already in the stream.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from events.envelope import Actor, ActorKind, utc_now

OutcomeStatus = Literal["accepted", "refused"]

MAX_REASON_CHARS = 500
"""A refusal's reason as stored (a parse error can name many fields: the first ones are kept)."""


class CommandOutcome(BaseModel):
    """What became of one command. ``sequence`` is the outcome's place in the store's log of
    outcomes (set by the store; ``refusals_for``'s cursor), 0 before it is recorded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command_id: str
    table_id: str
    status: OutcomeStatus
    reason: str | None = Field(default=None, max_length=MAX_REASON_CHARS)
    code: str | None = None
    first_version: int | None = None
    last_version: int | None = None
    first_position: int | None = None
    last_position: int | None = None
    actor_kind: ActorKind
    actor_seat: int | None = None
    recorded_at: datetime = Field(default_factory=utc_now)
    correlation_id: str | None = None
    sequence: int = 0

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    @property
    def actor(self) -> Actor:
        return Actor(self.actor_kind, self.actor_seat)


def bounded_reason(reason: str) -> str:
    """``reason`` cut to what an outcome keeps."""
    if len(reason) <= MAX_REASON_CHARS:
        return reason
    return reason[: MAX_REASON_CHARS - 1] + "…"


class OutcomeTimeoutError(TimeoutError):
    """No outcome was recorded for the command in the time given."""

    def __init__(self, command_id: str, timeout: float) -> None:
        super().__init__(f"no outcome recorded for command {command_id!r} within {timeout:g} s")
        self.command_id = command_id


@runtime_checkable
class OutcomeStore(Protocol):
    """What both event stores keep of outcomes (``events.store.outcomes_*``)."""

    def record_outcome(self, outcome: CommandOutcome) -> CommandOutcome:
        """Record ``outcome`` unless its command id has one; the outcome recorded (the first)."""
        ...

    def load_outcome(self, command_id: str) -> CommandOutcome | None: ...

    def wait_for_outcome(self, command_id: str, timeout: float) -> CommandOutcome | None:
        """The outcome as soon as it is recorded; None when ``timeout`` seconds pass first."""
        ...

    def refusals_for(
        self, table_id: str, seat: int, after: int = 0, limit: int = 100
    ) -> list[CommandOutcome]:
        """The refusals of commands a seat sent at a table, in the order they were recorded,
        those with ``sequence > after``."""
        ...
