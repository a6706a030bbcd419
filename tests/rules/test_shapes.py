"""Shape analysis agrees with a slow, independent brute force.

The brute force below knows nothing of ``shapes``: it picks the pair first (real, half wild, or
two wildcards), then peels sets off the lowest tile left, trying every set that tile can be in.
A wildcard stands for any suited tile, never an honour.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.ready import hand_waits
from services.rules.shapes import is_complete, is_seven_pairs, waits
from services.rules.tiles import parse_tiles
from services.rules.variants import get_variant

KINDS = 34


def slow_sets(counts: list[int], wild: int) -> bool:
    """Whether counts plus ``wild`` wildcards split into sets alone."""
    i = next((k for k in range(KINDS) if counts[k]), -1)
    if i < 0:
        return wild % 3 == 0
    suited = i < 27
    for real in (3, 2, 1):  # a triplet of i, wildcards filling it
        need = 3 - real
        if counts[i] >= real and wild >= need and (suited or need == 0):
            counts[i] -= real
            ok = slow_sets(counts, wild - need)
            counts[i] += real
            if ok:
                return True
    if not suited:
        return False
    rank = i % 9
    for start in range(rank - 2, rank + 1):  # every run of the suit that holds i
        if start < 0 or start > 6:
            continue
        members = [i - rank + start + k for k in range(3)]
        if _try_run(counts, wild, members, i):
            return True
    return False


def _try_run(counts: list[int], wild: int, members: list[int], i: int) -> bool:
    """Tile i plus the other members, each real when held (and above i) or a wildcard."""
    others = [m for m in members if m != i]
    for mask in range(4):
        use = [bool(mask & (1 << k)) for k in range(2)]
        if any(u and (m < i or counts[m] == 0) for u, m in zip(use, others, strict=True)):
            continue
        need = use.count(False)
        if need > wild:
            continue
        counts[i] -= 1
        for u, m in zip(use, others, strict=True):
            counts[m] -= u
        ok = slow_sets(counts, wild - need)
        counts[i] += 1
        for u, m in zip(use, others, strict=True):
            counts[m] += u
        if ok:
            return True
    return False


def slow_complete(counts: list[int], wild: int) -> bool:
    """Four sets and a pair (3n+2 tiles), by trying every pair."""
    if (sum(counts) + wild) % 3 != 2:
        return False
    if wild >= 2 and slow_sets(counts, wild - 2):
        return True
    for t in range(KINDS):
        for real in (2, 1):
            need = 2 - real
            if counts[t] >= real and wild >= need and (t < 27 or need == 0):
                counts[t] -= real
                ok = slow_sets(counts, wild - need)
                counts[t] += real
                if ok:
                    return True
    return False


def slow_seven_pairs(counts: list[int], wild: int) -> bool:
    if sum(counts) + wild != 14:
        return False
    odd = [t for t in range(KINDS) if counts[t] % 2]
    return all(t < 27 for t in odd) and len(odd) <= wild


def slow_waits(counts: list[int], wild: int, seven_pairs: bool = False) -> list[int]:
    found = []
    for t in range(KINDS):
        if counts[t] >= 4:
            continue
        counts[t] += 1
        if slow_complete(counts, wild) or (seven_pairs and slow_seven_pairs(counts, wild)):
            found.append(t)
        counts[t] -= 1
    return found


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * KINDS
    for t in tiles:
        counts[t] += 1
    return counts


@st.composite
def hands(draw: st.DrawFn, size: int, kinds: int = KINDS, near_ready: bool = True) -> list[int]:
    """``size`` tiles, at most four of a kind: random, or a complete hand with tiles taken out."""
    if near_ready and draw(st.booleans()):
        tiles: list[int] = []
        for _ in range(4):
            start = draw(st.integers(0, kinds - 1))
            if start < 27 and start % 9 <= 6 and draw(st.booleans()):
                tiles += [start, start + 1, start + 2]
            else:
                tiles += [start] * 3
        tiles += [draw(st.integers(0, kinds - 1))] * 2
        tiles = draw(st.permutations(tiles))[:size]
        if max(_counts(tiles)) <= 4:
            return sorted(tiles)
    pool = [t for t in range(kinds) for _ in range(4)]
    return sorted(draw(st.permutations(pool))[:size])


@settings(max_examples=400, deadline=None)
@given(hands(13))
def test_waits_agree_with_the_brute_force(tiles: list[int]) -> None:
    counts = _counts(tiles)
    assert waits(counts) == slow_waits(counts, 0)


@settings(max_examples=150, deadline=None)
@given(hands(13, kinds=27), st.integers(1, 3))
def test_waits_with_wildcards_agree_with_the_brute_force(tiles: list[int], wild: int) -> None:
    counts = _counts(tiles[wild:])  # the first ``wild`` tiles become wildcards
    assert waits(counts, wild) == slow_waits(counts, wild)


@settings(max_examples=200, deadline=None)
@given(hands(13), st.integers(0, 2))
def test_waits_with_seven_pairs_agree_with_the_brute_force(tiles: list[int], wild: int) -> None:
    counts = _counts(tiles[wild:])
    assert waits(counts, wild, seven_pairs=True) == slow_waits(counts, wild, seven_pairs=True)


@settings(max_examples=300, deadline=None)
@given(hands(14), st.integers(0, 2))
def test_completeness_agrees_with_the_brute_force(tiles: list[int], wild: int) -> None:
    counts = _counts(tiles[wild:])
    assert is_complete(counts, wild) == slow_complete(counts, wild)
    assert is_seven_pairs(counts, wild) == slow_seven_pairs(counts, wild)


def test_eight_nine_and_a_wildcard_make_a_run() -> None:
    assert is_complete(_counts(parse_tiles("89p111222s33s888s")), 1)


def test_a_wildcard_seven_and_eight_complete_a_run_with_a_nine() -> None:
    assert is_complete(_counts(parse_tiles("9p111222s33s888s")), 2)


@settings(max_examples=150, deadline=None)
@given(hands(13, kinds=27), st.sampled_from(parse_tiles("5m1p9s")))
def test_tanggu_waits_read_held_and_drawn_hun_as_wild(tiles: list[int], hun: int) -> None:
    counts = _counts(tiles)
    plain = list(counts)
    wild, plain[hun] = plain[hun], 0
    expected = [t for t in range(KINDS) if counts[t] < 4 and _tanggu_wins(plain, wild, t, hun)]
    assert hand_waits(get_variant("tanggu"), counts, wildcards={hun}) == expected


def _tanggu_wins(plain: list[int], wild: int, t: int, hun: int) -> bool:
    if t == hun:
        return slow_complete(plain, wild + 1) or slow_seven_pairs(plain, wild + 1)
    plain[t] += 1
    ok = slow_complete(plain, wild) or slow_seven_pairs(plain, wild)
    plain[t] -= 1
    return ok


def test_a_nine_gates_hand_waits_on_every_man() -> None:
    assert waits(_counts(parse_tiles("1112345678999m"))) == list(range(9))


def test_a_single_honour_waits_on_itself_only() -> None:
    assert waits(_counts(parse_tiles("123m456p789s111z7z"))) == parse_tiles("7z")


def test_a_wildcard_never_stands_for_an_honour() -> None:
    assert not is_complete(_counts(parse_tiles("123m456p789s111z7z")), 1)
