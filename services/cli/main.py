"""``paiju``: the command-line tool of the table service.

Each subcommand lives in a module of its own; this file only routes, and runs each under
``failures.guarded`` (one line and status 2 for any failure, 1 for a failed check). The contracts
of ``paiju rules analyze|score`` and ``paiju simulate`` are stable: support staff and checks use
them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib import import_module, metadata

from services.cli.arguments import (
    SEED_HELP,
    Parser,
    seed,
    variant_help,
    variants_text,
)
from services.cli.failures import guarded
from services.cli.stores import add_store_argument

RULES_JSON = """\
analyze reads one JSON object on stdin:
  {"variant": "harbin", "hand": "11s88m789m345s", "melds": [{"kind": "pong", "tiles": "222p"}],
   "wildcards": "5p"}
  and prints {"waits", "can_declare_ready", "blockers"} for 3n+1 tiles,
  {"complete", "ready_discards"} for 3n+2.
score reads one JSON object on stdin (hand without the winning tile; absent keys are
none/false; dealer is required):
  {"variant", "hand", "melds", "win_tile", "self_drawn", "seat", "dealer", "discarder",
   "ready_declared", "bao", "wildcards", "flowers"}
  and prints {"patterns", "fan", "payments"}.
keys: a meld is {"kind": chi|pong|kong|added_kong|concealed_kong, "tiles", "from_seat"};
  seats are 0-3; ready_declared and flowers are one value for the winner or a list of 4;
  flowers count the flower tiles set aside (8 in a set, in shandong and shanghai only);
  wildcards are tanggu's 混 kinds, or the 宝 (harbin, mudanjiang).
  A key the command does not know is refused, not ignored.
tiles: 1m-9m 万, 1p-9p 饼, 1s-9s 条, 1z-7z 东南西北白发中 (e.g. 11s88m789m345s).
"""

STORE_TEXT = """\
stores: sqlite:///FILE (relative path), sqlite:////ABSOLUTE/FILE, or
  postgresql://USER@HOST[:PORT]/DATABASE[?schema=NAME]. tables, replay, export and import
  default to $PAIJU_STORE, else sqlite:///paiju.sqlite3; play and simulate store hands only
  when given --store. tables, replay and export only read and need an existing store; play,
  simulate and import may create a new SQLite file.
"""

EXPORT_TEXT = """\
an export is JSON lines: a header {"format": "paiju table export", "version": 1, "table"},
  one recorded event per line, and a closing line {"end", "events": N, "head": HASH}. import
  refuses a file that is not whole (cut short, edited, another table's events) and stores
  nothing; a table already stored in part (an import stopped part way) is completed.
"""

BACKUP_TEXT = """\
a SQLite store's backup is a SQLite file (the store as it was); a PostgreSQL store's is a
  pg_dump archive (--format=custom) of its schema. pg_dump and pg_restore are looked for in
  $PAIJU_PG_BIN, on PATH, then in /usr/lib/postgresql/*/bin. restore refuses a store that holds
  anything, then audits what it restored as paiju verify does.
"""

WORKER_TEXT = """\
environment: PAIJU_BROKER_URL (redis://HOST:PORT/DB), PAIJU_STORE_URL (or PAIJU_STORE),
  PAIJU_CONCURRENCY, PAIJU_KEY_PREFIX (of every Redis key), PAIJU_VISIBILITY_TIMEOUT (s),
  PAIJU_TABLE_CACHE (tables kept folded per process), PAIJU_SNAPSHOT_KEY, PAIJU_LOG_LEVEL,
  PAIJU_LOG_FORMAT (json|console), PAIJU_TURN_SECONDS, PAIJU_CLAIM_SECONDS,
  PAIJU_AUTOPLAY_WINDOW_SECONDS, PAIJU_RECONNECT_GRACE_SECONDS (defaults for new tables).
  A command's outcome is recorded in the store under its command id.
"""


def _version() -> str:
    from services.rules import RULES_VERSION

    try:
        package = metadata.version("paiju")
    except metadata.PackageNotFoundError:
        package = "unknown"
    return f"paiju {package} ({RULES_VERSION})"


def _runner(module: str, function: str = "main") -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        result: int = getattr(import_module(f"services.cli.{module}"), function)(args)
        return result

    return run


def _rules(args: argparse.Namespace) -> int:
    from services.cli import rules_cmd

    if args.action == "analyze":
        return rules_cmd.analyze_main(sys.stdin, sys.stdout)
    return rules_cmd.score_main(sys.stdin, sys.stdout)


def _sub(sub: argparse._SubParsersAction[Parser], name: str, help_: str, *epilog: str) -> Parser:
    return sub.add_parser(
        name,
        help=help_,
        description=help_,
        epilog="\n".join((*epilog, variants_text())),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def build_parser() -> Parser:
    parser = Parser(
        prog="paiju",
        description="Paiju (牌局): the mahjong table service",
        epilog=variants_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    rules = _sub(sub, "rules", "hand analysis and scoring, JSON on stdin and stdout", RULES_JSON)
    rules.add_argument(
        "action", choices=["analyze", "score"], help="analyze a hand's waits, or score a win"
    )
    rules.set_defaults(run=_rules, writes=False)

    simulate = _sub(sub, "simulate", "play hands with bots and check every invariant", STORE_TEXT)
    from services.cli import simulate_cmd

    simulate_cmd.add_arguments(simulate)
    simulate.set_defaults(run=_runner("simulate_cmd"), writes=True)

    play = _sub(sub, "play", "play one whole hand with bots and print it move by move", STORE_TEXT)
    play.add_argument("--variant", default="harbin", help=variant_help())
    play.add_argument("--seed", default="paiju-demo-0001", type=seed, help=SEED_HELP)
    play.add_argument(
        "--store",
        metavar="URL",
        help="play through the table service into this event store (kept for paiju replay); "
        "without it the hand is played in memory",
    )
    play.set_defaults(run=_runner("play_cmd"), writes=True)

    tables = _sub(sub, "tables", "the tables a store holds: variant, hands, last event", STORE_TEXT)
    add_store_argument(tables)
    tables.set_defaults(run=_runner("tables_cmd"), writes=False)

    replay = _sub(sub, "replay", "a recorded table move by move, then its checks", STORE_TEXT)
    replay.add_argument("table", help="the table id (paiju tables lists them)")
    replay.add_argument("--hand", type=int, metavar="N", help="only hand N (1-based)")
    replay.add_argument(
        "--head",
        help="a hand's head as published to the seats (HASH or VERSION:HASH): the stored"
        " chain must still hold it, else it was cut or rewritten",
    )
    add_store_argument(replay)
    replay.set_defaults(run=_runner("log_cmd", "replay_main"), writes=False)

    verify = _sub(
        sub, "verify", "audit a whole store: every table's chain, seeds and decisions", STORE_TEXT
    )
    add_store_argument(verify)
    verify.set_defaults(run=_runner("verify_cmd"), writes=False)

    export = _sub(
        sub, "export", "a table's events as JSON lines on stdout", EXPORT_TEXT, STORE_TEXT
    )
    export.add_argument("table", help="the table id (paiju tables lists them)")
    add_store_argument(export)
    export.set_defaults(run=_runner("log_cmd", "export_main"), writes=False)

    imp = _sub(
        sub, "import", "a table exported by paiju export, into a store", EXPORT_TEXT, STORE_TEXT
    )
    imp.add_argument("file", nargs="?", default="-",
                     help="the export file (default, or -: stdin, as in paiju export T | paiju import)")  # fmt: skip
    add_store_argument(imp)
    imp.set_defaults(run=_runner("log_cmd", "import_main"), writes=True)

    from services.cli import backup_cmd

    backup = _sub(sub, "backup", "a consistent copy of a store, taken while it runs", BACKUP_TEXT)
    backup_cmd.add_backup_arguments(backup)
    add_store_argument(backup)
    backup.set_defaults(run=_runner("backup_cmd", "backup_main"), writes=False)

    restore = _sub(
        sub, "restore", "a backup into a new store, then the audit of paiju verify", BACKUP_TEXT
    )
    backup_cmd.add_restore_arguments(restore)
    add_store_argument(restore)
    restore.set_defaults(run=_runner("backup_cmd", "restore_main"), writes=True)

    placements = _sub(sub, "placements", "tables over several stores: where each lives; repair")
    from services.cli import placements_cmd

    placements_cmd.add_arguments(placements)
    placements.set_defaults(run=_runner("placements_cmd"), writes=True)

    webhooks = _sub(sub, "webhooks", "platform notifications: list deliveries, resend one")
    from services.cli import webhooks_cmd

    webhooks_cmd.add_arguments(webhooks)
    webhooks.set_defaults(run=_runner("webhooks_cmd"), writes=True)

    reactor = _sub(sub, "reactor", "run the reactor that sends platform notifications")
    from services.cli import reactor_cmd

    reactor_cmd.add_arguments(reactor)
    reactor.set_defaults(run=_runner("reactor_cmd"), writes=True)

    projector = _sub(sub, "projector", "keep the read models (projections) from the store")
    from services.cli import projector_cmd

    projector_cmd.add_arguments(projector)
    projector.set_defaults(run=_runner("projector_cmd"), writes=True)

    projections = _sub(sub, "projections", "the read models: status, rebuild one, retry one")
    from services.cli import projections_cmd

    projections_cmd.add_arguments(projections)
    projections.set_defaults(run=_runner("projections_cmd"), writes=True)

    worker = _sub(sub, "worker", "a Celery worker running the tables' commands", WORKER_TEXT)
    from services.cli import worker_cmd

    worker_cmd.add_arguments(worker)
    worker.set_defaults(run=_runner("worker_cmd"), writes=True)

    timekeeper = _sub(sub, "timekeeper", "fire the tables' turn timers (durable, in the store)")
    from services.cli import timekeeper_cmd

    timekeeper_cmd.add_arguments(timekeeper)
    timekeeper.set_defaults(run=_runner("timekeeper_cmd"), writes=True)

    keys = _sub(sub, "keys", "the platform's API keys: create (printed once), list, revoke")
    from services.cli import keys_cmd

    keys_cmd.add_arguments(keys)
    keys.set_defaults(run=_runner("keys_cmd"), writes=True)

    api = _sub(sub, "api", "the platform's HTTP API (FastAPI under uvicorn)")
    from services.cli import api_cmd

    api_cmd.add_arguments(api)
    api.set_defaults(run=_runner("api_cmd"), writes=True)

    health = _sub(sub, "health", "is each part of the service up, and what is wrong if not")
    from services.cli import health_cmd

    health_cmd.add_arguments(health)
    health.set_defaults(run=_runner("health_cmd"), writes=False)

    demo = _sub(sub, "demo", "bot players over HTTP and the live streams, as a platform would")
    from services.cli import demo_cmd

    demo_cmd.add_arguments(demo)
    demo.set_defaults(run=_runner("demo_cmd"), writes=True)

    cluster = _sub(sub, "cluster", "the service as a local cluster under bot load: figures and faults")
    from services.cli import cluster_cmd

    cluster_cmd.add_arguments(cluster)
    cluster.set_defaults(run=_runner("cluster_cmd"), writes=True)

    serve = _sub(sub, "serve", "the whole service: embedded in one process, or as processes")
    from services.cli import serve_cmd

    serve_cmd.add_arguments(serve)
    serve.set_defaults(run=_runner("serve_cmd"), writes=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the command's parser ("paiju backup: ..."), not by paiju's
        _command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
    return guarded(args.command, lambda: args.run(args), writes=args.writes)


def _command_parser(parser: Parser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:  # argparse keeps the subcommands' parsers on this action
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[name]
            return found
    return parser


if __name__ == "__main__":
    sys.exit(main())
