"""The contract every event store keeps, its errors, and what the stores share.

Contract (``EventStore``), the same for SQLite and PostgreSQL:

* ``append(stream_id, expected_version, events, command_id=None, command=None)``
  records all of ``events`` or none. ``expected_version`` is the stream's
  version the caller decided on (0 for a new stream); any other current version
  raises ``ConcurrencyError`` naming the stream and both versions.
* Idempotency: a ``command_id`` already recorded with the same stream and
  command content returns the events recorded the first time (before any
  version check, so a retried command that already won is not a conflict);
  with another stream or content it raises ``CommandConflictError``.
* ``find_command(command_id, stream_id, command)``: what ``append`` would answer
  for a retry, without appending: the events first recorded for that command id
  (possibly none), ``None`` if the id is unknown, ``CommandConflictError`` if it
  was recorded with another stream or content. Lets a handler skip deciding again.
* ``read_stream(stream_id, from_version=1)``: the stream in version order.
* ``read_all(from_position=0, limit=N)``: every stream, in global position
  order, events with ``position >= from_position``. A tailer keeps the last
  position it handled and asks from the next one. Positions are strictly
  increasing in commit order (they may have gaps), so a tailer never overtakes
  an event that commits later: see each store for how.
* ``wait_for_events(after_position, timeout)``: True as soon as an event after
  ``after_position`` is readable, False on timeout.
* Snapshots are an optimisation only: ``delete_snapshots()`` changes no answer.
* Sealed seeds (see ``events.fairness``) live in their own table, never in a stream.
* ``timers``: an append may replace the stream's durable timers in its own transaction;
  see ``events.store.timers``.
* ``outcome``: an append may record its command's accepted outcome in its own transaction
  (one trip for the events and their receipt); an id with an outcome already appends nothing
  (``OutcomeRecordedError``): the first outcome wins, and no event follows a refusal.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from events.envelope import (
    Actor,
    JSONDict,
    NewEvent,
    RecordedEvent,
    check_id,
    normalize_time,
    utc_now,
)
from events.hashchain import event_hash
from events.outcomes import CommandOutcome
from events.store.timers import Timer


class StoreError(Exception):
    """Base of the store's errors."""


class ConcurrencyError(StoreError):
    """The stream moved on since the caller read it."""

    def __init__(self, stream_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream_id!r}: expected version {expected}, but it is at version {actual}"
        )
        self.stream_id = stream_id
        self.expected = expected
        self.actual = actual


class CommandConflictError(StoreError):
    """A command id was reused for a different command (or another stream)."""

    def __init__(self, command_id: str, stream_id: str, recorded_stream_id: str) -> None:
        # The text reaches the sender (a refusal's reason): it never names the stream the id
        # was used on, which may be another table or another player's; the attribute keeps it.
        super().__init__(
            f"command id {command_id!r} was already used for another command; "
            "a retry must resend the same command"
        )
        self.command_id = command_id
        self.stream_id = stream_id
        self.recorded_stream_id = recorded_stream_id


class RejectedBatchError(StoreError):
    """The database refused the batch (e.g. an event id recorded before); nothing was written."""

    def __init__(self, stream_id: str, reason: str) -> None:
        super().__init__(f"stream {stream_id!r}: batch refused, nothing written: {reason}")
        self.stream_id = stream_id


class OutcomeRecordedError(StoreError):
    """An append carrying an outcome found one recorded under its command id already (a
    redelivery refused meanwhile): nothing was written, and that outcome is the answer."""

    def __init__(self, command_id: str, stream_id: str) -> None:
        super().__init__(f"command {command_id!r} already has an outcome; nothing was appended")
        self.command_id = command_id
        self.stream_id = stream_id


class SeedError(StoreError):
    """A seed is missing, or a different seed is already sealed for that hand."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stream's folded state as of ``version``, tagged with the fold's ``schema``."""

    stream_id: str
    version: int
    schema: str
    state: bytes | JSONDict
    created_at: datetime


@runtime_checkable
class EventStore(Protocol):
    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        command_id: str | None = None,
        command: JSONDict | None = None,
        timers: Sequence[Timer] | None = None,
        outcome: CommandOutcome | None = None,
    ) -> list[RecordedEvent]:
        """Record ``events`` after ``expected_version`` (``ConcurrencyError`` if the stream is
        elsewhere); a ``command_id`` recorded before answers with its first events.

        ``outcome`` (an accepted one, with ``command_id`` given): recorded in the same
        transaction, its versions and positions the events', so a command costs one trip for
        its events and its receipt; ``OutcomeRecordedError`` if the id has an outcome already."""
        ...

    def find_command(
        self, command_id: str, stream_id: str, command: JSONDict | None
    ) -> list[RecordedEvent] | None: ...

    def read_stream(self, stream_id: str, from_version: int = 1) -> list[RecordedEvent]: ...

    def read_event(self, stream_id: str, version: int) -> RecordedEvent | None:
        """The one event at ``version`` of the stream (None: the stream is shorter)."""
        ...

    def read_all(self, from_position: int = 0, limit: int = 1000) -> list[RecordedEvent]: ...

    def stream_version(self, stream_id: str) -> int: ...

    def wait_for_events(self, after_position: int, timeout: float) -> bool: ...

    def save_snapshot(
        self, stream_id: str, version: int, state: bytes | JSONDict, schema: str
    ) -> None: ...

    def load_snapshot(self, stream_id: str, schema: str | None = None) -> Snapshot | None: ...

    def delete_snapshots(self, stream_id: str | None = None) -> int: ...

    def seal_seed(self, stream_id: str, hand: int, seed: str) -> str: ...

    def load_seed(self, stream_id: str, hand: int) -> str: ...

    def reveal(self, stream_id: str, hand: int) -> str: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Draft:
    """An event ready to insert: everything but its global position."""

    stream_id: str
    version: int
    event: NewEvent
    recorded_at: datetime
    command_id: str | None
    command: JSONDict | None
    prev_hash: str
    hash: str

    def recorded(self, position: int) -> RecordedEvent:
        e = self.event
        return RecordedEvent(
            stream_id=self.stream_id,
            version=self.version,
            position=position,
            event_id=e.event_id,
            type=e.type,
            schema_version=e.schema_version,
            payload=e.payload,
            recorded_at=self.recorded_at,
            actor=e.actor,
            command_id=self.command_id,
            command=self.command,
            rules_version=e.rules_version,
            prev_hash=self.prev_hash,
            hash=self.hash,
        )


def draft_batch(
    stream_id: str,
    expected_version: int,
    prev_hash: str,
    events: Sequence[NewEvent],
    command_id: str | None,
    command: JSONDict | None,
) -> list[Draft]:
    """Number and chain a batch after (``expected_version``, ``prev_hash``)."""
    now = utc_now()
    drafts: list[Draft] = []
    for offset, event in enumerate(events, start=1):
        at = normalize_time(event.recorded_at) if event.recorded_at else now
        version = expected_version + offset
        digest = event_hash(
            stream_id=stream_id,
            version=version,
            event_id=event.event_id,
            type=event.type,
            schema_version=event.schema_version,
            payload=event.payload,
            recorded_at=at,
            actor=event.actor,
            command_id=command_id,
            command=command,
            rules_version=event.rules_version,
            prev_hash=prev_hash,
        )
        drafts.append(Draft(stream_id, version, event, at, command_id, command, prev_hash, digest))
        prev_hash = digest
    return drafts


def check_append_args(stream_id: str, expected_version: int, command_id: str | None,
                      outcome: CommandOutcome | None = None, count: int = 1) -> None:  # fmt: skip
    check_id("stream_id", stream_id)
    if expected_version < 0:
        raise ValueError("expected_version must be >= 0")
    if command_id is not None:
        check_id("command_id", command_id)
    if outcome is not None and (
        not outcome.accepted
        or outcome.command_id != command_id
        or outcome.table_id != stream_id
        or count == 0
    ):
        raise ValueError("an append records only its own command's accepted outcome, with events")


class InvalidEventError(ValueError):
    """An event or command that cannot be written as UTF-8 JSON (e.g. a lone surrogate)."""


def unencodable(stream_id: str, error: UnicodeEncodeError) -> InvalidEventError:
    return InvalidEventError(
        f"stream {stream_id!r}: an event or its command holds text that is not UTF-8"
        f" ({error.reason} at index {error.start}); nothing was written"
    )


class CorruptRowError(StoreError):
    """A stored row that cannot be read back as an event (say, a payload that is not JSON)."""


def decode_json_column(stream_id: str, version: int, column: str, text: str) -> Any:
    """A JSON column of a stored event, or ``CorruptRowError`` naming the event."""
    try:
        return json.loads(text)
    except ValueError as error:
        raise CorruptRowError(
            f"stream {stream_id!r} version {version}: the stored {column} is not JSON ({error})"
        ) from None


def row_to_event(row: Sequence[Any]) -> RecordedEvent:
    """Build an event from a row in ``EVENT_COLUMNS`` order (JSON already decoded)."""
    (
        position,
        stream_id,
        version,
        event_id,
        type_,
        schema_version,
        payload,
        recorded_at,
        actor_kind,
        actor_seat,
        command_id,
        command,
        rules_version,
        prev_hash,
        hash_,
    ) = row
    if not isinstance(payload, dict) or not (command is None or isinstance(command, dict)):
        raise CorruptRowError(
            f"stream {stream_id!r} version {version}: the stored payload and command must be"
            " JSON objects"
        )
    return RecordedEvent(
        stream_id=stream_id,
        version=version,
        position=position,
        event_id=event_id if isinstance(event_id, uuid.UUID) else uuid.UUID(event_id),
        type=type_,
        schema_version=schema_version,
        payload=payload,
        recorded_at=normalize_time(recorded_at),
        actor=Actor(actor_kind, actor_seat),
        command_id=command_id,
        command=command,
        rules_version=rules_version,
        prev_hash=prev_hash,
        hash=hash_,
    )


EVENT_COLUMNS = (
    "position, stream_id, version, event_id, type, schema_version, payload, recorded_at, "
    "actor_kind, actor_seat, command_id, command, rules_version, prev_hash, hash"
)
