"""Export a table's stream as JSON lines, and import one into another store, hashes intact."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from itertools import groupby

from events.envelope import NewEvent, RecordedEvent
from events.hashchain import find_break
from events.store.base import EventStore


class ImportError_(ValueError):
    """The file is not a stream this store can take; nothing was imported."""


def export_lines(store: EventStore, table_id: str) -> Iterator[str]:
    for event in store.read_stream(table_id):
        yield json.dumps(event.to_dict(), ensure_ascii=False, sort_keys=True)


def parse_lines(lines: Iterable[str]) -> list[RecordedEvent]:
    events: list[RecordedEvent] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append(RecordedEvent.from_dict(json.loads(line)))
        except (ValueError, KeyError, TypeError) as error:
            raise ImportError_(f"line {number}: not an exported event ({error})") from None
    return events


def import_events(store: EventStore, events: list[RecordedEvent]) -> str:
    """Append an exported stream to ``store`` batch by batch, keeping ids, times and hashes."""
    if not events:
        raise ImportError_("the file holds no events")
    streams = {e.stream_id for e in events}
    if len(streams) != 1:
        raise ImportError_(
            f"one table per file, found {len(streams)}: {', '.join(sorted(streams))}"
        )
    table_id = events[0].stream_id
    broken = find_break(events)
    if broken is not None:
        raise ImportError_(f"the file's hash chain is broken: {broken}")
    if store.stream_version(table_id) != 0:
        raise ImportError_(f"table {table_id} already exists in this store")
    for (command_id, _), group in groupby(events, key=lambda e: (e.command_id, repr(e.command))):
        batch = list(group)
        new = [
            NewEvent(
                type=e.type,
                payload=e.payload,
                actor=e.actor,
                rules_version=e.rules_version,
                schema_version=e.schema_version,
                event_id=e.event_id,
                recorded_at=e.recorded_at,
            )
            for e in batch
        ]
        recorded = store.append(table_id, batch[0].version - 1, new, command_id, batch[0].command)
        for mine, theirs in zip(recorded, batch, strict=True):
            if mine.hash != theirs.hash:
                raise ImportError_(f"version {theirs.version}: the store recomputed another hash")
    return table_id
