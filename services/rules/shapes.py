"""Fast shape tests on tile counts: is a hand complete, and on which tiles does it wait.

A hand is counted per kind (a list of 34 ints). Suits are analysed one at a time and
memoised by their nine counts, so a suit shape is worked out once per process; that is
what makes wait search cheap (see ``benchmarks/bench_analysis.py``).

A wildcard (Tanggu's 混) stands for any suited tile, never an honour: ``wild`` counts the
wildcards held, already removed from ``counts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from services.rules.tiles import NUM_KINDS, Tile

_INF = 99
_GROUPS = ((0, 9), (9, 18), (18, 27))


@cache
def _suit_need(key: tuple[int, ...], with_pair: bool) -> int:
    """Fewest wildcards that turn a suit into sets (and one pair when ``with_pair``)."""
    i = next((k for k, c in enumerate(key) if c), -1)
    if i < 0:
        return 2 if with_pair else 0
    best = _INF
    c = key[i]
    rest = list(key)
    # a triplet of this tile, wildcards filling the gap
    take = min(c, 3)
    rest[i] -= take
    best = min(best, 3 - take + _suit_need(tuple(rest), with_pair))
    rest[i] += take
    # a pair of this tile
    if with_pair:
        take = min(c, 2)
        rest[i] -= take
        best = min(best, 2 - take + _suit_need(tuple(rest), False))
        rest[i] += take
    # a run holding this tile: it starts here, or (for an 8 or 9) at the 7, the lower members
    # then being wildcards, since this is the lowest tile left
    start = min(i, 6)
    missing = 0
    rest[i] -= 1
    for j in range(start, start + 3):
        if j == i:
            continue
        if j > i and rest[j]:
            rest[j] -= 1
        else:
            missing += 1
    return min(best, missing + _suit_need(tuple(rest), with_pair))


def _honour_need(counts: Sequence[int], with_pair: bool) -> int:
    """Honours cannot be filled by wildcards: each kind is 0 or 3 (or the one pair of 2)."""
    pair_used = False
    for c in counts[27:34]:
        if c in (0, 3):
            continue
        if c == 2 and with_pair and not pair_used:
            pair_used = True
            continue
        return _INF
    if with_pair and not pair_used:
        return -1  # the pair must come from elsewhere
    return 0


def _needs(counts: Sequence[int]) -> tuple[list[int], list[int], int, int]:
    """Per suit: wildcards to make sets, and sets with the pair; then the same for honours."""
    keys = [tuple(counts[a:b]) for a, b in _GROUPS]
    return (
        [_suit_need(k, False) for k in keys],
        [_suit_need(k, True) for k in keys],
        _honour_need(counts, False),
        _honour_need(counts, True),
    )


def _combine(sets: list[int], pairs: list[int], honour_sets: int, honour_pair: int) -> int:
    """Fewest wildcards for the whole hand, the pair in one group or made of two wildcards."""
    best = _INF
    total_sets = sum(sets)
    if honour_pair >= 0:  # the pair is an honour pair
        best = min(best, honour_pair + total_sets)
    if honour_sets < _INF:
        for g in range(3):
            best = min(best, honour_sets + total_sets - sets[g] + pairs[g])
        best = min(best, honour_sets + total_sets + 2)  # a pair made of two wildcards
    return best


def wild_need(counts: Sequence[int]) -> int:
    """Fewest wildcards that make ``counts`` (3n+2 tiles with the wildcards) a complete hand."""
    return _combine(*_needs(counts))


def is_complete(counts: Sequence[int], wild: int = 0) -> bool:
    """Four sets and a pair (3n+2 tiles in all), wildcards standing in for suited tiles."""
    total = sum(counts[:NUM_KINDS]) + wild
    if total % 3 != 2:
        return False
    need = wild_need(counts)
    return need <= wild


def is_seven_pairs(counts: Sequence[int], wild: int = 0, quad_as_two_pairs: bool = True) -> bool:
    """七对: fourteen concealed tiles in seven pairs; a wildcard pairs with any suited tile."""
    if sum(counts[:NUM_KINDS]) + wild != 14:
        return False
    singles = 0
    for t, c in enumerate(counts[:NUM_KINDS]):
        if c == 4 and not quad_as_two_pairs:
            return False
        if c % 2:
            if t >= 27:
                return False  # an honour single cannot be paired by a wildcard
            singles += 1
    return singles <= wild


def waits(counts: Sequence[int], wild: int = 0, seven_pairs: bool = False) -> list[Tile]:
    """Tile kinds that complete a 3n+1 hand, in mpsz order; a kind held four times is no wait."""
    if wild == 0 and not seven_pairs:
        return _waits_plain(counts)
    found = set(_waits_wild(counts, wild))
    if seven_pairs:
        found.update(_seven_pairs_waits(counts, wild))
    return sorted(found)


def _waits_wild(counts: Sequence[int], wild: int) -> list[Tile]:
    """Waits with wildcards: only the group the new tile joins is worked out again."""
    if (sum(counts[:NUM_KINDS]) + wild) % 3 != 1:
        return []
    sets, pairs, honour_sets, honour_pair = _needs(counts)
    work = list(counts[:NUM_KINDS])
    found: list[Tile] = []
    for t in range(NUM_KINDS):
        if work[t] >= 4:
            continue
        work[t] += 1
        if t < 27:
            g, start = t // 9, t - t % 9
            key = tuple(work[start : start + 9])
            new_sets, new_pairs = list(sets), list(pairs)
            new_sets[g], new_pairs[g] = _suit_need(key, False), _suit_need(key, True)
            need = _combine(new_sets, new_pairs, honour_sets, honour_pair)
        else:
            need = _combine(sets, pairs, _honour_need(work, False), _honour_need(work, True))
        if need <= wild:
            found.append(t)
        work[t] -= 1
    return found


def _seven_pairs_waits(
    counts: Sequence[int], wild: int, quad_as_two_pairs: bool = True
) -> list[Tile]:
    """七对 waits: the kinds whose copy leaves no more odd kinds than wildcards can pair."""
    if sum(counts[:NUM_KINDS]) + wild != 13:
        return []
    odd = {t for t in range(NUM_KINDS) if counts[t] % 2}
    found: list[Tile] = []
    for t in range(NUM_KINDS):
        if counts[t] >= 4 or (counts[t] == 3 and not quad_as_two_pairs):
            continue
        after = odd ^ {t}
        if len(after) <= wild and all(u < 27 for u in after):
            found.append(t)
    return found


@cache
def _suit_completions(key: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Ranks that complete a suit into sets, and into sets plus a pair."""
    into_sets: list[int] = []
    into_pair: list[int] = []
    work = list(key)
    for r in range(9):
        if work[r] >= 4:
            continue
        work[r] += 1
        shape = tuple(work)
        if _suit_need(shape, False) == 0:
            into_sets.append(r)
        if _suit_need(shape, True) == 0:
            into_pair.append(r)
        work[r] -= 1
    return tuple(into_sets), tuple(into_pair)


def _waits_plain(counts: Sequence[int]) -> list[Tile]:
    """Waits without wildcards, by suit residues: only one or two groups can take the tile."""
    groups: list[tuple[int, int, int]] = []  # (start, residue, kind: 0 suit / 1 honour)
    for start, stop in _GROUPS:
        groups.append((start, sum(counts[start:stop]) % 3, 0))
    honour_tiles = [t for t in range(27, 34) if counts[t]]
    found: list[Tile] = []
    # valid fixed shape of each group: sets only (residue 0) or with pair (residue 2)
    ok_sets = [r == 0 and _suit_need(tuple(counts[s : s + 9]), False) == 0 for s, r, _ in groups]
    ok_pair = [r == 2 and _suit_need(tuple(counts[s : s + 9]), True) == 0 for s, r, _ in groups]
    honour_singles = [t for t in honour_tiles if counts[t] == 1]
    honour_pairs = [t for t in honour_tiles if counts[t] == 2]
    if any(counts[t] == 4 for t in honour_tiles):
        return []
    # case A: the new tile lands in a suit
    for g, (start, residue, _) in enumerate(groups):
        others_sets = all(ok_sets[h] for h in range(3) if h != g)
        others_pair_count = sum(ok_pair[h] for h in range(3) if h != g)
        others_valid = all(ok_sets[h] or ok_pair[h] for h in range(3) if h != g)
        if not others_valid or honour_singles:
            continue
        into_sets, into_pair = _suit_completions(tuple(counts[start : start + 9]))
        pairs_elsewhere = others_pair_count + len(honour_pairs)
        if residue == 1 and others_sets and not honour_pairs:
            found.extend(start + r for r in into_pair)
        elif residue == 2 and pairs_elsewhere == 1:
            found.extend(start + r for r in into_sets)
    # case B: the new tile is an honour
    suits_sets = all(ok_sets)
    suits_one_pair = sum(ok_pair) == 1 and all(ok_sets[h] or ok_pair[h] for h in range(3))
    if len(honour_singles) == 1 and not honour_pairs and suits_sets:
        found.append(honour_singles[0])  # 单钓 an honour
    elif not honour_singles and len(honour_pairs) == 2 and suits_sets:
        found.extend(honour_pairs)  # 对倒 between two honour pairs
    elif not honour_singles and len(honour_pairs) == 1 and suits_one_pair:
        found.append(honour_pairs[0])
    return sorted(found)
