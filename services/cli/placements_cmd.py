"""``paiju placements [list|repair]``: where the tables of a deployment live.

``list`` counts the tables placed in each table store (``$PAIJU_TABLE_STORES``) and the tables
each store holds. ``repair`` records, for every table a table store holds and the home store
has no placement of (the home store restored from a backup older than a table store's), the
store it is in: its commands are then routed there again. A table found in two stores, or
placed in one but held in another, is named and left alone (status 1): an operator decides.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from contextlib import closing
from typing import TextIO

from services.cli.failures import CliError, command
from services.cli.long_running import settings_or_fail
from services.tables.partitions import is_home_stream

PAGE = 1000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=("list", "repair"), default="list",
                        help="list (default): tables by store; repair: record missing placements")  # fmt: skip


def held_tables(store: object) -> set[str]:
    """The ids of the tables a store holds events of (every stream not a room's or a player's)."""
    found: set[str] = set()
    position = 0
    while page := store.read_all(position + 1, PAGE):  # type: ignore[attr-defined]
        found.update(e.stream_id for e in page if not is_home_stream(e.stream_id))
        position = page[-1].position
    return found


@command("placements", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from workers.parts import Parts

    out = out or sys.stdout
    settings = settings_or_fail()
    if not settings.table_store_urls():
        raise CliError("$PAIJU_TABLE_STORES names no table store: every table is in the home store")
    with closing(Parts(settings)) as parts:
        partitions = parts.partitions()
        held = {n: held_tables(store) for n, store in partitions.tables.items()}
        where: dict[str, list[int]] = defaultdict(list)
        for number, tables in held.items():
            for table in tables:
                where[table].append(number)
        placed = {t: partitions.home.placement_of(t) for t in where}  # type: ignore[attr-defined]
        counts = partitions.home.placements()  # type: ignore[attr-defined]
        for number in sorted(held):
            print(f"table store {number}: {counts.get(number, 0)} tables placed,"
                  f" {len(held[number])} held", file=out)  # fmt: skip
        wrong = sorted(f"{t}: held in {', '.join(map(str, n))}, placed in {placed[t]}"
                       for t, n in where.items()
                       if len(n) > 1 or (placed[t] is not None and placed[t] != n[0]))  # fmt: skip
        missing = sorted(t for t, n in where.items() if placed[t] is None and len(n) == 1)
        if args.action == "repair":
            for table in missing:
                partitions.home.place_table(table, where[table][0])  # type: ignore[attr-defined]
                print(f"{table}: placed in table store {where[table][0]}, where its events are", file=out)
        elif missing:
            print(f"{len(missing)} tables held with no placement (paiju placements repair):"
                  f" {', '.join(missing[:20])}", file=out)  # fmt: skip
        for line in wrong:
            print(f"left alone: {line}", file=out)
    return 1 if wrong or (missing and args.action == "list") else 0
