"""向听 (``services/rules/shanten.py``) where the second mutation run still found no test holding:
the default of 七对 when a caller leaves it out, a draw weighed within its own suit only, and how
``counts_of`` sets wildcards and flowers apart. The promises are those
``tests/rules/test_shanten_mutants.py`` lists; nothing there is repeated here.
"""

from __future__ import annotations

from services.rules.shanten import after_each_draw, counts_of, regular_shanten, shanten
from services.rules.tiles import NUM_KINDS, parse_tiles, tile
from tests.rules.test_shanten_mutants import counts, drawn

SIX_PAIRS_AND_RED_DRAGON = "1122m3344p5566s7z"


def test_shanten_counts_regular_shapes_only_unless_seven_pairs_is_asked() -> None:
    """七对 counts only where the variant has it (山东 002: 七对 和牌牌型全部由七个对子组成;
    塘沽 004: 七小对), so a caller that does not ask for it gets the regular shapes: six pairs
    and 中 are three steps from four sets and a pair, not ready."""
    hand = counts(SIX_PAIRS_AND_RED_DRAGON)
    assert shanten(hand) == regular_shanten(hand) == 3
    assert shanten(hand, 0, seven_pairs=True) == 0


def test_the_useful_draws_count_regular_shapes_only_unless_seven_pairs_is_asked() -> None:
    """after_each_draw, like shanten, counts 七对 only when asked: left out, the second 中
    leaves six pairs and a pair three steps from ready, where with 七对 it completes them."""
    hand = counts(SIX_PAIRS_AND_RED_DRAGON)
    assert after_each_draw(hand)[tile("7z")] == 3
    assert after_each_draw(hand, 0, seven_pairs=True)[tile("7z")] == -1


def test_a_draw_in_one_suit_leaves_the_next_suits_tiles_where_they_are() -> None:
    """after_each_draw: only the suit the drawn tile joins changes. Three man runs, 1p twice
    and 2s are a step away; a man tile drawn brings them no closer (the 1p pair, the first kind
    after the man, still counts once), and a second 2s makes them ready."""
    hand = counts("123m456m789m11p2s")
    found = after_each_draw(hand)
    assert found[tile("1m")] == found[tile("9m")] == 1
    assert found[tile("2s")] == 0
    assert found == [shanten(drawn(hand, t)) for t in range(NUM_KINDS)]


def test_counts_of_sets_each_wildcard_apart_and_leaves_out_flowers() -> None:
    """counts_of: the counts of the natural tiles, and how many wildcards stand apart. Two 白
    that are 混 (塘沽 004: “混”可以在牌中代替任何一张“万”“饼”“条”) are two wildcards and no
    白; flowers (春 1f, 菊 8f) are no kind of a winning hand and are not counted."""
    natural, wild = counts_of(parse_tiles("123m55z1f8f"), frozenset({tile("5z")}))
    assert wild == 2
    assert natural == counts("123m")
