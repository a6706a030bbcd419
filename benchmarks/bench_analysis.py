"""Hand analysis speed: the waits of 13-tile hands, ours against the PyPI ``mahjong`` package.

Both do the same job on the same hands in one run: for each hand, which of the 34 tile kinds
complete it. Ours is ``services.rules.shapes.waits``; theirs is ``Agari().is_agari`` tried on
each of the 34 candidate tiles (a kind already held four times is skipped by both). Hands are
half near-ready (a complete hand of four sets and a pair with one tile taken out) and half
random draws from the 136-tile set, from a fixed seed.

Each round times both over every hand; the figures are the medians over the rounds. "warm" is a
long-running process (``shapes`` memoises suit shapes); "cold" clears those caches before each
round, so it pays for every suit shape again.

    .venv/bin/pip install mahjong
    .venv/bin/python benchmarks/bench_analysis.py [--hands 2000] [--rounds 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from services.rules import shapes

Hand = list[int]  # counts per kind, 34 long


def near_ready_hand(rng: random.Random) -> Hand:
    """Four sets and a pair, drawn so that no kind is used more than four times, minus one tile."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                suit, start = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    counts[suit * 9 + start + k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            break
    held = [t for t in range(34) for _ in range(counts[t])]
    counts[rng.choice(held)] -= 1
    return counts


def random_hand(rng: random.Random) -> Hand:
    counts = [0] * 34
    for t in rng.sample([t for t in range(34) for _ in range(4)], 13):
        counts[t] += 1
    return counts


def make_hands(n: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    return [near_ready_hand(rng) if i % 2 == 0 else random_hand(rng) for i in range(n)]


def ours(hands: list[Hand]) -> list[list[int]]:
    return [shapes.waits(h) for h in hands]


def theirs_factory() -> Callable[[list[Hand]], list[list[int]]]:
    from mahjong.agari import Agari

    agari = Agari()

    def theirs(hands: list[Hand]) -> list[list[int]]:
        out = []
        for hand in hands:
            work = list(hand)
            found = []
            for t in range(34):
                if work[t] >= 4:
                    continue
                work[t] += 1
                if agari.is_agari(work):
                    found.append(t)
                work[t] -= 1
            out.append(found)
        return out

    return theirs


def clear_caches() -> None:
    """A cold start: every per-suit shape worked out again."""
    shapes._suit_need.cache_clear()
    shapes._suit_info.cache_clear()


def timed(fn: Callable[[list[Hand]], object], hands: list[Hand], before: Callable[[], None] | None = None) -> float:
    """Hands per second of one pass."""
    if before:
        before()
    start = time.perf_counter()
    fn(hands)
    return len(hands) / (time.perf_counter() - start)


def agreement(hands: list[Hand], theirs: Callable[[list[Hand]], list[list[int]]]) -> tuple[int, int]:
    """(hands where both agree, hands where they differ only by 七对/国士, which ours leaves out)."""
    same = special = 0
    for hand, a, b in zip(hands, ours(hands), theirs(hands), strict=True):
        if a == b:
            same += 1
        elif set(a) <= set(b) and all(not shapes.is_complete(_plus(hand, t)) for t in set(b) - set(a)):
            special += 1
    return same, special


def _plus(hand: Hand, t: int) -> Hand:
    out = list(hand)
    out[t] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        theirs = theirs_factory()
    except ImportError:
        print("the mahjong package is missing: .venv/bin/pip install mahjong", file=sys.stderr)
        return 2
    hands = make_hands(args.hands, args.seed)
    same, special = agreement(hands, theirs)
    runs: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "mahjong")}
    for _ in range(args.rounds):  # interleaved, so drift in the machine hits all alike
        runs["cold"].append(timed(ours, hands, clear_caches))
        runs["warm"].append(timed(ours, hands))
        runs["mahjong"].append(timed(theirs, hands))
    rate = {k: statistics.median(v) for k, v in runs.items()}
    print(f"hands: {len(hands)} (half near-ready, half random), seed {args.seed}, rounds {args.rounds}")
    print(f"waits agree on {same}/{len(hands)} hands ({special} differ only by 七对/国士, which mahjong counts)")
    print(f"paiju shapes.waits, warm    : {rate['warm']:10,.0f} hands/s  {rate['warm'] / rate['mahjong']:5.1f}x")
    print(f"paiju shapes.waits, cold    : {rate['cold']:10,.0f} hands/s  {rate['cold'] / rate['mahjong']:5.1f}x")
    print(f"mahjong Agari().is_agari x34: {rate['mahjong']:10,.0f} hands/s   1.0x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
