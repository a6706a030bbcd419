"""One viewer's stream of a table, read incrementally, with each hand's head hash published.

A ``SeatStream`` is a cursor: the viewer, the last version it was given, and the table folded
up to there (``event_for`` needs the table just before each event). ``read_page`` reads only
the events after the cursor, gives each one as the viewer may see it, and returns the cursor
moved on: the live stream of the API calls it on every new event without re-reading or
re-folding what it already gave.

The last event of the batch that settles a hand carries ``anchor``: that event's version and
hash, the head of the table's hash chain as the hand ended. Every seat receives it, so each
one holds, outside the store, the hash that every event up to there is chained into:
``paiju replay TABLE --head HASH`` later tells whether the store still holds that chain.
The hash reveals nothing of the hidden tiles: it covers each event's random id, which no
seat is sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from events.base import DomainEvent
from events.envelope import RecordedEvent
from events.store.base import EventStore
from services.rules.table import TableState, evolve
from services.rules.table.redact import Viewer, event_for
from services.tables import loader
from services.tables.codec import decode


class StreamDivergedError(RuntimeError):
    """The store no longer holds the events a viewer's stream was given."""


@dataclass(frozen=True)
class SeatStream:
    """Where one viewer's stream of a table stands: ``table`` is folded up to ``version``
    (whose event has hash ``head_hash``); events from ``from_version`` on are given."""

    table_id: str
    viewer: Viewer
    table: loader.LoadedTable
    from_version: int = 1

    @classmethod
    def starting(
        cls,
        store: EventStore,
        table_id: str,
        viewer: Viewer,
        from_version: int = 1,
        snapshot_key: bytes | None = None,
    ) -> SeatStream:
        """A cursor before ``from_version``: from a checked snapshot at or before it, if any."""
        start = loader.EMPTY
        if snapshot_key is not None:
            snapshot = loader.snapshot_start(store, table_id, snapshot_key)[0]
            if snapshot is not None and snapshot.version < from_version:
                start = snapshot
        return cls(table_id, viewer, start, max(1, from_version))

    @property
    def version(self) -> int:
        return self.table.version


@dataclass(frozen=True)
class StreamPage:
    events: list[dict[str, Any]]
    cursor: SeatStream
    times: tuple[tuple[int, datetime], ...] = ()  # (version, recorded_at) of the events read

    def __iter__(self) -> Any:
        return iter(self.events)


def _batch_key(event: RecordedEvent) -> tuple[str | None, str]:
    return event.command_id, repr(event.command)


@dataclass(frozen=True)
class Folded:
    """One event folded: the state just before it (what redacting it needs) and, on the last
    event of a batch that settled a hand, its ``anchor`` (version and hash)."""

    recorded: RecordedEvent
    event: DomainEvent
    before: TableState
    after: TableState
    anchor: dict[str, Any] | None


def fold_events(
    store: EventStore, table_id: str, events: list[RecordedEvent], state: TableState
) -> Iterator[Folded]:
    """Each of ``events`` (whole batches, in order) folded on from ``state``."""
    revealed = loader.revealed_seeds(events)
    settled = False
    for index, recorded in enumerate(events):
        event = loader.with_seed(store, table_id, decode(recorded), revealed)
        before, state = state, evolve(state, event)
        settled = settled or (state.hand_over and not before.hand_over)
        following = events[index + 1] if index + 1 < len(events) else None
        ends_batch = following is None or _batch_key(following) != _batch_key(recorded)
        anchor = {"version": recorded.version, "hash": recorded.hash} if ends_batch and settled else None
        yield Folded(recorded, event, before, state, anchor)
        if ends_batch:
            settled = False


def shown(folded: Folded, payload: dict[str, Any]) -> dict[str, Any]:
    """An event as a stream sends it: ``version``, ``type``, the viewer's ``payload`` and,
    where the batch settled a hand, ``anchor``."""
    recorded = folded.recorded
    item: dict[str, Any] = {"version": recorded.version, "type": recorded.type, "payload": payload}
    if folded.anchor is not None:
        item["anchor"] = folded.anchor
    return item


def read_page(store: EventStore, cursor: SeatStream) -> StreamPage:
    """The events after ``cursor`` as its viewer may see them, and the cursor moved on.

    The events are read from the cursor's own version, whose hash must still be the one it
    folded. A start that does not sit on the stream (a snapshot, before anything was given)
    is dropped for the stream's beginning; a stream that changed under events already given
    raises ``StreamDivergedError``."""
    table = cursor.table
    events = store.read_stream(cursor.table_id, from_version=max(1, table.version))
    if table.version > 0:
        head = events[0] if events else None
        if head is not None and (head.version, head.hash) == (table.version, table.head_hash):
            events = events[1:]
        elif table.version < cursor.from_version:
            events, table = store.read_stream(cursor.table_id), loader.EMPTY
        else:
            raise StreamDivergedError(
                f"table {cursor.table_id}: version {table.version} is no longer the event this"
                " stream gave (the store was cut or rewritten)"
            )
    out: list[dict[str, Any]] = []
    state: TableState = table.state
    for folded in fold_events(store, cursor.table_id, events, state):
        if folded.recorded.version >= cursor.from_version:
            out.append(shown(folded, event_for(cursor.viewer, folded.event, folded.before)))
        state = folded.after
    if events:
        table = loader.LoadedTable(state, events[-1].version, events[-1].hash)
    times = tuple((recorded.version, recorded.recorded_at) for recorded in events)
    return StreamPage(out, replace(cursor, table=table), times)
