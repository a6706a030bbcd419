"""End to end over HTTP: the POST of a move to its event on the acting seat's stream (by hand).

The service as processes on a private Redis and a PostgreSQL schema of its own: one ``paiju
api``, ``--workers`` ``paiju worker`` processes (``--concurrency`` each) and a timekeeper.
``paiju demo``'s client (``services/demo/http_demo.py``) plays ``--tables`` tables of bots in
this process, exactly as in ``make run`` but with no thinking time and no idle seat: each seat
follows its own stream and moves with one request when the stream (or its last command's
answer) offers it a choice (``services/demo/player.py``), posting with ``If-Match: v``; the move's first event is then ``v + 1``, and its latency
is from just before the POST to that event arriving on the acting seat's stream. The first
``--warmup`` seconds are not counted. Moves per second = accepted moves / counted seconds.
CPU of each process (its tree: a prefork worker's pool too) over the counted seconds.

    .venv/bin/python benchmarks/bench_api_end_to_end.py [--tables 50] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
import uuid

from bench_api_kit import cpu_seconds, service
from bench_timers import percentile

from services.demo.http_demo import HttpDemo, Plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=1, help="each worker's processes")
    parser.add_argument("--sharded", action="store_true",
                        help="one command shard per worker: a table's commands meet one worker")
    args = parser.parse_args()
    with service(args.workers, args.concurrency, sharded=args.sharded) as running:
        plan = Plan(tables=args.tables, seconds=args.warmup + args.seconds, idle_seat=None,
                    prefix=f"e2e-{uuid.uuid4().hex[:6]}", timing={"turn": 60, "claim": 30},
                    pace=0, measure=True)  # fmt: skip
        demo = HttpDemo(running.api, running.key, plan, out=None)
        marks: dict[str, float] = {}
        cpu: dict[str, tuple[float, float]] = {}

        def mark() -> None:  # the counted window: after the warm-up, to the end
            time.sleep(args.warmup)
            marks["start"] = time.perf_counter()
            marks["accepted"] = demo.tally.accepted
            cpu.update({n: (cpu_seconds(p), 0.0) for n, p in running.pids.items()})
            cpu["client"] = (time.process_time(), 0.0)

        threading.Thread(target=mark, daemon=True).start()
        tally = asyncio.run(demo.run())
        end = time.perf_counter()
        used = {n: cpu_seconds(p) - cpu[n][0] for n, p in running.pids.items()}
        used["client"] = time.process_time() - cpu["client"][0]
    counted = end - marks["start"]
    latencies = [
        seconds for (table, version, seat), seen in tally.seen_at.items()
        if seen >= marks["start"]
        and (seconds := seen - tally.posted_at.get((table, version - 1, seat), seen + 1)) >= 0
    ]  # fmt: skip
    moves = tally.accepted - marks["accepted"]
    ms = [s * 1000 for s in latencies]
    print(f"{args.tables} tables, {args.workers} workers x {args.concurrency}, counted {counted:.1f} s "
          f"after {args.warmup:g} s warm-up")
    print(f"moves accepted {moves} ({moves / counted:.1f}/s); refused in all {tally.refused}; "
          f"hands settled {sum(tally.hands.values())}")
    print(f"POST -> own stream: n={len(ms)} p50 {statistics.median(ms):.1f} ms, "
          f"p90 {percentile(ms, 90):.1f}, p99 {percentile(ms, 99):.1f}, max {max(ms):.1f}")
    print("CPU over the counted window (share of one core): " + ", ".join(
        f"{n} {u / counted:.2f}" for n, u in used.items()))  # fmt: skip
    print("CPU per accepted move: " + ", ".join(
        f"{n} {u / max(1, moves) * 1000:.2f} ms" for n, u in used.items()))  # fmt: skip


if __name__ == "__main__":
    main()
