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
    if wild == 0:
        return _complete_plain(counts)
    need = wild_need(counts)
    return need <= wild


def _complete_plain(counts: Sequence[int]) -> bool:
    """Without wildcards: every suit splits into sets, exactly one group holding the pair."""
    pairs = 0
    for start in (0, 9, 18):
        _, ok_sets, ok_pair, _, _ = _suit_info(tuple(counts[start : start + 9]))
        if ok_pair:
            pairs += 1
        elif not ok_sets:
            return False
    for t in range(27, 34):
        c = counts[t]
        if c == 2:
            pairs += 1
        elif c not in (0, 3):
            return False
    return pairs == 1


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
    found = set(_waits_plain(counts) if wild == 0 else _waits_wild(counts, wild))
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
    # A natural suited tile saves at most the one wildcard that could have stood in its place,
    # so a hand needing more than one wildcard beyond those held can wait on an honour at most.
    candidates = range(NUM_KINDS)
    if _combine(sets, pairs, honour_sets, honour_pair) > wild + 1:
        candidates = range(27, NUM_KINDS)
    for t in candidates:
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
    natural = counts[:NUM_KINDS]
    if sum(natural) + wild != 13 or NUM_KINDS - natural.count(0) > 7:
        return []  # 13 tiles with at most wild + 1 odd kinds are at most seven kinds
    odd = {t for t in range(NUM_KINDS) if counts[t] % 2}
    if len(odd) > wild + 1:
        return []  # one more tile fixes one odd kind; the wildcards pair the rest or nothing
    found: list[Tile] = []
    for t in range(NUM_KINDS):
        if counts[t] >= 4 or (counts[t] == 3 and not quad_as_two_pairs):
            continue
        after = odd ^ {t}
        if len(after) <= wild and all(u < 27 for u in after):
            found.append(t)
    return found


def _sets_only(counts: list[int]) -> bool:
    """A suit without wildcards splits into sets: at the lowest rank left, what a triplet
    cannot take (the count mod 3) must start runs."""
    c = list(counts)
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
    """Everything wait search asks of one suit, worked out once per shape: (residue, splits
    into sets, into sets and a pair, ranks completing it into sets, into sets and a pair)."""
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


def _waits_plain(counts: Sequence[int]) -> list[Tile]:
    """Waits without wildcards. Counted by residues: a 3n+1 hand can take its tile only in
    the one group short of a pair, or in one of two groups that each hold a pair."""
    infos = (
        _suit_info(tuple(counts[0:9])),
        _suit_info(tuple(counts[9:18])),
        _suit_info(tuple(counts[18:27])),
    )
    singles: list[Tile] = []
    pairs: list[Tile] = []
    for t in range(27, 34):
        c = counts[t]
        if c == 1:
            singles.append(t)
        elif c == 2:
            pairs.append(t)
        elif c == 4:
            return []
    found: list[Tile] = []
    valid = [info[1] or info[2] for info in infos]
    if not singles:
        for g in range(3):
            a, b = (g + 1) % 3, (g + 2) % 3
            if not (valid[a] and valid[b]):
                continue
            residue, _, _, into_sets, into_pair = infos[g]
            other_pairs = infos[a][2] + infos[b][2]
            if residue == 1 and not other_pairs and not pairs:
                found.extend(g * 9 + r for r in into_pair)
            elif residue == 2 and other_pairs + len(pairs) == 1:
                found.extend(g * 9 + r for r in into_sets)
    all_sets = infos[0][1] and infos[1][1] and infos[2][1]
    if len(singles) == 1 and not pairs and all_sets:
        found.append(singles[0])  # 单钓 an honour
    elif not singles and len(pairs) == 2 and all_sets:
        found.extend(pairs)  # 对倒 between two honour pairs
    elif not singles and len(pairs) == 1 and sum(info[2] for info in infos) == 1 and all(valid):
        found.append(pairs[0])
    return sorted(found)
