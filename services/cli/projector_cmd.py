"""``paiju projector [--store URL] [--only NAME ...] [--batch N]``: keep the read models.

Each projection of the catalog (``readmodels.catalog``), or those named by
``--only``, follows the store's global order from its checkpoint. Any number may run at once:
on PostgreSQL each build is led by one of them (an advisory lock) and the others stand by,
taking over when it goes; on SQLite they take turns batch by batch. It wakes on the store's
notice of new events and polls as well. It runs until Ctrl-C or SIGTERM; settings are the
workers' (``PAIJU_STORE_URL``, ``PAIJU_LOG_LEVEL``, ``PAIJU_LOG_FORMAT``).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import closing
from typing import TYPE_CHECKING, TextIO

from services.cli.failures import CliError, command
from services.cli.long_running import run_until_stopped, settings_or_fail, shown
from services.cli.partition_opt import add_partition_argument, partition_of
from services.cli.stores import STORE_HELP

if TYPE_CHECKING:
    from readmodels.base import Projection


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_partition_argument(parser)
    parser.add_argument("--store", metavar="URL", help=STORE_HELP.replace(
        "default $PAIJU_STORE", "default $PAIJU_STORE_URL, $PAIJU_STORE"))  # fmt: skip
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="keep only these projections (paiju projections status names them)")  # fmt: skip
    parser.add_argument("--batch", type=int, default=500, metavar="N",
                        help="events applied per transaction (1-10000; default 500)")  # fmt: skip


def chosen(only: list[str] | None) -> list[Projection]:
    """The catalog's projections, or those named (an unknown name: one line naming the known)."""
    from readmodels import catalog

    if not only:
        return list(catalog.ALL)
    try:
        return [catalog.by_name(name) for name in dict.fromkeys(only)]
    except catalog.UnknownProjectionError as error:
        raise CliError(str(error)) from None


@command("projector", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from ops.health_parts import watched
    from workers.logging import configure_logging
    from workers.parts import Parts

    out = out or sys.stdout
    settings = settings_or_fail(args.store)
    if not 1 <= args.batch <= 10_000:
        raise CliError(f"--batch must be 1-10000 events, not {args.batch}")
    projections = chosen(args.only)
    partition = partition_of(args, settings)
    configure_logging(settings.log_level, settings.log_format)
    with closing(Parts(settings)) as parts:
        projector = parts.projector(projections, batch=args.batch, partition=partition)
        names = ", ".join(p.name for p in projector.projections)
        where = shown(settings.store_url) + (f", partition {partition}" if partition else "")
        print(f"paiju projector: keeping {names} from {where}", file=out, flush=True)
        try:
            with watched("projector", settings, projector, partition):  # heartbeat, /metrics
                run_until_stopped("projector", projector.run)
        finally:
            projector.db.close()
    applied = sum(c.applied for c in projector.consumers)
    print(f"paiju projector: stopped; {applied} events applied", file=out)
    return 0
