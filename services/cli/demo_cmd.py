"""``paiju demo [--url URL] [--key KEY] [--tables N] [--hands N] [--for SECONDS]``: bot players
over HTTP, exactly as a platform would play them.

The key is a platform API key with the ``tables`` and ``tokens`` scopes (``paiju keys create
--scopes tables,tokens``; with ``operator`` too, the demo dissolves its tables' hands in play
when it stops, else it closes them after those hands), from ``--key`` or ``PAIJU_API_KEY``; the API is ``--url`` or
``PAIJU_API_URL`` (default http://127.0.0.1:8080). Its bots are seated through rooms, one per
variant, as a platform seats its players (``services/demo/seating.py``). It prints a line per event of each table as
its first seat sees it, and where to watch the idle seat's stream.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, TextIO

from services.cli.failures import CliError, command

if TYPE_CHECKING:
    from services.demo.http_demo import Tally

DEFAULT_URL = "http://127.0.0.1:8080"


def _positive(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"{text!r}: give a count from 1 to 1000")
    return int(text)


def _seconds(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: give whole seconds from 1 to 3600")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", help=f"the API (default $PAIJU_API_URL, {DEFAULT_URL})")
    parser.add_argument("--key", help="a platform API key: tables,tokens (default $PAIJU_API_KEY)")
    parser.add_argument("--tables", type=_positive, default=3, help="tables played (default 3)")
    parser.add_argument("--hands", type=_positive, help="hands per table, then stop (default: no end)")
    parser.add_argument("--for", dest="seconds", type=float, metavar="SECONDS",
                        help="stop after this long (default: until Ctrl-C or the hands are played)")  # fmt: skip
    parser.add_argument("--pace", type=float, default=0.3, metavar="SECONDS",
                        help="each bot's thinking time before a move (default 0.3)")  # fmt: skip
    parser.add_argument("--jitter", type=float, default=0.0, metavar="SECONDS",
                        help="give or take this many seconds on each thought (default 0)")  # fmt: skip
    parser.add_argument("--prefix", default="demo", help="rooms are PREFIX-VARIANT (default demo: demo-harbin, ...), their tables ROOM.1, ROOM.2, ...")
    parser.add_argument("--no-idle", action="store_true",
                        help="every seat plays (default: seat 3 of the first table is left to the timers)")  # fmt: skip
    parser.add_argument("--turn", type=_seconds, help="turn seconds of the rooms' new tables (default 5)")
    parser.add_argument("--claim", type=_seconds, help="claim seconds of the rooms' new tables (default 3)")


@command("demo", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from services.demo.http_demo import HttpDemo, Plan
    from services.demo.seating import DemoRefused

    out = out or sys.stdout
    key = args.key or os.environ.get("PAIJU_API_KEY")
    if not key:
        raise CliError("give a platform API key (--key or PAIJU_API_KEY): paiju keys create --scopes tables,tokens")
    if not 0 <= args.pace <= 10:
        raise CliError(f"--pace must be 0-10 seconds, not {args.pace:g}")
    if not 0 <= args.jitter <= args.pace:
        raise CliError(f"--jitter must be 0 to --pace ({args.pace:g}) seconds, not {args.jitter:g}")
    if args.seconds is not None and not 0 < args.seconds <= 86400:
        raise CliError(f"--for must be 0-86400 seconds, not {args.seconds:g}")
    url = (args.url or os.environ.get("PAIJU_API_URL") or DEFAULT_URL).rstrip("/")
    plan = Plan(tables=args.tables, hands=args.hands, seconds=args.seconds, pace=args.pace, jitter=args.jitter,
                prefix=args.prefix, idle_seat=None if args.no_idle else 3,
                timing=timing(args.turn, args.claim), close_at_end=True)  # fmt: skip
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(f"paiju demo: {args.tables} table(s) on {url}; Ctrl-C stops", file=out, flush=True)
    try:
        tally = asyncio.run(HttpDemo(url, key, plan, out).run(stop))
    except DemoRefused as error:
        raise CliError(str(error)) from None
    except KeyboardInterrupt:
        raise CliError("interrupted (Ctrl-C); every command sent was the API's to record") from None
    print(summary(tally), file=out)
    return 0


def timing(turn: int | None, claim: int | None, base: dict[str, int] | None = None) -> dict[str, int]:
    from services.demo.http_demo import TIMING

    chosen = {**TIMING, **(base or {})}
    chosen |= {k: v for k, v in (("turn", turn), ("claim", claim)) if v is not None}
    return chosen


def summary(tally: Tally) -> str:
    hands = sum(tally.hands.values())
    return (f"paiju demo: {hands} hand(s) settled; {tally.sent} moves sent, {tally.accepted}"
            f" accepted, {tally.refused} refused (the table had moved on)")  # fmt: skip
