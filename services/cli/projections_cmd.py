"""``paiju projections status|rebuild NAME|retry NAME [--store URL]``: the read models' state.

``status`` prints a line per projection: its live build, position, lag behind the store, any
build in progress beside it and the last error and where (``--json``: one object a line).
``rebuild NAME`` builds the projection anew beside its live build from position 0 and
switches readers to it once it has caught up (the live build serves until then), then drops
the old build; Ctrl-C leaves the new build in progress, and any projector (or this again)
goes on with it. ``retry NAME`` clears a stopped build's error after a fix, so that the
projectors take it up again from where it stopped.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from contextlib import closing
from typing import TYPE_CHECKING, TextIO

from services.cli.failures import CliError, command
from services.cli.long_running import settings_or_fail
from services.cli.projector_cmd import chosen
from services.cli.stores import STORE_HELP

if TYPE_CHECKING:
    from events.store.base import EventStore
    from readmodels.base import Projection
    from readmodels.db import Build, ProjectionDB


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["status", "rebuild", "retry"],
                        help="show them all; rebuild one; retry one that stopped")  # fmt: skip
    parser.add_argument("name", nargs="?", help="the projection (rebuild, retry)")
    parser.add_argument("--store", metavar="URL", help=STORE_HELP.replace(
        "default $PAIJU_STORE", "default $PAIJU_STORE_URL, $PAIJU_STORE"))  # fmt: skip
    parser.add_argument("--json", action="store_true", help="status as JSON lines")


@command("projections", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from workers.logging import configure_logging
    from workers.parts import Parts

    out = out or sys.stdout
    settings = settings_or_fail(args.store)
    if args.action == "status" and args.name is not None:
        raise CliError("status takes no projection name; it shows them all")
    if args.action != "status" and args.name is None:
        raise CliError(f"{args.action} needs a projection's name (paiju projections status)")
    projections = chosen([args.name] if args.name else None)
    configure_logging(settings.log_level, settings.log_format)
    with closing(Parts(settings)) as parts:
        db, store, logs = parts.read_models(), parts.store(), parts.logs()
        if args.action == "status":
            return _status(db, store, projections, args.json, out, logs)
        if args.action == "retry":
            return _retry(db, projections[0], out)
        return _rebuild(db, store, projections[0], out, logs)


def _status(db: ProjectionDB, store: EventStore, projections: list[Projection], as_json: bool,
            out: TextIO, logs: dict[int, EventStore]) -> int:  # fmt: skip
    """Each projection against every partition's head (one line each; by partition too
    where tables have stores of their own)."""
    from readmodels import operations

    for found in operations.status(db, store, projections, logs if len(logs) > 1 else None):
        print(json.dumps(found.as_dict(), default=str) if as_json else found.line(), file=out)
    return 0


def _retry(db: ProjectionDB, projection: Projection, out: TextIO) -> int:
    from readmodels import operations

    try:
        cleared = operations.retry(db, projection)
    except LookupError as error:
        raise CliError(str(error)) from None
    for build in cleared:
        print(f"paiju projections: {build.name} build {build.build} cleared; it was {build.error}",
              file=out)  # fmt: skip
    return 0


def _rebuild(db: ProjectionDB, store: EventStore, projection: Projection, out: TextIO,
             logs: dict[int, EventStore]) -> int:  # fmt: skip
    from readmodels import operations

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    shown: list[int] = []

    def progress(build: Build) -> None:
        if not shown:
            print(f"paiju projections: rebuilding {build.name} as build {build.build}",
                  file=out, flush=True)  # fmt: skip
        shown.append(build.position)

    try:
        done = operations.rebuild(db, store, projection, stop, progress=progress, logs=logs)
    except operations.RebuildError as error:
        raise CliError(str(error)) from None
    except KeyboardInterrupt:
        stop.set()
        done = None
    if done is None:
        raise CliError("interrupted; the new build stays in progress (any projector goes on"
                       " with it; paiju projections status shows it)")  # fmt: skip
    print(f"paiju projections: {done.name} build {done.build} is live at position"
          f" {done.position}; the old build was dropped", file=out)  # fmt: skip
    return 0
