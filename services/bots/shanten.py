"""向听 (shanten): how many tile exchanges a hand is from ready, for the winning bot's choices.

The classic count ``8 - 2·sets - partial sets - pair`` over the best split of the hand into
sets, partial sets (two of a run, or a pair) and one pair, with at most four sets and partial
sets together (exposed melds count as sets). Each suit is split once per shape and memoised,
so a whole-hand value costs a few small cross products. ``-1`` means complete, ``0`` ready.

A wildcard (塘沽's 混) is counted as one step closer each; it is an estimate, not the exact
value, which is all a bot's heuristic needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import product

from services.rules.tiles import NUM_KINDS, Tile

Split = tuple[int, int, int]  # (sets, partial sets, pairs)


def _pareto(options: set[Split]) -> tuple[Split, ...]:
    """Drop every split that another beats or equals in all three counts."""
    kept = [
        o
        for o in options
        if not any(p != o and p[0] >= o[0] and p[1] >= o[1] and p[2] >= o[2] for p in options)
    ]
    return tuple(sorted(kept, reverse=True))


@cache
def _suit_splits(key: tuple[int, ...]) -> tuple[Split, ...]:
    """Every useful split of one suit's nine counts (run tiles allowed)."""
    i = next((k for k, c in enumerate(key) if c), -1)
    if i < 0:
        return ((0, 0, 0),)
    found: set[Split] = set()
    rest = list(key)

    def add(extra: Split, tiles: Sequence[int]) -> None:
        for t in tiles:
            rest[t] -= 1
        for m, t_, p in _suit_splits(tuple(rest)):
            found.add((m + extra[0], t_ + extra[1], p + extra[2]))
        for t in tiles:
            rest[t] += 1

    add((0, 0, 0), (i,))  # the tile stands alone
    if key[i] >= 3:
        add((1, 0, 0), (i, i, i))
    if key[i] >= 2:
        add((0, 0, 1), (i, i))
    if i <= 6 and key[i + 1] and key[i + 2]:
        add((1, 0, 0), (i, i + 1, i + 2))
    if i <= 7 and key[i + 1]:
        add((0, 1, 0), (i, i + 1))
    if i <= 6 and key[i + 2]:
        add((0, 1, 0), (i, i + 2))
    return _pareto(found)


def _honour_split(counts: Sequence[int]) -> Split:
    sets = sum(1 for c in counts[27:34] if c >= 3)
    pairs = sum(1 for c in counts[27:34] if c == 2)
    return (sets, 0, pairs)


def regular_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of four sets and a pair, ``melds`` sets already laid down."""
    return _regular(tuple(counts[:NUM_KINDS]), melds)


@lru_cache(maxsize=1 << 16)
def _regular(counts: tuple[int, ...], melds: int) -> int:
    groups = [_suit_splits(counts[a : a + 9]) for a in (0, 9, 18)]
    honour = _honour_split(counts)
    room = 4 - melds
    best = 8
    for combo in product(*groups):
        sets = honour[0] + sum(c[0] for c in combo)
        partial = sum(c[1] for c in combo)
        pairs = honour[2] + sum(c[2] for c in combo)
        has_pair = 1 if pairs else 0
        partial += pairs - has_pair  # further pairs serve as partial sets
        sets = min(sets, room)
        partial = min(partial, room - sets)
        value = 8 - 2 * (sets + melds) - partial - has_pair
        best = min(best, value)
    return best


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    pairs = sum(1 for c in counts[:NUM_KINDS] if c >= 2)
    kinds = sum(1 for c in counts[:NUM_KINDS] if c)
    return 6 - pairs + max(0, 7 - kinds)


def shanten(counts: Sequence[int], melds: int = 0, seven_pairs: bool = False, wild: int = 0) -> int:
    """Steps from ready (0) or complete (-1): the better of the regular and 七对 shapes."""
    value = regular_shanten(counts, melds)
    if seven_pairs and melds == 0:
        value = min(value, seven_pairs_shanten(counts))
    return max(-1, value - wild) if wild else value


def counts_of(
    tiles: Sequence[Tile], wildcards: frozenset[Tile] = frozenset()
) -> tuple[list[int], int]:
    """Counts per kind of the natural tiles, and how many wildcards stand apart."""
    counts = [0] * NUM_KINDS
    wild = 0
    for t in tiles:
        if t in wildcards:
            wild += 1
        elif t < NUM_KINDS:
            counts[t] += 1
    return counts, wild
