"""``paiju tables [--store URL]``: the tables a store holds, one line each.

    TABLE                VARIANT     HANDS  EVENTS  LAST EVENT
    sim-harbin-1a2b3c4d  harbin         10    1523  v1523 hand_settled, 2026-12-01 21:30:02 UTC
    play-tanggu-9f8e7d6c tanggu          1      40  v40 tile_discarded, 2026-12-01 21:31:00 UTC, hand 1 in play

    (and 12 other streams: players' accounts and rooms, not tables)

``HANDS`` counts the hands started. A table is a stream that opens with ``table_opened``; the
platform's other streams (``player:…``, ``room:…``) are counted, not listed. The store is read
page by page in the order events were stored, and nothing is written to it.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from dataclasses import dataclass
from typing import TextIO

from events.envelope import RecordedEvent
from events.store.base import EventStore
from services.cli.failures import Interrupted, command
from services.cli.stores import choose, open_for_reading

PAGE = 1000


@dataclass
class TableSummary:
    table_id: str
    variant: str | None = None  # from table_opened: None for a stream that is not a table
    hands: int = 0
    in_play: bool = False
    events: int = 0
    last: RecordedEvent | None = None

    def add(self, event: RecordedEvent) -> None:
        self.events += 1
        self.last = event
        if event.type == "table_opened":
            self.variant = str(event.payload.get("variant", "?"))  # "?": a payload without one
        elif event.type == "hand_started":
            self.hands += 1
            self.in_play = True
        elif event.type == "hand_settled":
            self.in_play = False

    def describe_last(self) -> str:
        last = self.last
        if last is None:
            return ""
        text = f"v{last.version} {last.type}, {last.recorded_at:%Y-%m-%d %H:%M:%S} UTC"
        return text + (f", hand {self.hands} in play" if self.in_play else "")


def summaries(store: EventStore) -> list[TableSummary]:
    """Every stream of the store, in the order each was first written (``variant`` None: not
    a table)."""
    tables: dict[str, TableSummary] = {}
    position = 0
    # positions strictly increase, so each page starts past the last: the loop ends with the log
    while page := store.read_all(from_position=position, limit=PAGE):
        for event in page:
            tables.setdefault(event.stream_id, TableSummary(event.stream_id)).add(event)
        position = page[-1].position + 1
    return list(tables.values())


@command("tables", writes=False)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    choice = choose(args)
    try:
        with closing(open_for_reading(choice)) as store:
            streams = summaries(store)
    except KeyboardInterrupt:
        raise Interrupted("paiju tables writes nothing to a store") from None
    found = [s for s in streams if s.variant is not None]
    others = len(streams) - len(found)
    if not found:
        print(" ".join(filter(None, (f"no tables in {choice.shown}", _others(others)))), file=out)
        return 0
    width = max(len("TABLE"), *(len(t.table_id) for t in found))
    print(f"{'TABLE':<{width}}  {'VARIANT':<10}  {'HANDS':>5}  {'EVENTS':>6}  LAST EVENT", file=out)
    for t in found:
        print(
            f"{t.table_id:<{width}}  {t.variant:<10}  {t.hands:>5}  {t.events:>6}  {t.describe_last()}",
            file=out,
        )
    if others:
        print(_others(others), file=out)
    return 0


def _others(count: int) -> str:
    """The streams left out: the platform's players' accounts and rooms."""
    return f"(and {count} other stream(s): players' accounts and rooms, not tables)" if count else ""
