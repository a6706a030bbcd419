"""A seat's stream, frame by frame, typed (docs/api.md, "The stream").

- ``ViewFrame``: the stream's first frame, and the first after every reconnect: the seat's view
  now and its options there;
- ``EventFrame``: one event of the table, redacted for the seat, ``version`` its id; the last
  of a delivery carries the seat's ``options`` at that version;
- ``RefusalFrame``: one of the seat's own commands was refused (it stores no event).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from events.outcomes import CommandOutcome
from services.tables.options import SeatOptions


@dataclass(frozen=True)
class ViewFrame:
    version: int
    view: dict[str, Any]
    options: SeatOptions


@dataclass(frozen=True)
class EventFrame:
    version: int
    type: str
    payload: dict[str, Any]
    options: SeatOptions | None = None
    anchor: dict[str, Any] | None = None
    """On the last event of a batch that settles a hand: ``{"version", "hash"}``, the hash
    chain there, for the seat to check the hand it saw against the table's record."""


@dataclass(frozen=True)
class RefusalFrame:
    outcome: CommandOutcome


Frame = ViewFrame | EventFrame | RefusalFrame


class StreamFormatError(ValueError):
    """A frame that is not what docs/api.md says a seat's stream sends."""


def frame_of(event: str, data: str, event_id: str | None) -> Frame:
    """One server-sent event of a seat's stream as its frame."""
    try:
        body = json.loads(data)
    except ValueError as error:
        raise StreamFormatError(f"a {event!r} frame's data is not JSON: {data[:80]!r}") from error
    if not isinstance(body, dict):
        raise StreamFormatError(f"a {event!r} frame's data is not an object: {data[:80]!r}")
    if event == "view":
        return ViewFrame(int(body["version"]), body["view"], SeatOptions.model_validate(body["options"]))
    if event == "command_refused":
        return RefusalFrame(CommandOutcome.model_validate(body))
    if event_id is None:
        raise StreamFormatError(f"a {event!r} frame has no id")
    options = body.get("options")
    return EventFrame(int(body["version"]), str(body["type"]), body.get("payload") or {},
                      SeatOptions.model_validate(options) if options else None,
                      body.get("anchor"))  # fmt: skip
