"""``paiju``: the command-line tool of the table service.

Each subcommand lives in a module of its own; this file only routes. The contracts of
``paiju rules analyze|score`` and ``paiju simulate`` are stable: support staff and checks use them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _rules(args: argparse.Namespace) -> int:
    from services.cli import rules_cmd

    if args.action == "analyze":
        return rules_cmd.analyze_main(sys.stdin, sys.stdout)
    return rules_cmd.score_main(sys.stdin, sys.stdout)


def _simulate(args: argparse.Namespace) -> int:
    from services.cli import simulate_cmd

    return simulate_cmd.main(args)


def _play(args: argparse.Namespace) -> int:
    from services.cli import play_cmd

    return play_cmd.main(args)


def _log(action: str) -> object:
    def run(args: argparse.Namespace) -> int:
        from services.cli import log_cmd

        result: int = getattr(log_cmd, f"{action}_main")(args)
        return result

    return run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju", description="Paiju (牌局): the mahjong table service"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    rules = sub.add_parser("rules", help="hand analysis and scoring, JSON on stdin and stdout")
    rules.add_argument("action", choices=["analyze", "score"])
    rules.set_defaults(run=_rules)

    simulate = sub.add_parser("simulate", help="play hands with bots and check every invariant")
    from services.cli import simulate_cmd

    simulate_cmd.add_arguments(simulate)
    simulate.set_defaults(run=_simulate)

    play = sub.add_parser("play", help="play one whole hand with bots and print it move by move")
    play.add_argument("--variant", default="harbin")
    play.add_argument("--seed", default="paiju-demo-0001")
    play.add_argument(
        "--store",
        help="play through the table service into this event store (e.g. sqlite:///paiju.sqlite3)",
    )
    play.set_defaults(run=_play)

    from services.cli.log_cmd import add_store_argument

    replay = sub.add_parser("replay", help="a recorded table move by move, then its checks")
    replay.add_argument("table")
    replay.add_argument("--hand", type=int, help="only this hand (1-based)")
    replay.add_argument(
        "--head",
        help="a hand's head as published to the seats (HASH or VERSION:HASH): the stored"
        " chain must still hold it, else it was cut or rewritten",
    )
    add_store_argument(replay)
    replay.set_defaults(run=_log("replay"))

    export = sub.add_parser("export", help="a table's events as JSON lines on stdout")
    export.add_argument("table")
    add_store_argument(export)
    export.set_defaults(run=_log("export"))

    imp = sub.add_parser("import", help="a table exported as JSON lines (file or - for stdin)")
    imp.add_argument("file")
    add_store_argument(imp)
    imp.set_defaults(run=_log("import"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
