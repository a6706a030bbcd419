"""Plain waits as ``services/rules/shapes.py`` counts them by residues (``_waits_plain``), where
its mutation run found no test holding: honour quads, hands of several pairs, a lone honour
beside a suit that does not split, hands that are not 3n+1, and the per-suit memo.

A complete hand is four sets and one pair (3n+2 tiles with the melds taken out; ``001`` writes
them 111 刻子, 123 顺子, 11 将); a 3n+1 hand waits on the kinds that make it one. ``tests/rules/
test_shapes.py`` compares ``waits`` with a brute force on random hands; the hands here are the
rare shapes those draws miss, each checked against the same brute force (``slow_waits``) as
well as against the expected waits written out.
"""

from __future__ import annotations

import pytest

from services.rules import shapes
from services.rules.shapes import waits
from services.rules.tiles import parse_tiles
from tests.rules.test_shapes import _counts, slow_waits


def counts(hand: str) -> list[int]:
    return _counts(parse_tiles(hand))


def plain_waits(hand: str) -> list[int]:
    """``waits`` without wildcards or 七对, checked against the brute force first."""
    found = counts(hand)
    assert slow_waits(found, 0) == waits(found)
    return waits(found)


# -- honours held four times --------------------------------------------------------------------
def test_three_concealed_honour_quads_and_a_single_wait_on_nothing() -> None:
    """Four of an honour kept in hand is a 刻子 and a single no fifth copy can pair, and a
    wildcard never stands for an honour: ``1111z2222z3333z1m`` completes on no tile (without
    七对), not on ``1m`` as if the quads were sets and the 1m a 单钓."""
    assert plain_waits("1111z2222z3333z1m") == []
    assert plain_waits("1111z2222z3333z7z") == []


# -- pairs beyond the one pair ------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand",
    [
        "12345m11p11s11z22z",  # a run and four pairs, two of them honours
        "11z22z33z44z55m123p",  # four honour pairs and a suit pair
        "11z22z33z44z55z123m",  # five honour pairs
    ],
)
def test_four_or_five_pairs_beside_sets_wait_on_nothing(hand: str) -> None:
    """One tile turns one pair into a 刻子 at most, and a complete hand keeps one pair only
    (``001``: 11 将): thirteen tiles with four or five pairs are no 对倒 and wait on nothing
    without 七对."""
    assert plain_waits(hand) == []


# -- 单钓 an honour -------------------------------------------------------------------------------
@pytest.mark.parametrize("hand", ["124m456p789s111z5z", "123m124p789s111z5z", "123m456p124s111z5z"])
def test_a_lone_honour_is_no_wait_while_a_suit_does_not_split_into_sets(hand: str) -> None:
    """单钓 (塘沽 ``004``: 单钓将) wins on the lone tile only when everything else is sets: a
    ``124`` in any of the three suits leaves ``5z`` no wait."""
    assert plain_waits(hand) == []
    assert plain_waits(hand.replace("124", "123")) == parse_tiles("5z")


@pytest.mark.parametrize("hand", ["123m456p1234z", "123m456s1234567z"])
def test_several_lone_honours_wait_on_nothing(hand: str) -> None:
    """A wildcard never pairs an honour, and one tile pairs one single: four or seven lone
    honours beside sets are no 单钓 (and no wait at all without 七对)."""
    assert plain_waits(hand) == []


# -- hands that are not 3n+1 --------------------------------------------------------------------
@pytest.mark.parametrize(
    "hand",
    [
        "123m456p789s111z",  # 12 tiles, all sets
        "11m11p11z123s",  # 9 tiles: three pairs and a run
        "123m456p789s111z22z",  # 14 tiles, complete with an honour pair
        "12345m456p789s111z",  # 14 tiles, complete with no pair left over
        "123m456p11s",  # 8 tiles, complete with a suit pair
    ],
)
def test_a_hand_of_3n_or_3n_plus_2_tiles_has_no_winning_tile(hand: str) -> None:
    """A complete hand is 3n+2 tiles, so only a 3n+1 hand is one tile short of it: ``waits`` of
    3n or 3n+2 tiles is empty, as the brute force and the wildcard path (which returns nothing
    unless 3n+1) say, and never fails."""
    assert sum(counts(hand)) % 3 != 1
    assert plain_waits(hand) == []


# -- the memo -----------------------------------------------------------------------------------
def test_a_suit_shape_is_worked_out_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """shapes.py: suits are "memoised by their nine counts, so a suit shape is worked out once
    per process" (``benchmarks/bench_analysis.py`` clears that memo for its cold figures): the
    second ``waits`` of a hand splits no suit again."""
    splits: list[list[int]] = []
    sets_only = shapes._sets_only

    def counted(c: list[int]) -> bool:
        splits.append(list(c))
        return sets_only(c)

    monkeypatch.setattr(shapes, "_sets_only", counted)
    shapes._suit_info.cache_clear()
    hand = counts("1112345678999m")
    assert waits(hand) == list(range(9))
    assert splits
    splits.clear()
    assert waits(hand) == list(range(9))
    assert splits == []
