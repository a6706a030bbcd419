"""``paiju reactor [--store URL] [--inline]``: run the platform-notification reactor.

It tails the store, writes a webhook delivery for each settled hand, adjudicated penalty and
ended series, and dispatches the due ones: to the Celery effects queue, or with ``--inline``
posted from this process. It runs until Ctrl-C or SIGTERM; any number may run at once
(``workers.reactor.runner``). Webhook settings come from the environment:
``PAIJU_WEBHOOK_URL`` and ``PAIJU_WEBHOOK_SECRET`` (required), ``PAIJU_WEBHOOK_MAX_ATTEMPTS``,
``PAIJU_WEBHOOK_BACKOFF_BASE``, ``PAIJU_WEBHOOK_BACKOFF_CAP``, ``PAIJU_WEBHOOK_TIMEOUT``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from contextlib import closing
from typing import TYPE_CHECKING, TextIO

from services.cli.failures import CliError, command
from services.cli.stores import choose, open_for_writing

if TYPE_CHECKING:
    from workers.effects.delivery import WebhookConfig

ENV = {
    "url": "PAIJU_WEBHOOK_URL",
    "secret": "PAIJU_WEBHOOK_SECRET",
    "max_attempts": "PAIJU_WEBHOOK_MAX_ATTEMPTS",
    "backoff_base": "PAIJU_WEBHOOK_BACKOFF_BASE",
    "backoff_cap": "PAIJU_WEBHOOK_BACKOFF_CAP",
    "timeout": "PAIJU_WEBHOOK_TIMEOUT",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from services.cli.stores import add_store_argument

    add_store_argument(parser)
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
        " (more than the post's timeout; default 30)",
    )


def config_from_env() -> WebhookConfig:
    """The webhook settings from ``PAIJU_WEBHOOK_*``; a missing or bad one is one line."""
    from workers.effects.delivery import WebhookConfig

    values: dict[str, object] = {}
    for field, name in ENV.items():
        text = os.environ.get(name)
        if text is None or text == "":
            if field in ("url", "secret"):
                raise CliError(f"${name} is not set: the reactor needs a webhook {field}")
            continue
        try:
            values[field] = int(text) if field == "max_attempts" else (
                float(text) if field not in ("url", "secret") else text
            )
        except ValueError:
            raise CliError(f"${name}={text!r} is not a number") from None
    try:
        return WebhookConfig(**values)  # type: ignore[arg-type]
    except ValueError as error:
        raise CliError(str(error)) from None


@command("reactor", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from workers.effects.outbox import open_outbox
    from workers.reactor.runner import Reactor, inline

    out = out or sys.stdout
    config = config_from_env()
    if not config.timeout < args.lease:
        raise CliError(f"--lease {args.lease:g} must be longer than the post's timeout"
                       f" ({config.timeout:g} s)")  # fmt: skip
    if not args.inline:
        raise CliError("dispatch to Celery needs workers.app; run with --inline for now")
    choice = choose(args)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with closing(open_for_writing(choice)) as store, closing(open_outbox(choice.url.strip())) as outbox:
        reactor = Reactor(store, outbox, inline(outbox, config), lease_seconds=args.lease)
        print(f"paiju reactor: {reactor.name} from position {reactor.position} of"
              f" {choice.shown}, posting to {config.url}", file=out, flush=True)  # fmt: skip
        thread = reactor.start(stop)
        try:
            while thread.is_alive():
                thread.join(timeout=0.5)
        except KeyboardInterrupt:
            stop.set()
            thread.join(timeout=10)
        counts = reactor.counts
        print(f"paiju reactor: stopped at position {reactor.position}; {counts.written}"
              f" deliveries written, {counts.dispatched} dispatched", file=out)  # fmt: skip
    return 0
