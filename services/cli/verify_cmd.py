"""``paiju verify [--store URL]``: audit a whole store, table by table.

    FAILED table sim-harbin-1a2b3c4d: hash chain: BROKEN: version 12 ...
    3 tables, 1 other streams, 4512 events: 1 failed

One line per table (or other stream) that fails, naming it and what failed, then the summary.
Status 0 when everything verifies, 1 when anything failed, 2 for a store that cannot be used.
Nothing is written to the store.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from typing import TextIO

from services.cli.audit import Audit, Failure, audit_store
from services.cli.failures import CHECK_FAILED, Interrupted, command
from services.cli.stores import choose, open_for_reading


def report(store_shown: str, audit: Audit, out: TextIO) -> int:
    print(f"{store_shown}: {audit.summary()}", file=out)
    return 0 if audit.ok else CHECK_FAILED


@command("verify", writes=False)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    choice = choose(args)

    def say(failure: Failure) -> None:
        print(failure.line(), file=out, flush=True)

    try:
        with closing(open_for_reading(choice)) as store:
            audit = audit_store(store, say)
    except KeyboardInterrupt:
        raise Interrupted("paiju verify writes nothing to a store") from None
    return report(choice.shown, audit, out)
