"""``--partition N``: which partition's log a reader (projector, timekeeper, reactor) follows."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from services.cli.failures import CliError
from services.settings import Settings

HELP = ("the partition whose log this reads: 0, the home store (default), or N, a table store"
        " $PAIJU_TABLE_STORES names; run one reader (or more: they stand by) per partition")  # fmt: skip


def add_partition_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--partition", type=int, default=0, metavar="N", help=HELP)


def partition_of(args: argparse.Namespace, settings: Settings) -> int:
    """The partition asked for, refused by name when the settings have no such store."""
    number = int(getattr(args, "partition", 0))
    known = settings.table_store_urls()
    if number != 0 and number not in known:
        raise no_such_store(number, known)
    return number


def no_such_store(number: int, known: Iterable[int]) -> CliError:
    """The refusal of a ``--partition`` the settings name no table store for."""
    named = ", ".join(map(str, sorted(known))) or "none"
    return CliError(f"--partition {number}: $PAIJU_TABLE_STORES names no table store {number}"
                    f" (table stores: {named}; 0 is the home store)")  # fmt: skip
