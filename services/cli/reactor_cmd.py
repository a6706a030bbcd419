"""``paiju reactor [--store URL] [--inline] [--lease SECONDS]``: the platform-notification
reactor (``workers.reactor``), configured by ``PAIJU_*``.

It tails the store, writes a webhook delivery for each settled hand, adjudicated penalty and
ended series, and dispatches the due ones to the Celery effects queue (``PAIJU_BROKER_URL``),
where ``paiju worker`` posts them; with ``--inline``, or the in-memory broker no other process
can reach, it posts them itself. It runs until Ctrl-C or SIGTERM; any number may run at once.
Webhook settings: ``PAIJU_WEBHOOK_URL`` and ``PAIJU_WEBHOOK_SECRET`` (required),
``PAIJU_WEBHOOK_MAX_ATTEMPTS``, ``PAIJU_WEBHOOK_BACKOFF_BASE``, ``PAIJU_WEBHOOK_BACKOFF_CAP``,
``PAIJU_WEBHOOK_TIMEOUT``. The first line on stdout says where it reads and posts.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import closing
from typing import TextIO

from services.cli.failures import CliError, command
from services.cli.long_running import run_until_stopped, settings_or_fail
from services.cli.partition_opt import add_partition_argument, partition_of
from services.cli.stores import StoreChoice, open_for_writing


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_partition_argument(parser)
    from services.cli.stores import STORE_HELP

    parser.add_argument("--store", metavar="URL", help=STORE_HELP.replace(
        "default $PAIJU_STORE", "default $PAIJU_STORE_URL, $PAIJU_STORE"))  # fmt: skip
    parser.add_argument(
        "--inline",
        action="store_true",
        help="post from this process instead of dispatching to the Celery effects queue",
    )
    parser.add_argument(
        "--lease",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a dispatched delivery is held before another reactor may post it again"
        " (more than $PAIJU_WEBHOOK_TIMEOUT; default 30)",
    )


def _store_choice(given: str | None, settings_url: str) -> StoreChoice:
    if given is not None:
        return StoreChoice(given, "--store")
    named = next((v for v in ("PAIJU_STORE_URL", "PAIJU_STORE") if v in os.environ), None)
    return StoreChoice(settings_url, f"${named}" if named else "the default")


@command("reactor", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from ops.health_parts import watched
    from workers.logging import configure_logging
    from workers.parts import Parts

    out = out or sys.stdout
    settings = settings_or_fail(args.store)
    if not settings.webhook_url:
        raise CliError("PAIJU_WEBHOOK_URL is not set: there is nowhere to send notifications")
    configure_logging(settings.log_level, settings.log_format)
    posts_here = args.inline or settings.embedded
    partition = partition_of(args, settings)
    choice = _store_choice(args.store, settings.store_url)
    with closing(open_for_writing(choice)) as store:
        try:
            reactor = Parts(settings, store=store).reactor(inline_posts=posts_here,
                                                           lease=args.lease, partition=partition)  # fmt: skip
        except ValueError as error:
            raise CliError(str(error)) from None
        assert reactor is not None
        with closing(reactor.outbox):
            where = f"posting to {settings.webhook_url}" if posts_here else (
                "dispatching to the effects queue")  # fmt: skip
            print(f"paiju reactor: {reactor.name} from position {reactor.position} of"
                  f" {choice.shown}, {where}", file=out, flush=True)  # fmt: skip
            with watched("reactor", settings, reactor, partition):  # heartbeat and /metrics
                run_until_stopped("reactor", reactor.run)
            counts = reactor.counts
            print(f"paiju reactor: stopped at position {reactor.position}; {counts.written}"
                  f" deliveries written, {counts.dispatched} dispatched", file=out)  # fmt: skip
    return 0
