"""Export a table's stream as JSON lines, and import one into another store, hashes intact.

An export says what it holds, so that a file cut short is refused rather than imported as a
shorter table (a cut at an event boundary leaves a hash chain that verifies)::

    {"format": "paiju table export", "version": 1, "table": "T"}
    {...one recorded event per line, in stream order...}
    {"end": "paiju table export", "events": N, "head": "<hash of the last event>"}

An import reads and checks the whole file before it appends anything: the header, every event
of that table, the closing line's count and head, the hash chain. It then appends batch by
batch (one batch per recorded command); when it is stopped part way, the store holds a whole
prefix of the table, and importing the same file again adds the rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from events.envelope import NewEvent, RecordedEvent
from events.hashchain import find_break
from events.store.base import EventStore

FORMAT = "paiju table export"
FORMAT_VERSION = 1


class ImportError_(ValueError):
    """The file is not a whole stream this store can take; nothing was imported."""


@dataclass(frozen=True)
class ExportedTable:
    """A whole export, read and checked: its table and every event."""

    table_id: str
    events: tuple[RecordedEvent, ...]

    @property
    def head(self) -> str:
        return self.events[-1].hash


def export_lines(events: Sequence[RecordedEvent]) -> Iterator[str]:
    """The lines of an export of one table's stream (its events from version 1)."""
    if not events:
        return
    yield _line({"format": FORMAT, "version": FORMAT_VERSION, "table": events[0].stream_id})
    for event in events:
        yield _line(event.to_dict())
    yield _line({"end": FORMAT, "events": len(events), "head": events[-1].hash})


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def parse_export(lines: Iterable[bytes | str]) -> ExportedTable:
    """Read an export, or raise ``ImportError_`` naming the first line that is wrong."""
    header: dict[str, Any] | None = None
    closing: dict[str, Any] | None = None
    events: list[RecordedEvent] = []
    last = 0
    for number, raw in enumerate(lines, start=1):
        text = _text(raw, number)
        if not text.strip():
            continue
        last = number
        value = _json_object(text, number)
        if closing is not None:
            raise ImportError_(f"line {number}: more after the closing line")
        if header is None:
            header = _header(value, number)
        elif "end" in value:
            closing = value
        else:
            events.append(_event(value, number, header["table"]))
    if header is None:
        raise ImportError_("the file is empty: not a paiju export")
    if closing is None:
        raise ImportError_(
            f"the file ends at line {last} without its closing line: it was cut short "
            f"({len(events)} events read); export the table again"
        )
    return _whole(header["table"], events, closing)


def _text(raw: bytes | str, number: int) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportError_(
            f"line {number}: not UTF-8 (byte 0x{raw[error.start]:02x} at column {error.start + 1})"
        ) from None


def _json_object(text: str, number: int) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportError_(
            # as json words it ("... starting at: line 1 column 5"): some messages end in "at"
            f"line {number}: not JSON ({error.msg}: column {error.colno})"
        ) from None
    except RecursionError:
        raise ImportError_(f"line {number}: JSON nested too deeply") from None
    if not isinstance(value, dict):
        raise ImportError_(f"line {number}: not a JSON object")
    return value


def _header(value: dict[str, Any], number: int) -> dict[str, Any]:
    if value.get("format") != FORMAT:
        raise ImportError_(
            f"line {number} is not the header of a paiju table export "
            f'({{"format": "{FORMAT}", ...}}); exports from before the header cannot be checked '
            "whole: export the table again"
        )
    if value.get("version") != FORMAT_VERSION:
        raise ImportError_(
            f"line {number}: export format version {value.get('version')!r}; "
            f"this paiju reads version {FORMAT_VERSION}"
        )
    if not isinstance(value.get("table"), str) or not value["table"]:
        raise ImportError_(f"line {number}: the header names no table")
    return value


def _event(value: dict[str, Any], number: int, table_id: str) -> RecordedEvent:
    try:
        event = RecordedEvent.from_dict(value)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ImportError_(f"line {number}: not an exported event ({error!r})") from None
    if event.stream_id != table_id:
        raise ImportError_(
            f"line {number}: an event of table {event.stream_id!r} in the export of {table_id!r}"
        )
    return event


def _whole(table_id: str, events: list[RecordedEvent], closing: dict[str, Any]) -> ExportedTable:
    count, head = closing.get("events"), closing.get("head")
    if closing.get("end") != FORMAT or type(count) is not int or not isinstance(head, str):
        raise ImportError_('the closing line must be {"end", "events", "head"}')
    if count != len(events):
        raise ImportError_(f"the closing line counts {count} events; the file holds {len(events)}")
    if not events:
        raise ImportError_("the file holds no events")
    if events[-1].hash != head:
        raise ImportError_(
            f"the last event's hash {events[-1].hash[:12]}... is not the closing line's head "
            f"{head[:12]}...: the file was cut or edited"
        )
    broken = find_break(events)
    if broken is not None:
        raise ImportError_(f"the file's hash chain is broken: {broken}")
    return ExportedTable(table_id, tuple(events))


@dataclass(frozen=True)
class Imported:
    table_id: str
    added: int  # events appended by this import
    already: int  # events the store held before (a previous, interrupted import)


def import_table(
    store: EventStore,
    table: ExportedTable,
    stored: Callable[[int], None] = lambda version: None,
) -> Imported:
    """Append an export to ``store`` batch by batch, keeping ids, times and hashes.

    A store that already holds a prefix of the table (an import stopped part way) gets the
    rest; one that holds anything else for that table id refuses. ``stored`` is told the
    table's version after each batch, for a caller that must say how far it got.
    """
    events = table.events
    present = store.stream_version(table.table_id)
    if present:
        _check_prefix(store, table, present)
    remaining = [e for e in events if e.version > present]
    for (command_id, _), group in groupby(remaining, key=lambda e: (e.command_id, repr(e.command))):
        batch = list(group)
        recorded = store.append(
            table.table_id,
            batch[0].version - 1,
            [_new_event(e) for e in batch],
            command_id,
            batch[0].command,
        )
        for mine, theirs in zip(recorded, batch, strict=True):
            if mine.hash != theirs.hash:
                raise ImportError_(f"version {theirs.version}: the store recomputed another hash")
        stored(batch[-1].version)
    return Imported(table.table_id, len(remaining), present)


def _check_prefix(store: EventStore, table: ExportedTable, present: int) -> None:
    events = table.events
    if present > len(events):
        raise ImportError_(
            f"table {table.table_id} already exists in this store with {present} events, "
            f"more than the file's {len(events)}"
        )
    mine = store.read_stream(table.table_id, from_version=present)
    if not mine or mine[0].hash != events[present - 1].hash:
        raise ImportError_(
            f"table {table.table_id} already exists in this store with other events "
            f"(version {present} differs from the file's)"
        )
    if present < len(events) and _same_batch(events[present - 1], events[present]):
        raise ImportError_(
            f"table {table.table_id} already exists in this store, cut inside a command's "
            f"events at version {present}"
        )


def _same_batch(a: RecordedEvent, b: RecordedEvent) -> bool:
    return a.command_id is not None and (a.command_id, a.command) == (b.command_id, b.command)


def _new_event(e: RecordedEvent) -> NewEvent:
    return NewEvent(
        type=e.type,
        payload=e.payload,
        actor=e.actor,
        rules_version=e.rules_version,
        schema_version=e.schema_version,
        event_id=e.event_id,
        recorded_at=e.recorded_at,
    )
