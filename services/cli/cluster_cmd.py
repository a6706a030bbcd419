"""``paiju cluster``: the service as a local cluster under bot load, measured, optionally hurt.

For each count in ``--workers`` (say ``1,2,4``): a PostgreSQL and a Redis of its own on free
ports of 127.0.0.1, ``--apis`` API processes, that many worker processes, two timekeepers, two
projectors and a reactor (with a webhook endpoint of the platform's in this process), each
restarted when it exits; ``--tables`` tables of bots over HTTP, counted for ``--for`` seconds
after a warm-up; then everything stopped in order and checked (``services/cluster/verdict.py``).
Prints a row of figures per count and what the checks found.

With ``--kills N``: one run (the first worker count) during which every kind of part is
killed with SIGKILL N times in turn, then Redis and PostgreSQL are restarted, each recovery
timed (``services/cluster/faults.py``). ``--profile SECONDS``: py-spy samples the busiest part.
Exit status 1 when any check fails or a part did not recover.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from services.cli.failures import CliError, command

if TYPE_CHECKING:
    from services.cluster.load import Bots
    from services.cluster.run import Shape


def _counts(text: str) -> list[int]:
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        counts = []
    if not counts or not all(1 <= n <= 16 for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: give worker counts from 1 to 16, like 1,2,4")
    return counts


def _bounded(low: float, high: float, what: str) -> object:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r}: {what} from {low:g} to {high:g}")
        return value

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=_counts, default=[2], metavar="LIST",
                        help="worker processes, one run per count (default 2; e.g. 1,2,4)")
    parser.add_argument("--apis", type=int, choices=range(1, 9), default=2, metavar="N",
                        help="API processes (default 2)")
    parser.add_argument("--tables", type=_bounded(1, 2000, "tables"), default=200,
                        help="bot tables (default 200)")
    parser.add_argument("--for", dest="seconds", type=_bounded(5, 3600, "seconds"), default=60,
                        help="seconds counted after the warm-up (default 60)")
    parser.add_argument("--warmup", type=_bounded(0, 600, "seconds"), default=20,
                        help="seconds of play not counted (default 20)")
    parser.add_argument("--turn", type=int, choices=range(1, 61), default=30, metavar="SECONDS",
                        help="turn seconds of the tables, claim half of it (default 30, a human "
                             "table's; idle seats time out)")
    parser.add_argument("--idle-every", type=int, default=10, metavar="N",
                        help="every N-th table keeps an idle seat (default 10)")
    parser.add_argument("--kills", type=int, choices=range(0, 201), default=0, metavar="N",
                        help="kill -9 each kind of part N times, then restart Redis and "
                        "PostgreSQL (default 0: no faults)")
    parser.add_argument("--kill-every", type=_bounded(10, 3600, "seconds"), default=0, metavar="SECONDS",
                        help="a soak: kill -9 a random part every SECONDS for the whole --for, "
                        "Redis and PostgreSQL restarted in the middle, each part's memory read "
                        "every minute (default 0: no soak)")
    parser.add_argument("--pace", type=_bounded(0, 30, "seconds"), default=0,
                        help="seconds a bot thinks before each move (default 0: as fast as it "
                        "can; 2-5 is a human's pace)")
    parser.add_argument("--jitter", type=_bounded(0, 30, "seconds"), default=0,
                        help="give or take this many seconds on each thought (default 0; "
                        "--pace 2 --jitter 1: a human's 2 +- 1 s)")
    parser.add_argument("--profile", type=_bounded(0, 120, "seconds"), default=0,
                        help="py-spy samples the busiest part this long (default 0: not)")
    parser.add_argument("--bot-processes", type=int, choices=range(0, 33), default=None, metavar="N",
                        help="processes the bots play in, each a share of the tables, so their CPU"
                        f" is theirs (default: one per {TABLES_PER_BOT_PROCESS} tables, at most"
                        f" {MAX_BOT_PROCESSES}; 0: a thread of this one)")
    parser.add_argument("--sharded", action="store_true",
                        help="one command shard per worker, so a table's commands meet the fold "
                        "one worker keeps (default: every worker serves every table's commands; "
                        "at 200 tables on 2 cores sharding cut moves/s from 37 to 26: see "
                        "docs/performance.md)")
    parser.add_argument("--partitions", type=int, choices=range(0, 17), default=0, metavar="N",
                        help="table stores beside the home store, each table in one, each with"
                        " timekeepers, projectors and reactors of its own (default 0: every table"
                        " in the home store)")
    parser.add_argument("--partition-servers", action="store_true",
                        help="each table store a private PostgreSQL server of its own (default:"
                        " a schema each on the home store's server)")
    parser.add_argument("--logs", type=Path, help="folder for the parts' logs (default: a temporary one)")


TABLES_PER_BOT_PROCESS = 25
"""One bot process per this many tables by default: at 100 human-paced tables one process (400
seats' streams on one event loop) lagged the frames it timed, p50 887 ms against 353 ms with
four (docs/performance.md); the figures are the service's, not the load generator's."""
MAX_BOT_PROCESSES = 32


def bot_processes(asked: int | None, tables: int) -> int:
    """The processes the bots play in: as asked, else one per ``TABLES_PER_BOT_PROCESS``."""
    if asked is not None:
        return asked
    return max(1, min(MAX_BOT_PROCESSES, -(-tables // TABLES_PER_BOT_PROCESS)))


@command("cluster", writes=True)
def main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from services.cluster.load import Bots
    from services.cluster.run import ClusterError, Shape

    out = out or sys.stdout
    # a stop (SIGTERM) ends the run as Ctrl-C does: every part and server is stopped
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    bots = Bots(tables=int(args.tables), seconds=args.seconds, warmup=args.warmup,
                idle_every=args.idle_every, turn=args.turn, claim=max(1, args.turn // 2),
                pace=args.pace, jitter=args.jitter,
                processes=bot_processes(args.bot_processes, int(args.tables)))  # fmt: skip
    if args.kills and args.kill_every:
        raise CliError("give --kills (each kind in turn) or --kill-every (a soak), not both")
    counts = args.workers[:1] if args.kills or args.kill_every else args.workers
    rows, ok = [], True
    for workers in counts:
        shape = Shape(apis=args.apis, workers=workers, sharded=args.sharded,
                      partitions=args.partitions, partition_servers=args.partition_servers)  # fmt: skip
        try:
            row, good = _one_run(shape, bots, args, out)
        except ClusterError as error:
            raise CliError(str(error)) from None
        rows.append(row)
        ok = ok and good
    _table(rows, out)
    return 0 if ok else 1


def _one_run(shape: Shape, bots: Bots, args: argparse.Namespace, out: TextIO) -> tuple[list[str], bool]:
    from services.cluster import faults, load, soak, verdict
    from services.cluster.profile import ProfileError
    from services.cluster.run import Cluster

    say = lambda line: print(line, file=out, flush=True)  # noqa: E731
    settings = {"PAIJU_TURN_SECONDS": str(bots.turn), "PAIJU_CLAIM_SECONDS": str(bots.claim),
                "PAIJU_AUTOPLAY_WINDOW_SECONDS": "1", "PAIJU_VISIBILITY_TIMEOUT": "10"}  # fmt: skip
    root = None
    if args.logs is not None:
        root = args.logs / f"workers-{shape.workers}-{time.strftime('%H%M%S')}"
    recoveries: list[faults.Recovery] = []
    soaked = soak.Soak()
    plan = soak.SoakPlan(seconds=bots.seconds, every=args.kill_every)
    with Cluster(shape, settings, root) as cluster:
        say(f"paiju cluster: {shape} on {cluster.postgres.url} and {cluster.redis.url};"
            f" logs in {cluster.root}/logs")
        profile: dict[str, object] = {}

        def during(running: load.Load) -> None:
            began = time.monotonic()
            if args.profile:
                try:
                    profile["part"], profile["top"] = load.busiest(
                        cluster, args.profile, Path(str(cluster.root)) / "profile.txt")
                except ProfileError as error:  # the figures are still worth having
                    say(f"  no profile: {error}")
            if args.kills:
                recoveries.extend(faults.hurt(cluster, running, faults.FaultPlan(kills=args.kills), say))
            if args.kill_every:
                ran = soak.soak(cluster, running, plan, say)
                soaked.memory, soaked.recoveries = ran.memory, ran.recoveries
                recoveries.extend(ran.recoveries)
                ran.write_memory(Path(str(cluster.root)) / "memory.csv")
            running.stop.wait(max(0.0, bots.seconds - (time.monotonic() - began)))

        figures, running = load.play(cluster, bots, during)
        found = verdict.conclude(cluster, running)
    tally = running.tally
    say(f"  {figures.moves} moves in {figures.counted:.1f} s counted ({figures.per_second:.1f}/s),"
        f" p50 {figures.median:.0f} ms, p99 {figures.percentile(99):.0f} ms; in all: sent"
        f" {tally.sent}, accepted {tally.accepted}, refused {tally.refused} (the table had moved on)")
    for line in found.lines():
        say(f"  {line}")
    if profile:
        say(f"  profile of the busiest part, {profile['part']} (own time, share of samples):")
        for name, share in profile["top"]:  # type: ignore[attr-defined]
            say(f"    {share:6.1%}  {name}")
    if soaked.memory:
        say(f"  memory (largest part of each kind alive {plan.settled:.0f} s or more; every sample"
            f" in {cluster.root}/memory.csv):")
        for line in soaked.growth_lines(plan.settled):
            say(f"    {line}")
    failed = 0
    if recoveries:
        say("  recoveries (kind, faults, not recovered, back: median / worst, moves again: median / worst):")
        for r in faults.summary(recoveries):
            failed += r.failed
            say(f"    {r.kind:<11} {r.faults:>3} {r.failed:>3}   {r.back_median:6.2f} / {r.back_worst:6.2f} s"
                f"   {r.moving_median:6.2f} / {r.moving_worst:6.2f} s")
    cpu = " ".join(f"{k} {v:.2f}" for k, v in figures.cpu.items())
    per_move = " ".join(f"{k} {v * 1000 / figures.per_second:.1f}" for k, v in figures.cpu.items()
                        if figures.per_second)  # fmt: skip
    row = [str(shape.workers), str(figures.tables), f"{figures.per_second:.1f}",
           f"{figures.median:.0f}", f"{figures.percentile(90):.0f}", f"{figures.percentile(99):.0f}",
           str(figures.hands), cpu, per_move or "-"]  # fmt: skip
    return row, found.ok and failed == 0


def _table(rows: list[list[str]], out: TextIO) -> None:
    head = ["workers", "tables", "moves/s", "p50 ms", "p90 ms", "p99 ms", "hands", "CPU (share of one core)",
            "CPU per move (ms)"]  # fmt: skip
    print("| " + " | ".join(head) + " |", file=out)
    print("|" + "|".join("---:" for _ in head[:-2]) + "|---|---|", file=out)
    for row in rows:
        print("| " + " | ".join(row) + " |", file=out)
