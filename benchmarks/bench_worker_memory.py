"""Resident memory of one worker process holding ``--tables`` live tables in its cache (by hand).

One process, one ``TableService(store, cached_tables=N)``, as a worker has: N tables are opened
(the variants in turn), dealt, and played ``--moves`` moves in by random legal bots
(``services.bots.random_bot``), every command through ``TableService.handle`` into the store,
so each table ends mid-hand (a hand in play, a few discards and maybe a claim) and cached as
the worker would hold it. Reported: the process's resident set (``VmRSS`` of
``/proc/self/status``, after a full ``gc.collect()``) before the first table and after the last,
the difference per table, and for a sample of the cached tables what ``pympler.asizeof``
gives for a cached entry (the folded ``TableState`` with its version and hash) and for the whole
cache, to say what the difference is made of. Goal: at most 1 GB resident.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_worker_memory.py [--tables 10000] [--stores sqlite,postgres]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from pympler import asizeof

from events.store import open_store
from services.bots.random_bot import random_command
from services.rules.table.commands import OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.rules.variants import VARIANTS
from services.tables import Accepted, TableService

PLAYERS = ("ann", "bo", "cy", "di")
GOAL = 1 << 30
SAMPLE = 200


def resident() -> int:
    """Bytes resident now (``VmRSS``), after collecting what can be collected."""
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def play_in(service: TableService, table_id: str, variant: str, moves: int, seed: int) -> int:
    """Open, deal and play ``moves`` bot moves; the commands given."""
    opened = service.handle(
        table_id,
        OpenTable(table_id=table_id, variant=variant, players=PLAYERS),
        command_id=f"open-{table_id}",
    )
    assert isinstance(opened, Accepted), opened
    dealt = service.handle(table_id, StartHand(), command_id=f"deal-{table_id}")
    assert isinstance(dealt, Accepted) and dealt.state is not None, dealt
    state, rng, given = dealt.state, random.Random(seed), 2
    for move in range(moves):
        if state.hand_over:
            break
        command = random_command(state, seats_to_act(state)[0], rng)
        result = service.handle(table_id, command, command_id=f"m{move}-{table_id}")
        assert isinstance(result, Accepted) and result.state is not None, result
        state, given = result.state, given + 1
    return given


@contextlib.contextmanager
def fresh_store(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{Path(tmp) / 'memory.sqlite3'}"
    else:
        from bench_timers import pg_schema

        with pg_schema() as url:
            yield url


def measure(kind: str, tables: int, moves: int) -> None:
    with fresh_store(kind) as url:
        store = open_store(url)
        service = TableService(store, cached_tables=tables)
        variants = sorted(VARIANTS)
        before = resident()
        began, commands = time.perf_counter(), 0
        for i in range(tables):
            commands += play_in(service, f"mem-{i:06d}", variants[i % len(variants)], moves, i)
            if (i + 1) % 2000 == 0:
                print(f"  {kind}: {i + 1} tables, {resident() / 2**20:,.0f} MiB", flush=True)
        elapsed = time.perf_counter() - began
        after = resident()
        cached = list(service._known.values())  # the cache this benchmark is about
        sample = random.Random(0).sample(cached, min(SAMPLE, len(cached)))
        alone = statistics.median(asizeof.asizeof(t) for t in sample)
        entry = asizeof.asizeof(sample) / len(sample)  # what the sample shares counted once
        grown = after - before
        print(
            f"\n{kind}: {len(cached):,} tables cached ({commands:,} commands in {elapsed:.0f} s)\n"
            f"  resident before {before / 2**20:,.1f} MiB, after {after / 2**20:,.1f} MiB"
            f" (goal ≤ {GOAL / 2**20:,.0f} MiB: {'met' if after <= GOAL else 'NOT met'})\n"
            f"  grown {grown / 2**20:,.1f} MiB = {grown / max(1, len(cached)) / 1024:,.1f} KiB a table\n"
            f"  pympler, a cached entry (state, version, hash): median {alone / 1024:,.1f} KiB"
            f" alone, {entry / 1024:,.1f} KiB with what {len(sample)} entries share counted once;"
            f" {len(cached):,} × that = {entry * len(cached) / 2**20:,.1f} MiB"
        )
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=8, help="bot moves after the deal")
    parser.add_argument("--stores", default="sqlite")
    args = parser.parse_args()
    for kind in args.stores.split(","):  # a process each: every store starts from a clean one
        process = multiprocessing.get_context("spawn").Process(
            target=measure, args=(kind, args.tables, args.moves)
        )
        process.start()
        process.join()


if __name__ == "__main__":
    main()
