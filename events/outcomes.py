"""A command's outcome, as the store keeps it under the command's id.

Every command that reaches a worker ends in one outcome: accepted (with the versions and
global positions of the events it recorded) or refused (with a reason for people and a code
for programs). The outcome is recorded once, under the command id: a redelivered command is
answered with the first one, and a refusal stays where the seat that sent it can find it
(``refusals_for``). The outcome is a receipt, not the truth: the events are. A refusal stores
no event; an accepted outcome names events already in the stream.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from events.envelope import Actor, ActorKind, RecordedEvent, utc_now

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


def receipt_of(outcome: CommandOutcome, events: list[RecordedEvent],
               recorded_at: datetime | None = None) -> CommandOutcome:  # fmt: skip
    """``outcome`` naming ``events``: their versions and positions (no events: none named),
    recorded at ``recorded_at`` (None: when the last of them was, as an append records it with
    them, either store)."""
    if not events:
        return outcome.model_copy(update={"recorded_at": recorded_at or outcome.recorded_at})
    first, last = events[0], events[-1]
    return outcome.model_copy(update={
        "first_version": first.version, "last_version": last.version,
        "first_position": first.position, "last_position": last.position,
        "recorded_at": recorded_at or last.recorded_at})  # fmt: skip


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

    def refusals_after(self, after: int = 0, limit: int = 500) -> list[CommandOutcome]:
        """Every table's refusals with ``sequence > after``, in the order they were recorded
        (an API process's follower: which tables' streams have a refusal to tell)."""
        ...

    def last_outcome_sequence(self) -> int:
        """The sequence of the last outcome recorded (0: none yet)."""
        ...


class CommandRequest(BaseModel):
    """A command as a client sent it, kept under its command id before it is queued."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command_id: str
    table_id: str
    fingerprint: str = Field(min_length=1, max_length=128)
    """A digest of what was asked (route, table, command, ``If-Match``): the same key with
    another fingerprint is another request under a key already used."""
    body: str
    """The queue message's arguments, as JSON: enough to send the command again."""
    requested_at: datetime = Field(default_factory=utc_now)


class RequestClaim(BaseModel):
    """What ``claim_request`` found: this request is the first under its id, or the first
    one's fingerprint, arrival and outcome (None: still in flight)."""

    model_config = ConfigDict(frozen=True)

    first: bool
    request: CommandRequest
    outcome: CommandOutcome | None = None


@runtime_checkable
class RequestStore(Protocol):
    """Where the API keeps each client command before queueing it (``events.store.requests_*``)."""

    def claim_request(self, request: CommandRequest) -> RequestClaim:
        """Keep ``request`` unless its command id has one; what is kept, with its outcome."""
        ...

    def find_request(self, command_id: str) -> RequestClaim | None:
        """The request kept under ``command_id`` with its outcome; None if none was."""
        ...

    def claim_unanswered(
        self, older_than: float, lease: float, limit: int = 100
    ) -> list[CommandRequest]:
        """Requests kept over ``older_than`` seconds ago with no outcome yet and not claimed
        in the last ``lease`` seconds, oldest first; each is claimed (``resent_at`` now), so
        resenders running at once share them out."""
        ...

    def on_outcome(self, command_id: str, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake`` (from any thread, maybe more than once) when the outcome of
        ``command_id`` may have been recorded; the answer stops it. A waiter still reads the
        store: ``wake`` is a hint, which another process's store may never give."""
        ...
