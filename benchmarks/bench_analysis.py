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
from functools import cache

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


# --- a proposal for shapes.py, measured here and checked against shapes.waits -------------------
# One cached lookup per suit answers everything ``_waits_plain`` asks of it, and a suit without
# wildcards is split greedily (the count left at the lowest rank, mod 3, must start runs) instead of
# by the wildcard-aware recursion.


def _sets_only(c: list[int]) -> bool:
    c = list(c)
    for i in range(9):
        r = c[i] % 3
        if r:
            if i > 6 or c[i + 1] < r or c[i + 2] < r:
                return False
            c[i + 1] -= r
            c[i + 2] -= r
    return True


def _sets_and_pair(c: list[int]) -> bool:
    for p in range(9):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


@cache
def _suit_info(key: tuple[int, ...]) -> tuple[int, bool, bool, tuple[int, ...], tuple[int, ...]]:
    """(residue, is sets, is sets + pair, ranks completing into sets, into sets + pair)."""
    c = list(key)
    residue = sum(c) % 3
    into_sets: list[int] = []
    into_pair: list[int] = []
    for r in range(9):
        if c[r] < 4:
            c[r] += 1
            if residue == 2 and _sets_only(c):
                into_sets.append(r)
            if residue == 1 and _sets_and_pair(c):
                into_pair.append(r)
            c[r] -= 1
    ok_sets = residue == 0 and _sets_only(c)
    ok_pair = residue == 2 and _sets_and_pair(c)
    return residue, ok_sets, ok_pair, tuple(into_sets), tuple(into_pair)


def proposed_waits(counts: Hand) -> list[int]:
    """Same answer as ``shapes.waits(counts)`` without wildcards."""
    infos = (_suit_info(tuple(counts[0:9])), _suit_info(tuple(counts[9:18])), _suit_info(tuple(counts[18:27])))
    singles: list[int] = []
    pairs: list[int] = []
    for t in range(27, 34):
        c = counts[t]
        if c == 1:
            singles.append(t)
        elif c == 2:
            pairs.append(t)
        elif c == 4:
            return []
    found: list[int] = []
    valid = [i[1] or i[2] for i in infos]
    pair_suits = sum(1 for i in infos if i[2])
    if not singles:
        for g in range(3):
            others = [h for h in range(3) if h != g]
            if not (valid[others[0]] and valid[others[1]]):
                continue
            residue, _, _, into_sets, into_pair = infos[g]
            other_pairs = infos[others[0]][2] + infos[others[1]][2]
            if residue == 1 and not other_pairs and not pairs:
                found.extend(g * 9 + r for r in into_pair)
            elif residue == 2 and other_pairs + len(pairs) == 1:
                found.extend(g * 9 + r for r in into_sets)
    all_sets = infos[0][1] and infos[1][1] and infos[2][1]
    if len(singles) == 1 and not pairs and all_sets:
        found.append(singles[0])
    elif not singles and len(pairs) == 2 and all_sets:
        found.extend(pairs)
    elif not singles and len(pairs) == 1 and pair_suits == 1 and all(valid):
        found.append(pairs[0])
    return sorted(found)


def proposed(hands: list[Hand]) -> list[list[int]]:
    return [proposed_waits(h) for h in hands]


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
    shapes._suit_need.cache_clear()
    shapes._suit_completions.cache_clear()
    _suit_info.cache_clear()


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
    if proposed(hands) != ours(hands):
        print("the proposal disagrees with shapes.waits", file=sys.stderr)
        return 1
    runs: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "mahjong", "proposal cold", "proposal warm")}
    for _ in range(args.rounds):  # interleaved, so drift in the machine hits all alike
        runs["cold"].append(timed(ours, hands, clear_caches))
        runs["warm"].append(timed(ours, hands))
        runs["mahjong"].append(timed(theirs, hands))
        runs["proposal cold"].append(timed(proposed, hands, clear_caches))
        runs["proposal warm"].append(timed(proposed, hands))
    rate = {k: statistics.median(v) for k, v in runs.items()}
    print(f"hands: {len(hands)} (half near-ready, half random), seed {args.seed}, rounds {args.rounds}")
    print(f"waits agree on {same}/{len(hands)} hands ({special} differ only by 七对/国士, which mahjong counts)")
    print(f"paiju shapes.waits, warm    : {rate['warm']:10,.0f} hands/s  {rate['warm'] / rate['mahjong']:5.1f}x")
    print(f"paiju shapes.waits, cold    : {rate['cold']:10,.0f} hands/s  {rate['cold'] / rate['mahjong']:5.1f}x")
    print(f"mahjong Agari().is_agari x34: {rate['mahjong']:10,.0f} hands/s   1.0x")
    for k in ("proposal warm", "proposal cold"):
        print(f"{k + ' (not in shapes)':28}: {rate[k]:10,.0f} hands/s  {rate[k] / rate['mahjong']:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
