"""``paiju replay``, ``paiju export`` and ``paiju import``: a table's log for support staff.

    paiju replay TABLE [--hand N] [--head [VERSION:]HASH] [--store URL]   # move by move, then checks
    paiju export TABLE [--store URL] > table.jsonl
    paiju import table.jsonl [--store URL]

The store defaults to ``$PAIJU_STORE`` or the embedded SQLite file ``paiju.sqlite3``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from events.hashchain import parse_head
from events.store import open_store
from events.store.base import CorruptRowError
from services.cli.play_cmd import Narrator
from services.rules.table import TableState
from services.tables.codec import decode
from services.tables.loader import SealedSeedError, revealed_seeds, with_seed
from services.tables.transfer import ImportError_, export_lines, import_events, parse_lines
from services.tables.verify import verify_table

DEFAULT_STORE = "sqlite:///paiju.sqlite3"


def store_url(args: argparse.Namespace) -> str:
    return str(args.store or os.environ.get("PAIJU_STORE") or DEFAULT_STORE)


def add_store_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", help="event store URL (sqlite:///file or postgresql://...)")


def replay_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        head = parse_head(args.head) if getattr(args, "head", None) else None
    except ValueError as error:
        print(f"paiju replay: --head: {error}", file=sys.stderr)
        return 2
    store = open_store(store_url(args))
    try:
        try:
            events = store.read_stream(args.table)
        except CorruptRowError as error:  # a row that is not an event: a failed check
            print(f"paiju replay: {error}", file=sys.stderr)
            return 1
        if not events:
            print(f"paiju replay: no table {args.table!r} in {store_url(args)}", file=sys.stderr)
            return 2
        narrator = _QuietNarrator(TableState(), out, args.hand)
        revealed = revealed_seeds(events)
        for recorded in events:
            try:
                narrator.tell(with_seed(store, args.table, decode(recorded), revealed))
            except SealedSeedError as error:
                print(f"paiju replay: {error}", file=sys.stderr)
                return 1
            except (ValueError, KeyError, AssertionError, IndexError, TypeError) as error:
                # a tampered stream: the checks below name what is wrong
                print(
                    f"cannot apply version {recorded.version} ({recorded.type}): {error}", file=out
                )
                break
        sealed = {}
        if (
            narrator.table.hand is not None
            and narrator.table.hand.seed is not None
            and not narrator.table.hand_over
        ):
            sealed[narrator.table.hand.number] = (
                narrator.table.hand.seed
            )  # operators may check a hand in play
        report = verify_table(events, sealed, head)
        print("-- checks --", file=out)
        for line in report.lines():
            print(line, file=out)
        return 0 if report.ok else 1
    finally:
        store.close()


class _QuietNarrator(Narrator):
    """Tells only the chosen hand (all hands when none is chosen), folding every event."""

    def __init__(self, table: TableState, out: TextIO, hand: int | None) -> None:
        super().__init__(table, out)
        self.only = hand

    def say(self, line: str) -> None:
        hand = self.table.hand
        if self.only is None or (hand is not None and hand.number == self.only):
            super().say(line)


def export_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    store = open_store(store_url(args))
    try:
        lines = list(export_lines(store, args.table))
        if not lines:
            print(f"paiju export: no table {args.table!r} in {store_url(args)}", file=sys.stderr)
            return 2
        for line in lines:
            print(line, file=out)
        return 0
    finally:
        store.close()


def import_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    store = open_store(store_url(args))
    try:
        with sys.stdin if args.file == "-" else open(args.file, encoding="utf-8") as source:
            events = parse_lines(source)
        table_id = import_events(store, events)
    except (ImportError_, OSError) as error:
        print(f"paiju import: {error}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(f"imported table {table_id}: {len(events)} events", file=out)
    return 0
