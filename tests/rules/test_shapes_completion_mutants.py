"""Completion with wildcards as ``services/rules/shapes.py`` works it out, where its mutation run
found no test holding (docs/testing.md): ``wild_need``'s exact count, the 3n+2 size check, the
memo of suit shapes, flowers counted beside the 34 kinds, and hands no wildcard can save.

The rules held: a complete hand is four sets and a pair, fourteen tiles (塘沽 ``004``:
四个三张组，一个二张组，共十四张牌); a wildcard (塘沽's 混) stands for any suited tile, never an honour
(``004``: “混”可以在牌中代替任何一张“万”“饼”“条”). ``wild_need`` promises the fewest wildcards that
make the hand complete; ``is_complete`` only compares it with the wildcards held, so an answer one
or two too low never shows there (the size check fixes the count mod 3): the exact count is held
here, on hands worked out by hand and against the slow brute force of ``test_shapes``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules import shapes
from services.rules.shapes import is_complete, wild_need
from services.rules.tiles import counts_of, parse_tiles
from tests.rules.test_shapes import _counts, hands, slow_complete


@pytest.fixture(autouse=True)
def suits_worked_out_afresh() -> None:
    """``_suit_need`` is memoised for the process: cleared, so that each test here works out its
    own suits (a shape another test cached first would hide a wrong count, and the mutation
    run's per-line choice of tests would not see which test reaches which line)."""
    shapes._suit_need.cache_clear()


def counts(hand: str) -> list[int]:
    return _counts(parse_tiles(hand))


def slow_need(hand: list[int]) -> int:
    """The fewest wildcards by the brute force: the smallest count the size allows that works."""
    wild = (2 - sum(hand)) % 3
    while not slow_complete(hand, wild):
        wild += 3
    return wild


@pytest.mark.parametrize(
    ("hand", "need"),
    [
        ("123m456m789m111p22p", 0),  # complete as it stands: nothing to fill
        ("123m456p789s111z22z", 0),  # the honour pair is the pair
        ("123m456m789m123p", 2),  # four sets: the pair is two wildcards
        ("123m456p789s111z5m", 1),  # a wildcard pairs the lone 5m
        ("9p111222s33s888s", 2),  # the 7p and 8p of a run
        ("1m", 1),  # the lone tile and a wildcard: a pair
    ],
)
def test_wild_need_counts_the_fewest_wildcards_that_complete_a_hand(hand: str, need: int) -> None:
    """``wild_need``: the fewest wildcards making four sets and a pair (塘沽 ``004``), each one a
    suited tile; a hand of sets alone needs exactly two, a pair of wildcards."""
    assert wild_need(counts(hand)) == need


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8).flatmap(lambda size: hands(size, kinds=27)))
def test_wild_need_agrees_with_the_brute_force(tiles: list[int]) -> None:
    """The same count as the brute force's smallest number of wildcards completing the hand, on
    suited hands (where some number always does) small enough for it to search."""
    hand = _counts(tiles)
    assert wild_need(hand) == slow_need(hand)


def test_one_wildcard_cannot_make_a_set_of_two_tiles_far_apart() -> None:
    """A wildcard fills one gap (塘沽 ``004``): 1s and 5s share no set, so with the sets and the
    pair already made, one wildcard does not complete the hand."""
    assert not is_complete(counts("123m456m789m11p1s5s"), 1)


def test_a_hand_one_wildcard_too_big_is_not_complete() -> None:
    """Fourteen tiles, not fifteen (塘沽 ``004``: 共十四张牌): a complete hand and a spare
    wildcard are no win, though the wildcard is not needed."""
    hand = counts("123m456m789m123p11s")
    assert is_complete(hand, 0)
    assert not is_complete(hand, 1)


def test_flowers_counted_beside_the_34_kinds_play_no_part_in_a_wildcard_hand() -> None:
    """Counts may be 42 long, flowers after the 34 kinds (``tiles.counts_of``'s default, which
    ``ready.as_counts`` takes too); ``is_complete`` reads only the 34 kinds, with or without a
    wildcard, so a flower counted there changes nothing."""
    tiles = parse_tiles("123m456p789s111z5m")
    with_flower = counts_of([*tiles, *parse_tiles("1f")])
    assert len(with_flower) == 42
    assert is_complete(counts_of(tiles), 1)
    assert is_complete(with_flower, 1)


def test_a_suit_shape_is_worked_out_once_per_process() -> None:
    """The module's promise (its docstring) that makes wait search cheap, and what the benchmarks'
    cold start (``bench_analysis.clear_caches``) clears: a suit's nine counts are analysed once,
    then looked up."""
    hand = counts("1379m2468p1s")
    wild_need(hand)
    before = shapes._suit_need.cache_info()
    wild_need(hand)
    after = shapes._suit_need.cache_info()
    assert after.misses == before.misses
    assert after.hits > before.hits


def test_no_pile_of_wildcards_completes_three_lone_honours() -> None:
    """A wildcard never stands for an honour (塘沽 ``004``), so however many are held, three lone
    honours stay incomplete: here 98 of them, a size that the check lets through."""
    assert not is_complete(counts("1z2z3z"), 98)


@pytest.mark.xfail(
    strict=True,
    reason="engine: an impossible hand's wild_need is the sentinel _INF = 99, and is_complete "
    "compares it with the wildcards held, so 99 or more wildcards 'complete' any hand of the right "
    "size; unreachable in play (塘沽 has 7 混 in all)",
)
def test_no_pile_of_wildcards_completes_two_lone_honours() -> None:
    """As above with 99 wildcards: a lone 1z and 2z can never be sets or a pair (塘沽 ``004``)."""
    assert not is_complete(counts("1z2z"), 99)
