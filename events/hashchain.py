"""The hash chain that makes every stream tamper-evident.

Each event's ``hash`` is the SHA-256 (hex) of the canonical JSON (sorted keys,
no whitespace, UTF-8) of its content: stream id, version, event id, type,
schema version, payload, recorded time (UTC ISO-8601 with microseconds), actor,
command id and command, rules version, and ``prev_hash``, the hash of the
previous event of the same stream (``GENESIS_HASH`` for version 1). The global
``position`` is left out on purpose: it is where a store put the event, not
what the event says.

``verify_chain`` re-computes every hash in stream order and names the first
event that was altered, removed (a link points at nothing) or reordered (a link
points at another event of the stream, or positions run backwards). A deleted
*last* event leaves no trace in the chain itself, and neither does a chain rewritten
and re-hashed from its first event: only a reference held outside the store can tell.
``head`` is one: the hash of an event that someone outside the store was given (each
seat receives the head of every hand as it settles), optionally with its version
(``parse_head("57:ab12...")``). A stream that no longer holds that hash was cut before
it or rewritten; one that holds it is, up to there, the stream that was published.
Events after the last published head are covered by no such reference.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from events.envelope import Actor, RecordedEvent

GENESIS_HASH = "0" * 64

BreakKind = Literal["altered", "removed", "reordered", "truncated", "rewritten"]

_canonical = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
).encode  # what json.dumps builds on every call with these options
_json_str = json.encoder.encode_basestring  # how that encoder writes a str (ensure_ascii=False)
_actor_json: dict[tuple[type, str, int | None], str] = {}


def canonical_json(value: Any) -> str:
    return _canonical(value)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def format_time(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def event_hash(
    *,
    stream_id: str,
    version: int,
    event_id: uuid.UUID,
    type: str,
    schema_version: int,
    payload: dict[str, Any],
    recorded_at: datetime,
    actor: Actor,
    command_id: str | None,
    command: dict[str, Any] | None,
    rules_version: str,
    prev_hash: str,
) -> str:
    content = {
        "stream_id": stream_id,
        "version": version,
        "event_id": str(event_id),
        "type": type,
        "schema_version": schema_version,
        "payload": payload,
        "recorded_at": format_time(recorded_at),
        "actor": actor.to_dict(),
        "command_id": command_id,
        "command": command,
        "rules_version": rules_version,
        "prev_hash": prev_hash,
    }
    return sha256_hex(canonical_json(content))


def event_hash_json(
    *,
    stream_id: str,
    version: int,
    event_id: str,
    type: str,
    schema_version: int,
    payload_json: str,
    recorded_at: str,
    actor: Actor,
    command_id: str | None,
    command_json: str,
    rules_version: str,
    prev_hash: str,
) -> str:
    """``event_hash``, from the texts a store writes anyway.

    ``payload_json`` and ``command_json`` are ``canonical_json`` of the payload and
    of the command, ``event_id`` is ``str(event_id)`` and ``recorded_at`` is
    ``format_time(recorded_at)``. The canonical JSON of an object is its members
    in key order, each value encoded on its own with the same options, so the
    content is spliced from its parts: the same bytes, hence the same hash, as
    ``event_hash`` of the same content, without encoding anything twice.
    """
    key = (actor.__class__, actor.kind, actor.seat)
    actor_json = _actor_json.get(key)
    if actor_json is None:
        actor_json = _canonical(actor.to_dict())
        if len(_actor_json) < 64:
            _actor_json[key] = actor_json
    content = "".join(
        (
            '{"actor":',
            actor_json,
            ',"command":',
            command_json,
            ',"command_id":',
            _scalar_json(command_id),
            ',"event_id":',
            _json_str(event_id),
            ',"payload":',
            payload_json,
            ',"prev_hash":',
            _scalar_json(prev_hash),
            ',"recorded_at":',
            _json_str(recorded_at),
            ',"rules_version":',
            _scalar_json(rules_version),
            ',"schema_version":',
            _scalar_json(schema_version),
            ',"stream_id":',
            _scalar_json(stream_id),
            ',"type":',
            _scalar_json(type),
            ',"version":',
            _scalar_json(version),
            "}",
        )
    )
    return sha256_hex(content)


def _scalar_json(value: Any) -> str:
    """``canonical_json(value)``, quicker for the str, int and None of an envelope."""
    kind = value.__class__
    if kind is str:
        return _json_str(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    return _canonical(value)


def recompute_hash(event: RecordedEvent) -> str:
    return event_hash(
        stream_id=event.stream_id,
        version=event.version,
        event_id=event.event_id,
        type=event.type,
        schema_version=event.schema_version,
        payload=event.payload,
        recorded_at=event.recorded_at,
        actor=event.actor,
        command_id=event.command_id,
        command=event.command,
        rules_version=event.rules_version,
        prev_hash=event.prev_hash,
    )


def command_digest(stream_id: str, command: dict[str, Any] | None) -> str:
    """What makes two submissions of a command id "the same command"."""
    return sha256_hex(canonical_json({"stream_id": stream_id, "command": command}))


def command_digest_json(stream_id: str, command_json: str) -> str:
    """``command_digest``, given ``canonical_json(command)`` (spliced as in ``event_hash_json``)."""
    return sha256_hex(
        '{"command":' + command_json + ',"stream_id":' + _scalar_json(stream_id) + "}"
    )


@dataclass(frozen=True, slots=True)
class ChainBreak:
    """The first bad place in a stream: which event, and what is wrong there."""

    stream_id: str
    kind: BreakKind
    version: int
    event_id: uuid.UUID | None
    detail: str

    def __str__(self) -> str:
        who = f"event {self.event_id}" if self.event_id else "the stream head"
        return f"stream {self.stream_id!r}: {self.kind} at version {self.version} ({who}): {self.detail}"


class ChainBroken(Exception):
    def __init__(self, broken: ChainBreak) -> None:
        super().__init__(str(broken))
        self.broken = broken


@dataclass(frozen=True, slots=True)
class Head:
    """A stream's head as someone outside the store holds it: a hash, maybe its version."""

    hash: str
    version: int | None = None


HEAD_PATTERN = r"^[ \t]*((0*[1-9][0-9]*)?:)?[0-9a-fA-F]{64}[ \t]*$"
r"""What ``parse_head`` takes, as a JSON Schema ``pattern`` (the API's document declares it):
spaces and tabs around it, not a regex ``\s``, which engines read apart (Python's takes U+0085)."""


def parse_head(text: str) -> Head:
    """``HASH`` or ``VERSION:HASH`` (64 hex digits), as ``paiju replay --head`` takes it."""
    version_text, _, digest = text.strip().rpartition(":")
    digest = digest.lower()
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ValueError(f"a head is 64 hex digits, optionally after VERSION: (got {text!r})")
    if not version_text:
        return Head(digest)
    # isascii too: str.isdigit takes '²', which int() refuses
    if not (version_text.isascii() and version_text.isdigit()) or int(version_text) < 1:
        raise ValueError(f"a head's version is a number from 1 (got {version_text!r})")
    return Head(digest, int(version_text))


def find_break(
    events: Iterable[RecordedEvent],
    *,
    expected_head: int | None = None,
    head: Head | None = None,
) -> ChainBreak | None:
    """The first break in one or more streams (events grouped per stream, in stream order);
    ``head`` (for a single stream) must be in it."""
    streams: dict[str, list[RecordedEvent]] = {}
    for event in events:
        streams.setdefault(event.stream_id, []).append(event)
    for stream_id, stream in streams.items():
        broken = _find_stream_break(stream_id, stream, expected_head) or _find_head(
            stream_id, stream, head
        )
        if broken is not None:
            return broken
    return None


def verify_chain(
    events: Iterable[RecordedEvent],
    *,
    expected_head: int | None = None,
    head: Head | None = None,
) -> None:
    """Raise ``ChainBroken`` naming the first event altered, removed or reordered."""
    broken = find_break(events, expected_head=expected_head, head=head)
    if broken is not None:
        raise ChainBroken(broken)


def _find_head(
    stream_id: str, stream: Sequence[RecordedEvent], head: Head | None
) -> ChainBreak | None:
    """Where an intact stream fails to hold ``head``: cut before it, or rewritten."""
    if head is None or any(event.hash == head.hash for event in stream):
        return None
    if head.version is not None and len(stream) < head.version:
        return ChainBreak(
            stream_id,
            "truncated",
            len(stream) + 1,
            None,
            f"stream ends at version {len(stream)}, but version {head.version} was published"
            f" with hash {head.hash}",
        )
    at = head.version if head.version is not None else len(stream)
    held = stream[at - 1].hash if 0 < at <= len(stream) else "nothing"
    return ChainBreak(
        stream_id,
        "rewritten",
        at,
        stream[at - 1].event_id if 0 < at <= len(stream) else None,
        f"no event has the published head hash {head.hash} (version {at} has {held}):"
        " the stream was cut before it or rewritten",
    )


def _find_stream_break(
    stream_id: str, stream: Sequence[RecordedEvent], expected_head: int | None
) -> ChainBreak | None:
    known = {e.hash: e for e in stream}
    prev_hash = GENESIS_HASH
    prev_position: int | None = None
    for index, event in enumerate(stream, start=1):
        if event.prev_hash != prev_hash:
            pointed = known.get(event.prev_hash)
            if pointed is not None:
                return ChainBreak(
                    stream_id,
                    "reordered",
                    index,
                    event.event_id,
                    f"found where version {index} belongs, but it follows version {pointed.version}",
                )
            return ChainBreak(
                stream_id,
                "removed",
                index,
                event.event_id,
                f"the event before it is missing (stored version {event.version})",
            )
        if recompute_hash(event) != event.hash:
            return ChainBreak(
                stream_id, "altered", index, event.event_id, "content does not match its hash"
            )
        if event.version != index:
            return ChainBreak(
                stream_id, "altered", index, event.event_id, f"stored version {event.version}"
            )
        if prev_position is not None and event.position <= prev_position:
            return ChainBreak(
                stream_id,
                "reordered",
                index,
                event.event_id,
                f"global position {event.position} is not after {prev_position}",
            )
        prev_hash, prev_position = event.hash, event.position
    if expected_head is not None and len(stream) < expected_head:
        return ChainBreak(
            stream_id,
            "truncated",
            len(stream) + 1,
            None,
            f"stream ends at version {len(stream)}, expected {expected_head}",
        )
    return None
