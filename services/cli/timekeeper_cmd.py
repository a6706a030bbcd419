"""``paiju timekeeper [--via inline|queue]``: fire the tables' turn timers from the store.

The timers are rows the appends write (``events.store.timers``); this loop claims the due ones
with a lease and gives each table its timeout. ``inline`` (the default) runs the timeout in
this process through the same command path as a worker (``run_command``, outcome recorded);
``queue`` sends it to the commands queue instead (needs ``PAIJU_BROKER_URL``). Any number may
run at once. Settings: ``PAIJU_STORE_URL`` (or ``PAIJU_STORE``), ``PAIJU_BROKER_URL``.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import TextIO

from services.cli.failures import CliError, command
from services.cli.long_running import run_until_stopped, settings_or_fail, shown
from services.cli.partition_opt import add_partition_argument, partition_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_partition_argument(parser)
    parser.add_argument(
        "--via",
        choices=("inline", "queue"),
        default="inline",
        help="run each timeout here (inline, the default) or send it to the commands queue",
    )
    parser.add_argument(
        "--lease",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long a claimed timer is held before another timekeeper may fire it (10)",
    )


@command("timekeeper", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from ops.health_parts import watched
    from workers.logging import configure_logging
    from workers.parts import Parts
    from workers.resender import start_resender

    out = out or sys.stdout
    settings = settings_or_fail()
    if not 1 <= args.lease <= 3600:
        raise CliError(f"--lease must be 1-3600 seconds, not {args.lease:g}")
    configure_logging(settings.log_level, settings.log_format)
    if args.via == "queue" and settings.embedded:
        raise CliError("--via queue needs PAIJU_BROKER_URL=redis://...: memory:// is per process")
    partition = partition_of(args, settings)
    parts = Parts(settings)
    store = parts.store()
    keeper = parts.timekeeper(via_queue=args.via == "queue", lease=args.lease, partition=partition)
    # the resender reads every table store's unanswered requests: the home's timekeepers run it
    app = None if settings.embedded or partition else parts.app

    def run(stop: threading.Event) -> None:
        if app is not None:  # beside the timers, what the API kept: every 202 ends answered
            start_resender(store, app, stop)
        keeper.run(stop)

    print(f"paiju timekeeper: firing {args.via} from {shown(settings.store_url)}", file=out,
          flush=True)  # fmt: skip
    try:
        with watched("timekeeper", settings, keeper, partition):  # heartbeat and /metrics
            run_until_stopped("timekeeper", run)
    finally:
        parts.close()
    print(f"paiju timekeeper: stopped; {keeper.fired} timers fired", file=out)
    return 0
