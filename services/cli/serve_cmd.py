"""``paiju serve [--port N] [--demo [--tables N]]``: the whole service from one command.

On the embedded default (no ``PAIJU_BROKER_URL``): one process, nothing to install (SQLite
store ``PAIJU_STORE_URL``, default ``paiju.sqlite3``; Celery's in-memory transport with a
worker thread; the timekeeper, the projector (the read models) and, with
``PAIJU_WEBHOOK_URL``, the reactor as threads). With ``PAIJU_BROKER_URL=redis://...`` and a
PostgreSQL store, the same parts as processes, any number of each (``--apis``, ``--workers``,
``--timekeepers``, ``--projectors``, ``--reactors``). ``--demo`` adds ``paiju demo``'s bot
players over the API at a few tables, one seat of which never moves (the timers play it by
托管), printed live, with where to watch.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, TextIO

from services.cli.failures import CliError, command
from services.cli.long_running import settings_or_fail, shown

if TYPE_CHECKING:
    from services.settings import Settings


def _count(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 32:
        raise argparse.ArgumentTypeError(f"{text!r}: give a count from 0 to 32")
    return int(text)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: give a port from 0 to 65535 (0: any free one)")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="the API's listen address (default $PAIJU_API_HOST, 127.0.0.1)")
    parser.add_argument(
        "--port", type=_port, metavar="N",
        help="the API's port (default $PAIJU_API_PORT, 8080; embedded: any free one if it is"
             " taken, printed; distributed: the API processes on N, N+1, ...; 0: any free one)",
    )  # fmt: skip
    parser.add_argument("--demo", action="store_true", help="bots play a few tables, printed live")
    parser.add_argument("--tables", type=_count, default=3, help="demo tables (default 3)")
    parser.add_argument(
        "--pace", type=float, default=0.3, metavar="SECONDS",
        help="the demo's wait between rounds of moves (default 0.3, so people can follow)",
    )  # fmt: skip
    parser.add_argument("--hands", type=int, metavar="N",
                        help="the demo's hands per table (default: until stopped)")  # fmt: skip
    parser.add_argument("--apis", type=_count, default=1, help="API processes (distributed)")
    parser.add_argument("--workers", type=_count, default=2, help="worker processes (distributed)")
    parser.add_argument("--timekeepers", type=_count, default=1, help="timekeepers (distributed)")
    parser.add_argument("--reactors", type=_count, default=1, help="reactors (distributed)")
    parser.add_argument("--projectors", type=_count, default=1,
                        help="projectors (distributed; more stand by)")  # fmt: skip
    parser.add_argument(
        "--for", dest="seconds", type=float, metavar="SECONDS",
        help="stop after this long (default: until Ctrl-C or SIGTERM)",
    )  # fmt: skip


@command("serve", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from workers.logging import configure_logging

    out = out or sys.stdout
    chosen = (("api_host", args.host), ("api_port", args.port))
    settings = settings_or_fail(**{k: v for k, v in chosen if v is not None})
    quiet = "PAIJU_LOG_LEVEL" not in os.environ and args.demo  # the demo's lines stay readable
    configure_logging("WARNING" if quiet else settings.log_level, settings.log_format)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    webhook = settings.webhook_url is not None
    if not 0 <= args.pace <= 10:
        raise CliError(f"--pace must be 0-10 seconds, not {args.pace:g}")
    if args.hands is not None and not 1 <= args.hands <= 1000:
        raise CliError(f"--hands must be 1-1000, not {args.hands}")
    if args.demo and not settings.embedded and args.apis == 0:
        raise CliError("--demo plays over the API: give --apis 1 or more")
    if settings.embedded:
        return _embedded(args, settings, stop, out, webhook)
    return _distributed(args, settings, stop, out, webhook)


def _embedded(args: argparse.Namespace, settings: Settings, stop: threading.Event, out: TextIO,
              webhook: bool) -> int:  # fmt: skip
    from services.serve import Embedded

    if not str(settings.store_url).startswith("sqlite"):
        print("paiju serve: the in-memory broker with a PostgreSQL store: one process",
              file=out)  # fmt: skip
    service = Embedded(
        settings,
        out=out,
        demo_tables=args.tables if args.demo else 0,
        demo_pace=args.pace,
        demo_hands=args.hands,
    )
    service.start()
    api = f"; {where(service.api.address)}" if service.api is not None else ""
    print(
        f"paiju serve: embedded, store {shown(settings.store_url)} (worker, timekeeper, projector"
        f"{', reactor' if webhook else ''} in this process){api}; Ctrl-C stops",
        file=out,
        flush=True,
    )
    if service.api is not None:
        from services.api.dashboard_session import where_to_watch

        print(f"paiju serve: {where_to_watch(service.api.ctx, service.api.address, args.demo)}",
              file=out, flush=True)  # fmt: skip
    try:
        _wait(stop, args.seconds)
    finally:
        service.close()
        print("paiju serve: stopped", file=out)
    return 0


def _distributed(args: argparse.Namespace, settings: Settings, stop: threading.Event,
                 out: TextIO, webhook: bool) -> int:  # fmt: skip
    from services.serve import api_ports, parts, shared_env, supervise

    ports = api_ports(settings.api_host, settings.api_port, args.apis)
    group = parts(args.workers, args.timekeepers, args.reactors, webhook, args.projectors, ports,
                  partitions=sorted(settings.table_store_urls()))  # fmt: skip
    print(f"paiju serve: {', '.join(p.name for p in group)} as processes", file=out, flush=True)
    addresses = [f"http://{_client_host(settings.api_host)}:{port}" for port in ports]
    for n, address in enumerate(addresses):
        print(f"paiju serve: api-{n}: {where(address)}", file=out, flush=True)
    env = shared_env(os.environ)  # one token secret for all the API processes
    parts_stop = threading.Event()  # set once the demo has ended its tables through the parts
    supervisor = threading.Thread(target=supervise, args=(group, parts_stop), kwargs={"env": env},
                                  daemon=True)  # fmt: skip
    supervisor.start()
    demo = None
    if args.demo:
        demo = _distributed_demo(settings, addresses[0], args, stop, out)
    try:
        _wait(stop, args.seconds)
    finally:
        stop.set()
        if demo is not None:
            demo.join(30)
        parts_stop.set()
        supervisor.join(30)
    return 0


def where(address: str) -> str:
    return f"API on {address} (OpenAPI docs: {address}/docs)"


def _client_host(host: str) -> str:
    return "127.0.0.1" if host in ("", "0.0.0.0", "::") else host


def _distributed_demo(settings: Settings, address: str, args: argparse.Namespace,
                      stop: threading.Event, out: TextIO) -> threading.Thread:  # fmt: skip
    """``paiju demo``'s client against the first API process, with a key made for it here
    (in the store the API processes read) and revoked when it stops."""
    import asyncio

    from services.api.keys import KeyStore
    from services.demo.http_demo import TIMING, HttpDemo, Plan

    pepper = settings.api_key_pepper
    keys = KeyStore(settings.store_url, None if pepper is None else pepper.get_secret_value().encode())
    made = keys.create(["tables", "tokens", "operator"], "paiju serve --demo")
    plan = Plan(tables=args.tables, hands=args.hands, pace=args.pace,
                timing={**TIMING, **settings.default_timing()}, close_at_end=True)  # fmt: skip
    demo = HttpDemo(address, made.token, plan, out)

    def play() -> None:
        try:
            asyncio.run(demo.run(stop))
        except Exception as error:  # printed; the service goes on
            print(f"paiju serve: the demo stopped: {error}", file=out, flush=True)
        finally:
            keys.revoke(made.key.key_id)
            keys.close()

    thread = threading.Thread(target=play, name="demo", daemon=True)
    thread.start()
    return thread


def _wait(stop: threading.Event, seconds: float | None) -> None:
    try:
        stop.wait(seconds) if seconds is not None else _until(stop)
    except KeyboardInterrupt:
        stop.set()


def _until(stop: threading.Event) -> None:
    while not stop.wait(0.5):
        pass
