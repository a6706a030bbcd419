"""The envelope around every event: who, when, why, and where in the log.

A payload (``events.base.DomainEvent``) says *what* happened; the envelope says
in which stream (table) and at which version, at which global position, caused
by which actor and command, under which rules version, and how it links to the
previous event of its stream (``prev_hash`` / ``hash``, see ``events.hashchain``).

``NewEvent`` is what a command handler hands to ``EventStore.append``;
``RecordedEvent`` is what the store gives back and what readers receive.
"""

from __future__ import annotations

import unicodedata
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, get_args

JSONDict = dict[str, Any]
ActorKind = Literal["seat", "system", "timer", "operator"]
ACTOR_KINDS: frozenset[str] = frozenset(get_args(ActorKind))
SEATS = range(4)
MAX_ID_CHARS = 128
"""Stream ids (tables) and command ids: at most this many characters, no space or control."""
ID_PATTERN = r"^[^\s\x00-\x1f\x7f-\x9f]{1,128}$"
"""What ``check_id`` takes, as a JSON Schema ``pattern`` (the API's documents declare it): 1 to
``MAX_ID_CHARS`` characters, none a space or a control (a lone surrogate no JSON text
decodes to, so none is named). ``ID_IN_PATH_PATTERN``: the same, no "/" (a path segment)."""
ID_IN_PATH_PATTERN = r"^[^\s/\x00-\x1f\x7f-\x9f]{1,128}$"


class InvalidIdError(ValueError):
    """An id that no store keeps: empty, too long, or holding a space, control or surrogate."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


def check_id(field: str, value: object) -> None:
    """Refuse an id before any store sees it: PostgreSQL cannot hold a NUL and no driver can
    encode a lone surrogate, and an id is a key, not a place for a megabyte of text."""
    if not isinstance(value, str):
        raise InvalidIdError(field, f"must be text, not {type(value).__name__}")
    if not value:
        raise InvalidIdError(field, "must not be empty")
    if len(value) > MAX_ID_CHARS:
        raise InvalidIdError(field, f"must be at most {MAX_ID_CHARS} characters, not {len(value)}")
    for index, char in enumerate(value):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs") or char.isspace():
            what = {"Cc": "a control character", "Cs": "a lone surrogate"}.get(category, "a space")
            raise InvalidIdError(field, f"holds {what} ({ascii(char)}) at index {index}")


@dataclass(frozen=True, slots=True)
class Actor:
    """Who caused an event: one of the four seats (0-3), the system, a timer or an operator."""

    kind: ActorKind
    seat: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ACTOR_KINDS:
            raise ValueError(
                f"unknown actor kind {self.kind!r}; expected one of {sorted(ACTOR_KINDS)}"
            )
        if self.kind == "seat":
            if self.seat is None or isinstance(self.seat, bool) or self.seat not in SEATS:
                raise ValueError(f"a seat actor needs a seat 0-3, got {self.seat!r}")
        elif self.seat is not None:
            raise ValueError(f"a {self.kind} actor has no seat, got seat={self.seat!r}")

    @classmethod
    def of_seat(cls, seat: int) -> Actor:
        return cls("seat", seat)

    @classmethod
    def system(cls) -> Actor:
        return cls("system")

    @classmethod
    def timer(cls) -> Actor:
        return cls("timer")

    @classmethod
    def operator(cls) -> Actor:
        return cls("operator")

    def to_dict(self) -> JSONDict:
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: JSONDict) -> Actor:
        return cls(data["kind"], data.get("seat"))


def utc_now() -> datetime:
    return datetime.now(UTC)


def normalize_time(moment: datetime) -> datetime:
    """UTC, microsecond precision: the form every store keeps and the hash covers."""
    if moment.tzinfo is None:
        raise ValueError("recorded_at must be timezone-aware")
    return moment.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append. ``payload`` excludes ``type`` (it is carried beside it).

    ``event_id`` and ``recorded_at`` are normally left to their defaults; an
    importer may set them to carry an event over unchanged.
    """

    type: str
    payload: JSONDict
    actor: Actor
    rules_version: str
    schema_version: int = 1
    event_id: uuid.UUID = field(default_factory=uuid.uuid4)
    recorded_at: datetime | None = None

    def __post_init__(self) -> None:
        if not self.type:
            raise ValueError("an event needs a type")
        if "type" in self.payload:
            raise ValueError("payload must not repeat 'type'; it is carried in the envelope")
        if self.schema_version < 1:
            raise ValueError("schema_version starts at 1")


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored: immutable, positioned, hashed.

    ``version`` is 1-based within ``stream_id``; ``position`` is the global,
    strictly increasing order in which events became visible to readers (it may
    have gaps). ``hash`` covers every field except ``position`` (a store may
    renumber positions when a stream is exported and imported elsewhere).
    """

    stream_id: str
    version: int
    position: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    payload: JSONDict
    recorded_at: datetime
    actor: Actor
    command_id: str | None
    command: JSONDict | None
    rules_version: str
    prev_hash: str
    hash: str

    def to_dict(self) -> JSONDict:
        """A JSON-ready dict (for export)."""
        return {
            "stream_id": self.stream_id,
            "version": self.version,
            "position": self.position,
            "event_id": str(self.event_id),
            "type": self.type,
            "schema_version": self.schema_version,
            "payload": self.payload,
            "recorded_at": self.recorded_at.isoformat(),
            "actor": self.actor.to_dict(),
            "command_id": self.command_id,
            "command": self.command,
            "rules_version": self.rules_version,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    @classmethod
    def from_dict(cls, data: JSONDict) -> RecordedEvent:
        return cls(
            stream_id=data["stream_id"],
            version=int(data["version"]),
            position=int(data["position"]),
            event_id=uuid.UUID(str(data["event_id"])),
            type=data["type"],
            schema_version=int(data["schema_version"]),
            payload=data["payload"],
            recorded_at=normalize_time(datetime.fromisoformat(data["recorded_at"])),
            actor=Actor.from_dict(data["actor"]),
            command_id=data.get("command_id"),
            command=data.get("command"),
            rules_version=data["rules_version"],
            prev_hash=data["prev_hash"],
            hash=data["hash"],
        )
