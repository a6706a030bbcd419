"""``paiju simulate``: bots play hands at a table, every invariant is checked, the endings counted.

    paiju simulate --variant harbin --games 100 --seed 42 [--bot winning|random|mixed] [--check] [--json]
                   [--away RATE] [--store URL] [--dump DIR]

``--variant all`` plays ``--games`` hands of each variant. The hands of one variant are played
in series at one table (dealer succession, 荒庄 and 荒番 counters carry over); hand ``i`` is
dealt from a seed derived from ``--seed``, the variant and ``i``, so one seed always gives the
same events. After every event tile conservation is checked; at the end of each hand the
hand's events, round-tripped through JSON, are replayed and compared with the live state
(``--check``: after every event too). Seats also time out, drop, come back, ask for 托管 and
leave at random moments (``--away``: the chance before each move, 0 for none); the report counts
each of those paths. Exit 0 when all held, 1 when an invariant failed (named,
with what reproduces it; ``--dump DIR`` writes the hand's seed, dealer and commands), 2 for
bad arguments, a store that cannot be used, or Ctrl-C (saying what had been stored). While it
runs, a progress line is redrawn on stderr when stderr is a terminal; with ``--store`` the
report names each table it stored.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing
from pathlib import Path
from typing import Any, TextIO

from services.bots.runner import LINEUPS, HandRecord, lineup, open_table, play_hand
from services.cli.arguments import SEED_HELP, seed, variant_help
from services.cli.failures import CHECK_FAILED, CliError, Interrupted, command
from services.cli.progress import Progress
from services.cli.simulate_runs import ENDINGS, VariantRun, play_hands
from services.cli.simulate_store import run_variant_on_store
from services.cli.stores import StoreChoice, open_for_writing
from services.rules.variants import VARIANTS

AWAY_RATE = 0.03


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="harbin", help=variant_help(", or all"))
    parser.add_argument("--games", default="10", help="hands to play (per variant with 'all')")
    parser.add_argument("--seed", default="paiju", type=seed, help=SEED_HELP)
    parser.add_argument(
        "--bot",
        default="winning",
        help="winning (plays to win), random (any legal move) or mixed (two of each)",
    )
    parser.add_argument(
        "--check",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="also replay and compare after every event (slower; in memory, not with --store)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of text lines"
    )
    parser.add_argument(
        "--away",
        default=str(AWAY_RATE),
        metavar="RATE",
        help="the chance, before each move, that a wait times out or a seat drops, comes back, "
        f"asks for 托管 or leaves instead (seeded; 0 for none; default {AWAY_RATE})",
    )
    parser.add_argument(
        "--store",
        metavar="URL",
        help="write the hands through the table service into this event store "
        "(sqlite:///file or postgresql://...), for load; verified at the end",
    )
    parser.add_argument(
        "--dump",
        metavar="DIR",
        help="on a failure, write DIR/<variant>-<hand seed>.json: the hand's seed, dealer and "
        "commands, replayable from a fresh table (tests/bots/repros holds such files)",
    )


def run_variant(
    variant: str,
    games: int,
    seed: str,
    bot: str,
    check: bool,
    away: float = 0.0,
    progress: Progress | None = None,
) -> VariantRun:
    """Play ``games`` hands of ``variant`` at one table in memory; stop at the first broken
    invariant."""
    table, _ = open_table(variant)
    bots = lineup(bot)

    def play(hand: str) -> HandRecord:
        nonlocal table
        table, record = play_hand(table, hand, bots, check, away)
        return record

    return play_hands(VariantRun(variant), games, seed, bot, away, progress, play)


def _print_text(runs: list[VariantRun], out: TextIO) -> None:
    for run in runs:
        v = run.variant
        print(f"{v} hands: {run.hands}", file=out)
        print(f"{v} events: {run.events}", file=out)
        print(f"{v} seconds: {run.seconds:.2f}", file=out)
        print(f"{v} hands per second: {run.hands_per_second:.1f}", file=out)
        for ending in ENDINGS:
            print(f"{v} ended {ending}: {run.endings[ending]}", file=out)
        print(f"{v} wins: {run.wins} ({run.kong_wins} on a kong or flower replacement)", file=out)
        for pattern, n in sorted(run.patterns.items(), key=lambda item: (-item[1], item[0])):
            print(f"{v} pattern {pattern}: {n}", file=out)
        for moment, n in sorted(run.seen.items(), key=lambda item: (-item[1], item[0])):
            print(f"{v} seen {moment}: {n}", file=out)
        for path, n in sorted(run.away.items(), key=lambda item: (-item[1], item[0])):
            print(f"{v} away {path}: {n}", file=out)
        if run.table_id is not None:
            print(f"{v} stored as table: {run.table_id}", file=out)
        if run.failure is None:
            print(f"{v} invariants: ok", file=out)
        else:
            f = run.failure
            print(
                f"{v} invariants: FAILED at hand {f['hand_index']} (hand seed {f['hand_seed']}): {f['what']}",
                file=out,
            )
            print(f"{v} reproduce: {f['reproduce']}", file=out)
    if len(runs) > 1:
        hands = sum(r.hands for r in runs)
        seconds = sum(r.seconds for r in runs)
        print(f"all hands: {hands}", file=out)
        print(f"all hands per second: {hands / seconds if seconds else 0.0:.1f}", file=out)


@command("simulate", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    if args.variant != "all" and args.variant not in VARIANTS:
        raise CliError(
            f"unknown variant {args.variant!r}; known variants: {', '.join(sorted(VARIANTS))}, all"
        )
    try:
        games = int(args.games)
    except ValueError:
        raise CliError(f"--games must be a whole number of hands, got {args.games!r}") from None
    if games < 1:
        raise CliError(f"--games must be at least 1, got {games}")
    if args.bot not in LINEUPS:
        raise CliError(f"unknown bot {args.bot!r}; known bots: {', '.join(LINEUPS)}")
    try:
        away = float(args.away)
    except ValueError:
        raise CliError(f"--away must be a chance between 0 and 1, got {args.away!r}") from None
    if not 0 <= away <= 1:
        raise CliError(f"--away must be a chance between 0 and 1, got {away}")
    if args.check and args.store is not None:
        raise CliError(
            "--check replays in memory after every event; with --store each hand is loaded back "
            "from the store and the table verified instead: give one or the other"
        )
    variants = sorted(VARIANTS) if args.variant == "all" else [args.variant]
    progress = Progress.on_stderr(games * len(variants))
    store_choice = None if args.store is None else StoreChoice(args.store, "--store")
    try:
        runs = _run(variants, games, args, away, store_choice, progress)
    except KeyboardInterrupt:
        raise Interrupted(
            progress.so_far(None if store_choice is None else store_choice.shown)
        ) from None
    finally:
        progress.finish()
    ok = all(r.failure is None for r in runs)
    if args.json:
        summary = {
            "seed": str(args.seed),
            "bot": args.bot,
            "games": games,
            "check_every_event": bool(args.check),
            "away": away,
            "ok": ok,
            "variants": {r.variant: r.as_json() for r in runs},
        }
        print(json.dumps(summary, ensure_ascii=False), file=out)
    else:
        _print_text(runs, out)
    for run in runs:
        if run.failure is not None and args.dump:
            _dump(Path(args.dump), run.failure)
    return 0 if ok else CHECK_FAILED


def _run(
    variants: list[str],
    games: int,
    args: argparse.Namespace,
    away: float,
    store_choice: StoreChoice | None,
    progress: Progress,
) -> list[VariantRun]:
    seed_ = str(args.seed)
    if store_choice is None:
        return [
            run_variant(v, games, seed_, args.bot, args.check, away, progress) for v in variants
        ]
    with closing(open_for_writing(store_choice)) as store:
        try:
            return [
                run_variant_on_store(
                    v, games, seed_, args.bot, store, store_choice.shown, away, progress
                )
                for v in variants
            ]
        except KeyboardInterrupt:
            progress.recount(store)  # Ctrl-C may come after a hand's last batch committed
            raise


def _dump(folder: Path, failure: dict[str, Any]) -> None:
    """The failing hand as a reproduction: its seed, dealer and commands after the deal."""
    folder.mkdir(parents=True, exist_ok=True)
    repro = {
        "variant": failure["variant"],
        "seed": failure["hand_seed"],
        "dealer": failure["dealer"],
        "what": failure["what"],
        "commands": failure["commands"][1:],  # the first is the StartHand
    }
    path = folder / f"{failure['variant']}-{failure['hand_seed']}.json"
    path.write_text(json.dumps(repro, ensure_ascii=False, indent=0) + "\n")
    print(f"paiju simulate: wrote {path}", file=sys.stderr)
