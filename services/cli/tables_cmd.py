"""``paiju tables [--store URL]``: the tables a store holds, one line each.

    TABLE                VARIANT     HANDS  EVENTS  LAST EVENT
    sim-harbin-1a2b3c4d  harbin         10    1523  v1523 hand_settled, 2026-12-01 21:30:02 UTC
    play-tanggu-9f8e7d6c tanggu          1      40  v40 tile_discarded, 2026-12-01 21:31:00 UTC, hand 1 in play

``HANDS`` counts the hands started. The store is read page by page in the order events were
stored, and nothing is written to it.
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
    variant: str = "?"
    hands: int = 0
    in_play: bool = False
    events: int = 0
    last: RecordedEvent | None = None

    def add(self, event: RecordedEvent) -> None:
        self.events += 1
        self.last = event
        if event.type == "table_opened":
            self.variant = str(event.payload.get("variant", "?"))
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
    """Every table of the store, in the order each was first written."""
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
            found = summaries(store)
    except KeyboardInterrupt:
        raise Interrupted("paiju tables writes nothing to a store") from None
    if not found:
        print(f"no tables in {choice.shown}", file=out)
        return 0
    width = max(len("TABLE"), *(len(t.table_id) for t in found))
    print(f"{'TABLE':<{width}}  {'VARIANT':<10}  {'HANDS':>5}  {'EVENTS':>6}  LAST EVENT", file=out)
    for t in found:
        print(
            f"{t.table_id:<{width}}  {t.variant:<10}  {t.hands:>5}  {t.events:>6}  {t.describe_last()}",
            file=out,
        )
    return 0
