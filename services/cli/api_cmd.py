"""``paiju api [--host H] [--port N]``: the platform's HTTP API alone, in the foreground;
``paiju api --openapi``: its OpenAPI document on stdout.

It enqueues commands for the workers (``paiju worker``, on ``PAIJU_BROKER_URL``) and reads the
store; on the embedded default (``memory://``) a worker thread runs in this process too, so
one command serves a laptop. ``paiju serve`` runs the API as one of its parts as well.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from typing import TextIO

from services.cli.failures import CliError, command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="listen address (default $PAIJU_API_HOST, 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default $PAIJU_API_PORT, 8080; 0: free)")
    parser.add_argument("--any-port-if-taken", action="store_true",
                        help="listen on any free port when the port is taken (printed)")  # fmt: skip
    parser.add_argument("--for", dest="seconds", type=float, metavar="SECONDS",
                        help="stop after this long (default: until Ctrl-C or SIGTERM)")  # fmt: skip
    parser.add_argument("--openapi", action="store_true",
                        help="print the API's OpenAPI document (JSON) and exit; serves nothing,"
                             " reads no store (clients/typescript is generated from it)")  # fmt: skip


@command("api", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from services.settings import SettingsError, load_settings
    from workers.logging import configure_logging

    out = out or sys.stdout
    if args.openapi:
        print(_openapi_document(), file=out)
        return 0
    overrides = {k: v for k, v in (("api_host", args.host), ("api_port", args.port)) if v is not None}
    try:
        settings = load_settings(**overrides)
    except SettingsError as error:
        raise CliError(str(error)) from None
    configure_logging(settings.log_level, settings.log_format)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    from services.api.run import RunningApi

    with RunningApi(settings, with_worker=settings.embedded,
                    any_port_if_taken=args.any_port_if_taken) as running:
        print(f"paiju api: listening on {running.address} (OpenAPI at {running.address}/docs); "
              f"store {settings.store_url}{', worker in this process' if settings.embedded else ''}",
              file=out, flush=True)  # fmt: skip
        with contextlib.suppress(KeyboardInterrupt):
            stop.wait(args.seconds) if args.seconds is not None else _until(stop)
    print("paiju api: stopped", file=out)
    return 0


def _until(stop: threading.Event) -> None:
    while not stop.wait(0.5):
        pass


def _openapi_document() -> str:
    """The document the API serves at ``/openapi.json``, from an app on a throwaway store (a
    SQLite file in a temporary folder, an in-memory broker): what it says depends on the code,
    not on a deployment's settings."""
    import json
    import tempfile

    from services.api.app import create_api
    from services.api.context import ApiContext
    from services.settings import load_settings

    with tempfile.TemporaryDirectory(prefix="paiju-openapi-") as folder:
        settings = load_settings(store_url=f"sqlite:///{folder}/openapi.sqlite3", broker_url="memory://")
        ctx = ApiContext.open(settings)
        try:
            return json.dumps(create_api(ctx).openapi(), indent=2, ensure_ascii=False, sort_keys=True)
        finally:
            ctx.close()
