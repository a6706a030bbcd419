"""向听 (shanten): how many tile exchanges a hand is from ready.

The winning bot steers by it, and the engine uses it as a cheap gate before searching for 听
discards: it never overstates the distance, so a hand it calls more than one step away cannot
be made ready by any discard.

The classic count ``8 - 2·sets - partial sets - pair`` over the best split of the hand into
sets, partial sets (two of a run, or a pair) and one pair, with at most four sets and partial
sets together (exposed melds count as sets). Each suit is split once per shape and memoised,
so a whole-hand value costs a few small cross products. ``-1`` means complete, ``0`` ready.

A wildcard (塘沽's 混) is counted as one step closer each; it is an estimate, not the exact
value, which is all a bot's heuristic needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

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
    honours = counts[27:34]
    return (honours.count(3) + honours.count(4), 0, honours.count(2))


def _combine(
    groups: tuple[tuple[Split, ...], tuple[Split, ...], tuple[Split, ...]],
    honour: Split,
    melds: int,
) -> int:
    """The best value over one split per suit, the honours' split fixed."""
    room = 4 - melds
    best = 8
    s0, s1, s2 = groups
    for m0, t0, p0 in s0:
        for m1, t1, p1 in s1:
            m01, t01, p01 = honour[0] + m0 + m1, t0 + t1, honour[2] + p0 + p1
            for m2, t2, p2 in s2:
                sets, partial, pairs = m01 + m2, t01 + t2, p01 + p2
                has_pair = 1 if pairs else 0
                partial += pairs - has_pair  # further pairs serve as partial sets
                if sets > room:
                    sets = room
                if partial > room - sets:
                    partial = room - sets
                value = 8 - 2 * (sets + melds) - partial - has_pair
                if value < best:
                    best = value
    return best


def _groups(
    counts: Sequence[int],
) -> tuple[tuple[Split, ...], tuple[Split, ...], tuple[Split, ...]]:
    return (
        _suit_splits(tuple(counts[0:9])),
        _suit_splits(tuple(counts[9:18])),
        _suit_splits(tuple(counts[18:27])),
    )


def regular_shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Shanten of four sets and a pair, ``melds`` sets already laid down."""
    return _combine(_groups(counts), _honour_split(counts), melds)


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """七对: a kind held four times is two pairs, as the engine's 七对 reads it where a variant
    allows it (山东, 塘沽); where one does not, this only understates the distance, which the
    engine's gate before the 听 search allows and never the reverse."""
    return 6 - _pairs(counts)


def _pairs(counts: Sequence[int]) -> int:
    return sum(c // 2 for c in counts[:NUM_KINDS])


def shanten(counts: Sequence[int], melds: int = 0, seven_pairs: bool = False, wild: int = 0) -> int:
    """Steps from ready (0) or complete (-1): the better of the regular and 七对 shapes."""
    value = regular_shanten(counts, melds)
    if seven_pairs and melds == 0:
        value = min(value, seven_pairs_shanten(counts))
    return max(-1, value - wild) if wild else value


def after_each_draw(
    counts: list[int], melds: int = 0, seven_pairs: bool = False, wild: int = 0
) -> list[int | None]:
    """Shanten after drawing each kind (None where the hand holds all four): the useful draws.

    Only the suit the drawn tile joins changes, so each value is one cached suit lookup and a
    small combination, not a whole-hand analysis.
    """
    groups = list(_groups(counts))
    honour = _honour_split(counts)
    pairs = _pairs(counts)
    found: list[int | None] = []
    for t in range(NUM_KINDS):
        c = counts[t]
        if c >= 4:
            found.append(None)
            continue
        counts[t] += 1
        if t < 27:
            g = t // 9
            trial = list(groups)
            trial[g] = _suit_splits(tuple(counts[g * 9 : g * 9 + 9]))
            value = _combine((trial[0], trial[1], trial[2]), honour, melds)
        else:
            value = _combine((groups[0], groups[1], groups[2]), _honour_split(counts), melds)
        counts[t] -= 1
        if seven_pairs and melds == 0:
            value = min(value, 6 - pairs - c % 2)  # a drawn tile pairs a kind held oddly
        found.append(max(-1, value - wild) if wild else value)
    return found


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
