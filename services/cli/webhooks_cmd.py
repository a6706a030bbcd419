"""``paiju webhooks list [--set-aside]`` and ``paiju webhooks resend KEY``: the outbox of
platform notifications, for operators.

    KEY               STATUS     ATTEMPTS  EVENT                TABLE   LAST
    paiju-event-70    delivered         1  hand_settled         t1      HTTP 200
    paiju-event-72    set_aside         8  series_ended         t1      HTTP 503 Service Unavailable

``resend`` makes a delivery pending again, due now, with its attempts counted afresh: the
running reactor (``paiju reactor``, or ``paiju serve``) posts it, with the same key, so a
platform that already has it dedupes it.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from typing import TextIO

from services.cli.failures import CliError, command
from services.cli.stores import choose, open_for_reading
from workers.effects.outbox import Delivery, UnknownDelivery
from workers.effects.outbox_open import open_outbox

HEADER = f"{'KEY':<18}{'STATUS':<11}{'ATTEMPTS':>8}  {'EVENT':<21}{'TABLE':<20}LAST"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from services.cli.stores import add_store_argument

    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the deliveries, oldest first")
    listing.add_argument(
        "--set-aside", action="store_true", help="only those set aside after their last attempt"
    )
    listing.add_argument("--limit", type=int, default=1000, metavar="N", help="at most N lines")
    add_store_argument(listing)
    resend = actions.add_parser("resend", help="make a delivery pending again, due now")
    resend.add_argument("key", help="its idempotency key (paiju webhooks list shows them)")
    add_store_argument(resend)


def describe(d: Delivery) -> str:
    last = d.last_error or (f"HTTP {d.last_status}" if d.last_status else "")
    if d.status == "pending":
        last = f"{last}; next {d.next_attempt_at:%Y-%m-%d %H:%M:%S} UTC".lstrip("; ")
    return f"{d.key:<18}{d.status:<11}{d.attempts:>8}  {d.event_type:<21}{d.stream_id:<20}{last}"


@command("webhooks", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    choice = choose(args)
    with closing(open_for_reading(choice)), closing(open_outbox(choice.url.strip())) as outbox:
        if args.action == "list":
            if args.limit < 1:
                raise CliError(f"--limit must be at least 1, not {args.limit}")
            rows = outbox.deliveries("set_aside" if args.set_aside else None, args.limit)
            print(HEADER, file=out)
            for row in rows:
                print(describe(row), file=out)
            return 0
        try:
            row = outbox.resend(args.key)
        except UnknownDelivery as error:
            raise CliError(str(error)) from None
        print(f"{row.key}: pending again, due now; the running reactor posts it", file=out)
        return 0
