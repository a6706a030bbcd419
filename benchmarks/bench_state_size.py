"""How big a table's folded state is, mid-hand, in memory and as its JSON snapshot, per variant.

Random legal play (``services.bots.random_bot``) from seeded deals; each hand is stopped when
half of the tiles it will draw are drawn (mid-hand: every seat has discards, some melds, the
wall half gone), and the state there is measured:

- **in memory**: ``pympler.asizeof`` of the whole ``TableState`` object graph (the hand, its
  seats, the wall, the series, the presence and timing), each object counted once however often
  it is shared (small ints and the empty tuple are shared by the interpreter too);
- **JSON**: the snapshot the table service stores (``services.tables.loader.save_snapshot``):
  ``encode_state`` as canonical JSON, and the whole document with the covered hash and the MAC.

Medians and maxima over ``--hands`` hands per variant; the goal is at most 16 KB in memory.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_state_size.py [--hands 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from pympler import asizeof

from events.hashchain import canonical_json
from services.bots.random_bot import random_command
from services.bots.runner import hand_seed, open_table
from services.rules.table import decide_and_evolve
from services.rules.table.commands import StartHand
from services.rules.table.legal import seats_to_act
from services.rules.table.state import TableState
from services.rules.variants import VARIANTS
from services.tables.state_json import encode_state

LIMIT = 16 * 1024
MAX_MOVES = 2000


@dataclass(frozen=True)
class Size:
    memory: int  # bytes of the object graph
    state_json: int  # bytes of the state's canonical JSON
    snapshot_json: int  # bytes of the stored snapshot document


def measure(state: TableState) -> Size:
    encoded = encode_state(state)
    document = {"covers": "0" * 64, "state": encoded, "mac": "0" * 64}  # as save_snapshot
    return Size(
        memory=asizeof.asizeof(state),
        state_json=len(canonical_json(encoded).encode()),
        snapshot_json=len(canonical_json(document).encode()),
    )


def mid_hand_states(variant: str, hands: int) -> list[TableState]:
    """One state per hand, taken once half of the hand's draws are made."""
    found = []
    table, _ = open_table(variant)
    for index in range(hands):
        seed = hand_seed("size", variant, index)
        rng = random.Random(index)
        _, start = decide_and_evolve(table, StartHand(seed=seed))
        states = [start]  # replayed below to find the middle of this hand's draws
        state = start
        for _ in range(MAX_MOVES):
            if state.hand_over:
                break
            _, state = decide_and_evolve(state, random_command(state, seats_to_act(state)[0], rng))
            states.append(state)
        drawn = [s.hand.head if s.hand is not None else 0 for s in states]
        middle = drawn[0] + (drawn[-1] - drawn[0]) // 2
        found.append(next(s for s, d in zip(states, drawn, strict=True) if d >= middle))
        table = state
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50, help="hands (states measured) per variant")
    args = parser.parse_args()
    print(f"mid-hand states, {args.hands} hands per variant; medians (max)")
    print(f"{'variant':11} {'in memory':>16} {'state JSON':>16} {'snapshot JSON':>16}  ≤ 16 KB")
    for variant in sorted(VARIANTS):
        sizes = [measure(s) for s in mid_hand_states(variant, args.hands)]
        cells = []
        for field in ("memory", "state_json", "snapshot_json"):
            values = [getattr(s, field) for s in sizes]
            cells.append(f"{statistics.median(values):>8,.0f} ({max(values):>5,})")
        within = max(s.memory for s in sizes) <= LIMIT
        print(
            f"{variant:11} {cells[0]:>16} {cells[1]:>16} {cells[2]:>16}  {'yes' if within else 'NO'}"
        )


if __name__ == "__main__":
    main()
