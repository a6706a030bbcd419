"""``paiju worker``: a Celery worker of Paiju's app (``workers.app``), configured by ``PAIJU_*``.

It needs a broker other processes can reach (``PAIJU_BROKER_URL=redis://...``): the in-memory
default lives inside one process, where ``paiju serve`` runs its own worker thread. Options
given here win over the environment; logs are JSON lines on stderr (``PAIJU_LOG_FORMAT``).
"""

from __future__ import annotations

import argparse

from services.cli.failures import CliError
from services.cli.long_running import settings_or_fail
from workers.queues import QueueNames

POOLS = ("prefork", "threads", "solo")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def _queues(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    known = [q.value for q in QueueNames]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown queue {', '.join(unknown) or '(none)'}; the queues are {', '.join(known)}"
        )
    return names


def _with_rules_queues(queues: list[str], shards: int = 1, shard: int | None = None) -> list[str]:
    """A worker of commands also takes the commands handed back for each rules version it
    has (``workers.queues.rules_queue``): registered before this runs (in the process's code);
    and the command shards' queues: its own (``shard``), else every one."""
    if QueueNames.commands.value not in queues:
        return queues
    from workers.queues import rules_queues, shard_queues

    mine = shard_queues(shards) if shard is None else shard_queues(shards)[shard:shard + 1]
    return [*queues, *rules_queues(), *mine]


def _level(text: str) -> str:
    if text.upper() not in LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(LEVELS)}")
    return text.upper()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--concurrency", "-c", type=int, metavar="N",
        help="worker processes, or threads (default: $PAIJU_CONCURRENCY, else 2)",
    )
    parser.add_argument(
        "--queues", "-Q", type=_queues, metavar="LIST",
        default=[q.value for q in QueueNames],
        help=f"comma-separated queues to serve (default: all: {','.join(QueueNames)})",
    )
    parser.add_argument("--pool", "-P", choices=POOLS, default="prefork",
                        help="how tasks run (default: prefork)")
    parser.add_argument("--without-mingle", action="store_true",
                        help="start without asking other workers for their state (faster)")
    parser.add_argument("--without-gossip", action="store_true",
                        help="do not follow other workers' events")
    parser.add_argument("--loglevel", "-l", type=_level, metavar="LEVEL",
                        help="DEBUG, INFO, WARNING or ERROR (default: $PAIJU_LOG_LEVEL, else INFO)")


def main(args: argparse.Namespace) -> int:
    from ops.health_parts import watch_worker
    from workers.logging import configure_logging
    from workers.parts import Parts

    overrides = {} if args.concurrency is None else {"concurrency": args.concurrency}
    settings = settings_or_fail(**overrides)
    if settings.embedded:
        raise CliError(
            f"PAIJU_BROKER_URL is {settings.broker_url} (the embedded default), which no other"
            " process can reach: set PAIJU_BROKER_URL=redis://HOST:PORT/DB, or run paiju serve"
        )
    # Before Celery starts: its first warnings (running as root, say) come before its own
    # setup_logging signal, and must be JSON lines too.
    configure_logging(args.loglevel or settings.log_level, settings.log_format)
    app = Parts(settings).app  # its tasks ask these parts for theirs, in each worker process
    watch_worker(app, settings)  # metrics of the pool, added up; the worker's heartbeat
    quiet = ["--quiet"] if settings.log_format == "json" else []  # the banner is for people
    argv = [
        *quiet,
        "worker",
        f"--concurrency={settings.concurrency}",
        f"--queues={','.join(_with_rules_queues(args.queues, settings.command_shards, settings.command_shard))}",
        f"--pool={args.pool}",
        f"--loglevel={args.loglevel or settings.log_level}",
        *(["--without-mingle"] if args.without_mingle else []),
        *(["--without-gossip"] if args.without_gossip else []),
    ]
    app.worker_main(argv)
    return 0
