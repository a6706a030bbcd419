"""What a command's route pays to learn the table's rules version (run by hand, not in tests).

Before issue 23 the route asked the store for the stream's version and folded the table
(``stream_version`` + ``TableFolds.load``: two store reads even with the fold kept); now it
reads the opening event once and remembers it (``TableFolds.rules_version``). Both on the
same store, the same table, interleaved in rounds; medians of the per-call times and of the
per-round ratios (this machine is noisy: read the ratio).

    .venv/bin/python benchmarks/bench_rules_version.py --store sqlite:///tmp/rv.sqlite3
    .venv/bin/python benchmarks/bench_rules_version.py \
        --store "postgresql://postgres@127.0.0.1/paiju_test?schema=bench_rules_version"
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from collections.abc import Callable

from bench_table_load import build

from events.store import open_store
from services.tables import TableService
from services.tables.folds import TableFolds


def per_call(call: Callable[[], object], calls: int) -> float:
    started = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - started) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", default="sqlite:////tmp/bench_rules_version.sqlite3")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    args = parser.parse_args()
    store = open_store(args.store)
    table = f"rv-{uuid.uuid4().hex[:8]}"
    build(TableService(store), table, "harbin", args.events)  # winning bots, whole hands
    folds = TableFolds(store)

    def before() -> object:  # what services/api/tables.has_rules_of did
        return store.stream_version(table) > 0 and folds.load(table).rules_version

    def after() -> object:
        return folds.rules_version(table)

    assert before() == after()
    old, new = [], []
    for _ in range(args.rounds):
        old.append(per_call(before, args.calls))
        new.append(per_call(after, args.calls))
    ratios = [o / n for o, n in zip(old, new, strict=True)]
    print(f"store {args.store.split(':')[0]}, {store.stream_version(table)} events, "
          f"{args.rounds} rounds of {args.calls} calls")  # fmt: skip
    print(f"  version + fold (before): {statistics.median(old) * 1e6:8.1f} µs per command")
    print(f"  opening event, kept (now): {statistics.median(new) * 1e6:6.2f} µs per command")
    print(f"  median ratio before/now: {statistics.median(ratios):.0f}x")
    store.close()


if __name__ == "__main__":
    main()
