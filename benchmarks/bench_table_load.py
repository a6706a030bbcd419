"""Table load time, with and without snapshots, for a real table of about 1,000 events.

Winning bots play hands through ``TableService`` on the chosen store until the stream holds
``--events`` events; then ``loader.load`` (a fresh process's view: nothing cached) is timed
folding the whole stream, and from the latest snapshot plus its tail. Medians of ``--rounds``.

    .venv/bin/python benchmarks/bench_table_load.py --store "postgresql://postgres@127.0.0.1:5432/paiju_test?schema=bench_load"
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid

from events.store import open_store
from services.bots.runner import PLAYERS
from services.bots.winning_bot import winning_command
from services.rules.table.commands import StartHand
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService
from services.tables.loader import load


def build(service: TableService, table_id: str, variant: str, events: int) -> int:
    service.open_table(table_id, variant, PLAYERS, command_id=f"{table_id}/open")
    rng = random.Random(1)
    moves = 0
    while service.store.stream_version(table_id) < events:
        moves += 1
        outcome = service.handle(table_id, StartHand(), command_id=f"{table_id}/{moves}")
        assert isinstance(outcome, Accepted) and outcome.state is not None
        state = outcome.state
        while not state.hand_over:
            seat = seats_to_act(state)[0]
            moves += 1
            command = winning_command(state, seat, rng)
            outcome = service.handle(table_id, command, command_id=f"{table_id}/{moves}")
            assert isinstance(outcome, Accepted) and outcome.state is not None
            state = outcome.state
    return service.store.stream_version(table_id)


def timed(fn: object, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="sqlite:////tmp/paiju-bench-load.sqlite3")
    parser.add_argument("--variant", default="shandong")
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--snapshot-every", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    store = open_store(args.store)
    key = b"bench-table-load snapshot key"
    service = TableService(store, snapshot_every=args.snapshot_every, snapshot_key=key)
    table_id = f"bench-load-{uuid.uuid4().hex[:8]}"
    total = build(service, table_id, args.variant, args.events)
    snapshot = store.load_snapshot(table_id)
    full = timed(lambda: load(store, table_id, use_snapshot=False), args.rounds)
    snap = timed(lambda: load(store, table_id, snapshot_key=key), args.rounds)
    assert load(store, table_id, use_snapshot=False).state == load(store, table_id, snapshot_key=key).state
    tail = total - (snapshot.version if snapshot else 0)
    print(
        f"store {args.store.split('?')[0]}, {args.variant}, {total} events, snapshot at {snapshot.version if snapshot else 'none'} (tail {tail})"
    )
    print(f"full fold      : {full:7.2f} ms (median of {args.rounds})")
    print(f"snapshot + tail: {snap:7.2f} ms  ({full / snap:.1f}x faster)")
    store.close()


if __name__ == "__main__":
    main()
