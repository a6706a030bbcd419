"""A hand as one seat saw it, step by step: the replay viewer's "as seat N saw it".

A dispute is about what a player was shown, so nothing here redacts for itself: each event is
folded and given as the live seat stream gives it (``stream.fold_events``, ``stream.shown``
and ``redact.event_for``), the table after it as the seat's view shows it
(``views.player_view``), what the seat could do as its stream's options carried them
(``options.seat_options``: its legal commands and the wait it was under), and its rulings
(``rulings.rulings``: its waits, why no 听, each claim offered or not and why). A frame can
show the seat no more, and no less, than these showed it at that version.

One frame per event of the hand, the same versions as the operator's frames
(``frames.hand_frames``), so the viewer shows both side by side, step for step.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from events.envelope import RecordedEvent
from events.store.base import EventStore
from services.rules.table import TableState
from services.rules.table.redact import event_for
from services.rules.table.rulings import Rulings, rulings
from services.rules.table.views import player_view
from services.tables.frames import NoSuchHand, hands_of
from services.tables.options import SeatOptions, seat_options
from services.tables.stream import fold_events, shown


class Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class SeatFrame(Model):
    """One event of the hand as the seat was shown it, and where that left the seat."""

    version: int
    type: str
    event: dict[str, Any] = Field(
        description="The event as the seat's stream sent it: version, type, payload (anchor)"
    )
    view: dict[str, Any] = Field(description="The seat's view of the table after it")
    options: SeatOptions
    rulings: Rulings


class SeatReplay(Model):
    table_id: str
    variant: str
    players: list[str]
    hand: int
    seat: int = Field(ge=0, le=3)
    frames: list[SeatFrame]
    stopped: str | None = Field(
        default=None, description="The event the fold could not read or apply, named"
    )


def seat_frames(store: EventStore, events: list[RecordedEvent], hand: int, seat: int) -> SeatReplay:
    """The frames of hand ``hand`` as ``seat`` saw them (``events``: the table's stream, whole;
    a sealed seed of a hand in play is read from ``store``, as the live stream reads it)."""
    if not 0 <= seat <= 3:
        raise ValueError(f"seat must be 0–3, got {seat}")
    span = next((h for h in hands_of(events) if h["hand"] == hand), None)
    if span is None:
        numbers = [h["hand"] for h in hands_of(events)]
        which = "no hand yet" if not numbers else f"hands {numbers[0]} to {numbers[-1]}"
        raise NoSuchHand(f"hand {hand}: the table has {which}")
    opened = events[0].payload if events[0].type == "table_opened" else {}
    times = {e.version: e.recorded_at for e in events}
    replay = SeatReplay(table_id=events[0].stream_id, variant=str(opened.get("variant", "")),
                        players=list(opened.get("players", [])), hand=hand, seat=seat,
                        frames=[])  # fmt: skip
    frames: list[SeatFrame] = []
    stopped, version = None, 0
    folds = fold_events(store, replay.table_id, events, TableState())
    while True:
        try:
            folded = next(folds, None)
        except Exception as error:  # a stream that cannot be folded (tampered): up to there
            stopped = _stopped(events, version + 1, error)  # the one after the last folded
            break
        if folded is None or folded.recorded.version > span["to_version"]:
            break  # folded in whole batches: an event's anchor looks at the next one
        version = folded.recorded.version
        if version >= span["from_version"]:
            event = shown(folded, event_for(seat, folded.event, folded.before))
            frames.append(_frame(folded.recorded, event, folded.after, seat, times.get))
    return replay.model_copy(update={"frames": frames, "stopped": stopped})


def _frame(recorded: RecordedEvent, event: dict[str, Any], after: TableState, seat: int,
           began_at: Callable[[int], datetime | None]) -> SeatFrame:  # fmt: skip
    options = seat_options(after, seat, began_at)
    return SeatFrame(
        version=recorded.version, type=recorded.type, event=event,
        view=player_view(after, seat),
        options=SeatOptions.model_validate({k: v for k, v in options.items() if k != "view"}),
        rulings=rulings(after, seat),
    )  # fmt: skip


def _stopped(events: list[RecordedEvent], version: int, error: Exception) -> str:
    kind = next((e.type for e in events if e.version == version), "?")
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"version {version} ({kind}) cannot be folded: {text}"
