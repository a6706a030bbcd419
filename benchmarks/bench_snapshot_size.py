"""A table's JSON snapshot, measured mid-hand in each variant: the bytes a snapshot row holds.

For each variant, ``--tables`` tables are played by random bots from their own seeds to a
point drawn uniformly over the hand (never past its settlement), then the snapshot document
``loader.save_snapshot`` would write (the state as JSON, the covered hash and the MAC) is
encoded as compact UTF-8 JSON. Reported: median and largest bytes, and the state alone.

    .venv/bin/python benchmarks/bench_snapshot_size.py --tables 200
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from services.bots.random_bot import random_command
from services.rules.table import TableState, decide_and_evolve
from services.rules.table.commands import OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.tables.state_json import STATE_SHAPE, encode_state

VARIANTS = ["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"]
PLAYERS = ("ann", "bo", "cy", "di")


def mid_hand(variant: str, index: int) -> TableState:
    rng = random.Random(f"{variant}/{index}")
    _, state = decide_and_evolve(TableState(), OpenTable(table_id=f"size-{index}", variant=variant, players=PLAYERS))
    _, state = decide_and_evolve(state, StartHand(seed=f"snapshot-size-{variant}-{index}"))
    played = [state]
    while not state.hand_over and len(played) < 2000:
        _, state = decide_and_evolve(state, random_command(state, seats_to_act(state)[0], rng))
        played.append(state)
    return rng.choice(played[:-1])  # somewhere in the hand, before it settles


def document_bytes(state: TableState) -> tuple[int, int]:
    encoded = encode_state(state)
    document = {"covers": "0" * 64, "state": encoded, "mac": "0" * 64}
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    return len(json.dumps(document, **compact).encode()), len(json.dumps(encoded, **compact).encode())  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    print(f"state shape {STATE_SHAPE}; {args.tables} tables per variant, each at a random point of its hand")
    print(f"{'variant':<11} {'median B':>9} {'max B':>7} {'state median B':>15}")
    for variant in VARIANTS:
        sizes = [document_bytes(mid_hand(variant, i)) for i in range(args.tables)]
        docs, states = [d for d, _ in sizes], [s for _, s in sizes]
        print(f"{variant:<11} {statistics.median(docs):>9.0f} {max(docs):>7} {statistics.median(states):>15.0f}")


if __name__ == "__main__":
    main()
