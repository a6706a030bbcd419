"""Where ``services/rules/shapes.py``'s mutation run found no test holding (docs/testing.md): the
regular shape's one pair, 七对 (its size, its default, four of a kind, the honour that no wildcard
pairs), and the waits of a hand with wildcards or 七对 (its size, the honour-only search, a kind
held four times).

The rules: 七对 is fourteen concealed tiles in seven pairs (山东 ``002``: 七对 和牌牌型全部由七个对子组成;
塘沽 ``004``: 七小对 每二二为对), four of a kind counting as two pairs unless the variant says not
(``quad_as_two_pairs``, scoring/shandong.py); a 混 stands in for any 万, 饼 or 条 and never for an
honour (``004``: "混"可以在牌中代替任何一张"万""饼""条"); a regular hand is four sets and one pair.
Each hand here is also checked against the brute force of ``tests/rules/test_shapes.py``.
"""

from __future__ import annotations

from services.rules.shapes import is_complete, is_seven_pairs, waits
from services.rules.tiles import NUM_KINDS, parse_tiles, tile
from tests.rules.test_shapes import slow_complete, slow_seven_pairs, slow_waits


def counts(hand: str) -> list[int]:
    found = [0] * NUM_KINDS
    for t in parse_tiles(hand):
        found[t] += 1
    return found


SUITED = list(range(27))


# -- the regular shape: one pair, not four ------------------------------------------------------
def test_four_pairs_and_two_runs_are_no_regular_hand() -> None:
    """A regular hand is four sets and ONE pair: a pair in each suit and one of 东 are fourteen
    tiles of the right size (3n+2) but no hand; only 七对 could read pairs, and these are four."""
    hand = counts("123m11m456p11p11s11z")
    assert not is_complete(hand)
    assert not slow_complete(hand, 0)


def test_seven_honour_pairs_are_seven_pairs_but_no_regular_hand() -> None:
    """Seven honour pairs are 七对 (002: 七个对子) and not four sets and a pair: the regular shape
    allows exactly one pair, however the sizes add up."""
    hand = counts("11223344556677z")
    assert not is_complete(hand)
    assert is_seven_pairs(hand)


# -- 七对: fourteen tiles, counted without wildcards unless told ---------------------------------
def test_seven_pairs_without_a_wildcard_argument_count_natural_tiles_only() -> None:
    """is_seven_pairs(counts) holds no wildcard by default: seven natural pairs are 七对, and six
    pairs and a single are not (no 混 is there to pair the single)."""
    assert is_seven_pairs(counts("1122m3344p5566s99s"))
    assert not is_seven_pairs(counts("1122m3344p5566s9s"))
    assert is_seven_pairs(counts("1122m3344p5566s9s"), 1)


def test_seven_pairs_are_exactly_fourteen_tiles() -> None:
    """七对 is fourteen tiles in seven pairs (002, 004): eight pairs are too many and six too few,
    with or without a 混 to make up the count."""
    assert not is_seven_pairs(counts("1122m3344p5566s7788s"))  # eight pairs
    assert not is_seven_pairs(counts("1122m3344p5566s"))  # six pairs
    assert not is_seven_pairs(counts("1122m3344p5566s"), 1)  # six pairs and a 混: thirteen
    assert not is_seven_pairs(counts("1122m3344p5566s78s"), 3)  # sixteen with the 混
    for hand, wild in (("1122m3344p5566s7788s", 0), ("1122m3344p5566s", 1)):
        assert not slow_seven_pairs(counts(hand), wild)


def test_seven_pairs_without_quads_as_two_pairs_still_take_seven_distinct_pairs() -> None:
    """quad_as_two_pairs=False (scoring/shandong.py's option) refuses only four of a kind: seven
    pairs of seven kinds are 七对 either way, and 1111m with five pairs only where quads count."""
    plain = counts("1122m3344p5566s77z")
    assert is_seven_pairs(plain, 0, quad_as_two_pairs=False)
    assert is_seven_pairs(plain, 0, quad_as_two_pairs=True)
    quad = counts("1111m3344p5566s77z")
    assert not is_seven_pairs(quad, 0, quad_as_two_pairs=False)
    assert is_seven_pairs(quad, 0, quad_as_two_pairs=True)


def test_a_wildcard_pairs_a_lone_nine_of_bamboo_but_not_a_lone_east() -> None:
    """A 混 stands for any 万饼条, never an honour (004): six pairs and a lone 9s with a 混 are
    七对; six pairs and a lone 东 (the first honour) with a 混 are not."""
    assert is_seven_pairs(counts("1122m3344p5566s9s"), 1)
    assert slow_seven_pairs(counts("1122m3344p5566s9s"), 1)
    assert not is_seven_pairs(counts("1122m3344p5566s1z"), 1)
    assert not slow_seven_pairs(counts("1122m3344p5566s1z"), 1)


# -- waits with wildcards: only a 3n+1 hand waits ------------------------------------------------
def test_a_hand_of_three_n_plus_two_with_a_wildcard_waits_on_nothing() -> None:
    """waits: the tiles that complete a 3n+1 hand. Ten natural tiles and a 混 are eleven (3n+2):
    one more tile makes twelve, which no tile completes, though 1s would pair the single 1s."""
    hand = counts("123m456p789s1s")
    assert waits(hand, 1) == [] == slow_waits(hand, 1)


def test_a_hand_of_three_n_with_wildcards_waits_on_nothing() -> None:
    """waits: a hand of twelve (3n), here nine natural tiles and three 混, is complete with no
    tile and with none added (thirteen is 3n+1); it waits on nothing."""
    hand = counts("123m456p789s")
    assert waits(hand, 3) == [] == slow_waits(hand, 3)
    assert waits(counts("123m456p789s1s"), 2) == []


def test_a_lone_wildcard_beside_three_sets_waits_on_every_suited_tile() -> None:
    """With a 碰 laid down a hand is ten tiles: three runs and a 混 wait on any 万饼条, the 混
    pairing with it (004: 混 stands in for any 万饼条), and on no honour."""
    hand = counts("123m456p789s")
    assert waits(hand, 1) == SUITED == slow_waits(hand, 1)


def test_a_lone_honour_beside_a_wildcard_waits_on_its_partner_only() -> None:
    """A 混 never pairs an honour (004): four sets short of one tile, a 混 and a lone 东 wait
    only on the second 东, the 混 then filling the set. Even 东, the first honour, is found when
    only honours can help."""
    hand = counts("123m456p789s12s1z")
    assert waits(hand, 1) == [tile("1z")] == slow_waits(hand, 1)


# -- 七对 waits ----------------------------------------------------------------------------------
def test_a_complete_seven_pairs_hand_waits_on_nothing() -> None:
    """七对 is fourteen tiles (002, 004): six pairs, a single and a 混 are complete already, and a
    fifteenth tile completes nothing, 七对 or not."""
    hand = counts("1122m3344p5566s7s")
    assert is_seven_pairs(hand, 1)
    assert waits(hand, 1, seven_pairs=True) == [] == slow_waits(hand, 1, seven_pairs=True)


def test_five_pairs_and_a_single_wait_on_nothing_even_with_seven_pairs() -> None:
    """Five pairs and a single are eleven tiles: the single's partner makes six pairs, twelve
    tiles, which is no 七对 (seven pairs, 002) nor any complete hand."""
    hand = counts("1122m3344p55s6s")
    assert waits(hand, 0, seven_pairs=True) == [] == slow_waits(hand, 0, seven_pairs=True)


def test_a_kind_held_four_times_is_no_seven_pairs_wait() -> None:
    """waits: "a kind held four times is no wait". 1111m, four pairs and a 混 wait on any
    other 万饼条 for 七对 (the 混 pairs it, 004: 七小对), never on a fifth 1m."""
    hand = counts("1111m2233p4455s")
    found = waits(hand, 1, seven_pairs=True)
    assert tile("1m") not in found
    assert found == [t for t in SUITED if t != tile("1m")]
    assert found == slow_waits(hand, 1, seven_pairs=True)
