"""``paiju health [--store URL] [--part NAME ...] [--json]``: is each part up, and what is wrong.

Looks at the store and the broker itself and reads every part's heartbeat
(``ops.health``), then prints one line a part:

    store: ok
    broker: ok
    worker: ok (2 alive)
    timekeeper: no timekeeper heartbeat for 42 s (0 alive)
    projector: projector points stopped at position 812 (hand_settled of T1 v96): KeyError: 'x' (1 alive)

Status 0 when everything is healthy, 1 when anything is not (a failed check). The parts
checked are the worker, the timekeeper, the projector and, when ``PAIJU_WEBHOOK_URL`` is set,
the reactor; ``--part`` names others. Settings are the workers' (``PAIJU_*``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from services.cli.failures import command
from services.cli.long_running import settings_or_fail
from services.cli.partition_opt import partition_of
from services.cli.stores import STORE_HELP


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ops.health import PARTS

    parser.add_argument("--store", metavar="URL", help=STORE_HELP.replace(
        "default $PAIJU_STORE", "default $PAIJU_STORE_URL, $PAIJU_STORE"))  # fmt: skip
    parser.add_argument("--part", action="append", choices=PARTS, metavar="NAME",
                        help=f"check this part (again for more): {', '.join(PARTS)}")  # fmt: skip
    parser.add_argument("--partition", type=int, metavar="N",
                        help="only the readers of this store (0: the home store; N: a table store"
                        " of $PAIJU_TABLE_STORES): a table store's timekeeper's readiness")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")


@command("health", writes=False)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from ops.health import assess

    out = out or sys.stdout
    settings = settings_or_fail(args.store)
    partition = None if args.partition is None else partition_of(args, settings)
    report = assess(settings, args.part, partition=partition)
    if args.json:
        print(json.dumps(report.as_json(), ensure_ascii=False), file=out)
    else:
        print("\n".join(report.lines()), file=out)
    return 0 if report.healthy else 1
