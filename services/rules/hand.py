"""Every reading of a hand: how its tiles split into sets and a pair.

Slower than ``shapes`` and exhaustive; used where a rule asks *how* a hand wins (卡当, 对倒,
一条龙, 混钓 …), not whether it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from services.rules.tiles import NUM_KINDS, Tile

GroupKind = Literal["pair", "triplet", "run"]


@dataclass(frozen=True, slots=True, order=True)
class Group:
    """One set or the pair of a reading; ``tiles`` are what the tiles read as.

    ``wild`` counts the wildcards in it. A group made only of wildcards has ``tiles == ()``:
    it may read as any suited tile.
    """

    kind: GroupKind
    tiles: tuple[Tile, ...]
    wild: int = 0


Reading = tuple[Group, ...]


def readings(counts: list[int] | tuple[int, ...], wild: int = 0) -> list[Reading]:
    """All distinct readings of 3n+2 concealed tiles as n sets and one pair."""
    work = list(counts[:NUM_KINDS])
    if (sum(work) + wild) % 3 != 2:
        return []
    found: set[Reading] = set()
    _search(work, wild, False, [], found)
    return sorted(found)


def _search(
    work: list[int], wild: int, have_pair: bool, groups: list[Group], found: set[Reading]
) -> None:
    i = next((k for k, c in enumerate(work) if c), -1)
    if i < 0:
        _finish_with_wildcards(wild, have_pair, groups, found)
        return
    suited = i < 27
    # pair
    if not have_pair:
        for real in (2, 1):
            need = 2 - real
            if work[i] >= real and wild >= need and (suited or need == 0):
                work[i] -= real
                groups.append(Group("pair", (i, i), need))
                _search(work, wild - need, True, groups, found)
                groups.pop()
                work[i] += real
    # triplet
    for real in (3, 2, 1):
        need = 3 - real
        if work[i] >= real and wild >= need and (suited or need == 0):
            work[i] -= real
            groups.append(Group("triplet", (i, i, i), need))
            _search(work, wild - need, have_pair, groups, found)
            groups.pop()
            work[i] += real
    # runs that contain i; lower neighbours can only be wildcards, as i is the lowest tile left
    if suited:
        rank = i % 9
        for start in range(max(rank - 2, 0), min(rank, 6) + 1):
            base = i - rank + start
            run = (base, base + 1, base + 2)
            used: list[int] = []
            need = 0
            for t in run:
                if t == i or (t > i and work[t] > 0 and t not in used):
                    used.append(t)
                else:
                    need += 1
            if i not in used or need > wild:
                continue
            _try_run_variants(work, wild, have_pair, groups, found, run, i)
    return


def _try_run_variants(
    work: list[int],
    wild: int,
    have_pair: bool,
    groups: list[Group],
    found: set[Reading],
    run: tuple[int, int, int],
    i: int,
) -> None:
    """A run holding tile ``i``; each higher member is real or a wildcard, both tried."""
    options: list[list[bool]] = [[]]
    for t in run:
        if t == i:
            options = [o + [True] for o in options]
        elif t < i or work[t] == 0:
            options = [o + [False] for o in options]
        else:
            options = [o + [True] for o in options] + [o + [False] for o in options]
    for real_mask in options:
        need = real_mask.count(False)
        if need > wild:
            continue
        for t, real in zip(run, real_mask, strict=True):
            if real:
                work[t] -= 1
        groups.append(Group("run", run, need))
        _search(work, wild - need, have_pair, groups, found)
        groups.pop()
        for t, real in zip(run, real_mask, strict=True):
            if real:
                work[t] += 1


def _finish_with_wildcards(
    wild: int, have_pair: bool, groups: list[Group], found: set[Reading]
) -> None:
    """Leftover wildcards form sets (and the pair) among themselves."""
    extra: list[Group] = []
    if not have_pair:
        if wild < 2:
            return
        extra.append(Group("pair", (), 2))
        wild -= 2
    if wild % 3:
        return
    extra.extend(Group("triplet", (), 3) for _ in range(wild // 3))
    found.add(tuple(sorted(groups + extra)))


def middle_of_run(reading: Reading, t: Tile) -> bool:
    """卡当 reading: tile ``t`` sits in the middle of a run of this reading."""
    return any(g.kind == "run" and g.tiles[1] == t for g in reading)
