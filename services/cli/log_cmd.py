"""``paiju replay``, ``paiju export`` and ``paiju import``: a table's log for support staff.

    paiju replay TABLE [--hand N] [--head [VERSION:]HASH] [--store URL]   # move by move, then checks
    paiju export TABLE [--store URL] > table.jsonl
    paiju import table.jsonl [--store URL]

The store is ``--store``, else ``$PAIJU_STORE``, else the SQLite file ``paiju.sqlite3``
(``services.cli.stores``). ``replay`` and ``export`` only read; ``import`` checks the whole
file before it writes (``services.tables.transfer``).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from pathlib import Path
from typing import TextIO

from events.envelope import RecordedEvent
from events.hashchain import parse_head
from events.registry import RegistryError
from events.store.base import CorruptRowError, SeedError
from services.cli.failures import CHECK_FAILED, CliError, Interrupted, command
from services.cli.play_cmd import Narrator
from services.cli.progress import StatusLine
from services.cli.stores import StoreChoice, choose, open_for_reading, open_for_writing
from services.rules.table import TableState
from services.tables.codec import decode
from services.tables.loader import SealedSeedError, revealed_seeds, with_seed
from services.tables.transfer import (
    ExportedTable,
    ImportError_,
    export_lines,
    import_table,
    parse_export,
)
from services.tables.verify import verify_table


def _read_table(choice: StoreChoice, table_id: str) -> list[RecordedEvent]:
    with closing(open_for_reading(choice)) as store:
        events = store.read_stream(table_id)
    if not events:
        raise CliError(f"no table {table_id!r} in {choice.shown} (paiju tables lists them)")
    return events


@command("replay", writes=False)
def replay_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    try:
        head = parse_head(args.head) if getattr(args, "head", None) else None
    except ValueError as error:
        raise CliError(f"--head: {error}") from None
    choice = choose(args)
    with closing(open_for_reading(choice)) as store:
        try:
            events = store.read_stream(args.table)
        except CorruptRowError as error:  # a row that is not an event: a failed check
            raise CliError(str(error), CHECK_FAILED) from None
        if not events:
            raise CliError(f"no table {args.table!r} in {choice.shown} (paiju tables lists them)")
        _check_hand(args.table, events, args.hand)
        narrator = _QuietNarrator(TableState(), out, args.hand)
        revealed = revealed_seeds(events)
        for recorded in events:
            try:
                narrator.tell(with_seed(store, args.table, decode(recorded), revealed))
            except SealedSeedError as error:
                if isinstance(error.__cause__, SeedError):  # not here: not a failed check
                    raise CliError(_seed_elsewhere(recorded, choice)) from None
                raise CliError(str(error), CHECK_FAILED) from None
            except (
                ValueError,
                KeyError,
                AssertionError,
                IndexError,
                TypeError,
                RegistryError,
            ) as error:
                # a tampered stream: the checks below name what is wrong
                print(
                    f"cannot apply version {recorded.version} ({recorded.type}): {error}", file=out
                )
                break
    sealed = {}
    table = narrator.table
    if table.hand is not None and table.hand.seed is not None and not table.hand_over:
        sealed[table.hand.number] = table.hand.seed  # operators may check a hand in play
    report = verify_table(events, sealed, head)
    print("-- checks --", file=out)
    for line in report.lines():
        print(line, file=out)
    return 0 if report.ok else CHECK_FAILED


def _seed_elsewhere(recorded: RecordedEvent, choice: StoreChoice) -> str:
    hand = recorded.payload.get("hand_number")
    return (
        f"hand {hand} is in play, and its seed is sealed in the store it is played in, not in "
        f"{choice.shown} (an export carries no sealed seed): replay it there, or once it ends"
    )


def _check_hand(table_id: str, events: list[RecordedEvent], hand: int | None) -> None:
    """``--hand N`` names a hand the table has played or is playing."""
    if hand is None:
        return
    hands = sum(e.type == "hand_started" for e in events)
    if hands == 0:
        raise CliError(f"--hand {hand}: table {table_id!r} has not started a hand yet")
    if not 1 <= hand <= hands:
        which = "hand 1" if hands == 1 else f"hands 1 to {hands}"
        raise CliError(f"--hand {hand}: table {table_id!r} has {which}")


class _QuietNarrator(Narrator):
    """Tells only the chosen hand (all hands when none is chosen), folding every event."""

    def __init__(self, table: TableState, out: TextIO, hand: int | None) -> None:
        super().__init__(table, out)
        self.only = hand

    def say(self, line: str) -> None:
        hand = self.table.hand
        if self.only is None or (hand is not None and hand.number == self.only):
            super().say(line)


@command("export", writes=False)
def export_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    events = _read_table(choose(args), args.table)
    _warn_hand_in_play(events)
    total = len(events) + 2
    written = 0
    try:
        for line in export_lines(events):
            out.write(line + "\n")
            written += 1
    except KeyboardInterrupt:
        raise Interrupted(
            f"the export stopped after {written} of its {total} lines; without its closing "
            "line paiju import refuses what was written"
        ) from None
    return 0


def _warn_hand_in_play(events: list[RecordedEvent]) -> None:
    """A hand in play deals from a seed sealed in this store, which an export does not carry."""
    started = [e for e in events if e.type == "hand_started"]
    settled = sum(e.type == "hand_settled" for e in events)
    if len(started) > settled and started[-1].payload.get("seed") is None:
        hand = started[-1].payload.get("hand_number")
        print(
            f"paiju export: note: hand {hand} is in play; its seed stays sealed in this store, "
            f"so replay elsewhere stops at hand {hand}",
            file=sys.stderr,
        )


@command("import", writes=True)
def import_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    table = _read_export(args.file)  # the whole file is checked before the store is touched
    choice = choose(args)
    line = StatusLine.on_stderr()

    def stored(version: int) -> None:
        line.draw(f"paiju import: {version}/{len(table.events)} events of {table.table_id}")

    try:
        with closing(open_for_writing(choice)) as store:
            try:
                done = import_table(store, table, stored)
            except KeyboardInterrupt:
                # asked of the store: Ctrl-C may come after a batch committed, before it returned
                held = store.stream_version(table.table_id)
                raise Interrupted(_partly_imported(table, held, choice)) from None
    except ImportError_ as error:
        raise CliError(str(error)) from None
    finally:
        line.clear()
    if done.added == 0:
        print(f"table {done.table_id} was already imported whole: {done.already} events", file=out)
    elif done.already:
        print(
            f"imported table {done.table_id}: {done.added} events added to the "
            f"{done.already} a previous import had stored",
            file=out,
        )
    else:
        print(f"imported table {done.table_id}: {done.added} events", file=out)
    return 0


def _partly_imported(table: ExportedTable, version: int, choice: StoreChoice) -> str:
    if version == 0:
        return f"nothing of table {table.table_id} was stored"
    return (
        f"table {table.table_id} holds its first {version} of {len(table.events)} events in "
        f"{choice.shown}; run the same import again to add the rest"
    )


def _read_export(file: str) -> ExportedTable:
    try:
        if file == "-":
            return parse_export(sys.stdin.buffer)
        with Path(file).open("rb") as source:
            return parse_export(source)
    except ImportError_ as error:
        raise CliError(
            f"{'stdin' if file == '-' else file}: {error}; nothing was imported"
        ) from None
    except OSError as error:
        raise CliError(f"cannot read {file}: {error.strerror}") from None
