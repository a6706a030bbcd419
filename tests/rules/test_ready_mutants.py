"""听 as ``services/rules/ready.py`` decides it, where its mutation run found no test holding
(docs/testing.md): the 听 conditions of 牡丹江 (``000``) and 哈尔滨 (``001``) on small chosen hands,
each test asserting the exact blockers or waits, and the edges of the shape questions (waits,
a drawn 宝, the tile counts the functions accept).

README decision 6: the conditions are checked on the seat's 13 tiles at the moment of 听, exposed
melds included; a kong is a 刻, a 吃 a 顺; at least two of the suits m, p, s (红中 is no suit). A
hand with no wait at all has no winning reading to test: there the 刻 and the 顺 are judged by
presence (three of a kind; three in a row of one suit), so that every failing condition is named.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest
from hands import meld

from services.rules.melds import Meld
from services.rules.ready import (
    NO_RUN,
    NO_TRIPLET,
    NO_WAIT,
    NOT_OPEN,
    ONE_SUIT,
    complete_hand,
    hand_waits,
    ready_blockers,
    ready_discards,
)
from services.rules.tiles import names, parse_tiles, tile
from services.rules.variants import VariantConfig, get_variant

MUDANJIANG = get_variant("mudanjiang")
HARBIN = get_variant("harbin")
TANGGU = get_variant("tanggu")
VARIANT_IDS = ["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"]


def blockers(variant_id: str, hand: str, *melds: Meld) -> list[str]:
    return ready_blockers(get_variant(variant_id), parse_tiles(hand), melds)


# -- the conditions are fixed data ---------------------------------------------------------------
def test_a_variants_ready_conditions_cannot_be_changed_once_made() -> None:
    """The 听 conditions are the variant's config (decision 6), shared by every table."""
    rules = MUDANJIANG.ready_conditions
    assert rules is not None
    with pytest.raises(FrozenInstanceError):
        rules.min_suits = 1  # type: ignore[misc]


# -- 两门: at least two suits, 红中 no suit --------------------------------------------------------
@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
@pytest.mark.parametrize(
    ("hand", "pong"),
    [
        ("123m456m789m1p", "999m"),  # the 饼 are one 1p, the tile waited on
        ("123m456m789m9p", "111m"),
        ("123m456m789m1s", "999m"),
        ("123m456m789m9s", "111m"),
    ],
)
def test_two_suits_are_enough_however_few_tiles_the_second_has(
    variant_id: str, hand: str, pong: str
) -> None:
    """清一色不能和，必须有两种色以上 (000; 001: 清一色不能听): two suits suffice, and a lone
    1 or 9 of a second suit makes two."""
    assert blockers(variant_id, hand, meld("pong", pong)) == []


@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
@pytest.mark.parametrize(
    ("hand", "pong"),
    [
        ("123p456p789p1p", "999p"),  # 清一色 of 饼
        ("123s456s789s1s", "999s"),  # 清一色 of 条
        ("123m456m789m7z", "999m"),  # 万 and 红中: 红中不算色
    ],
)
def test_one_suit_cannot_declare_ready_with_or_without_red_dragons(
    variant_id: str, hand: str, pong: str
) -> None:
    """清一色不能和，必须有两种色以上。（注：红中不算色） (000; 001 likewise)."""
    assert blockers(variant_id, hand, meld("pong", pong)) == [ONE_SUIT]


# -- 刻 and 顺 with melds ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
def test_an_added_kong_is_a_triplet_and_never_a_run(variant_id: str) -> None:
    """Decision 6: a kong is a 刻, a 吃 a 顺; a 补杠 is a kong, so the hand still needs a 顺."""
    assert blockers(variant_id, "111m999p11s22s", meld("added_kong", "5555s")) == [NO_RUN]


def test_the_triplet_may_stand_in_the_reading_of_any_waited_tile() -> None:
    """听牌时，牌中必须带至少一组刻牌…与一组顺牌 (000), in one winning arrangement with some
    waited tile (decision 6): 11m44456p waits on 1m (444 then reads 44 + 456), 4p and 7p; only
    the 4p and 7p readings hold 444p as the 刻, and that is enough."""
    melds = (meld("chi", "789s"), meld("chi", "123s"))
    assert names(hand_waits(MUDANJIANG, parse_tiles("11m44456p"), melds)) == ["1m", "4p", "7p"]
    assert blockers("mudanjiang", "11m44456p", *melds) == []


# -- a hand with no wait: 刻 and 顺 by presence -----------------------------------------------------
@pytest.mark.parametrize(
    "hand",
    [
        "123m69m1479p1479s",  # 123m
        "789m14m1479p1479s",  # 789m
        "123p69p147m9m1479s",  # 123p
        "789p14p147m9m1479s",  # 789p
        "789s14s147m9m1479p",  # 789s
    ],
)
def test_with_no_wait_three_in_a_row_of_one_suit_is_the_run(hand: str) -> None:
    """顺牌（例123或789） (000): any three in a row of one suit, 123 to 789, in 万, 饼 or 条."""
    assert blockers("mudanjiang", hand) == [NOT_OPEN, NO_TRIPLET, NO_WAIT]


@pytest.mark.parametrize(
    "hand",
    [
        "25589m147p9p147s9s",  # 89m and 1p
        "3369m12p58p147s99s",  # 9m and 12p
        "2558m589p1s47s9s19m",  # 89p and 1s
        "12459m147p1479s9p",  # 12m and 45m: two in a row, never three
    ],
)
def test_with_no_wait_tiles_in_a_row_across_two_suits_are_no_run(hand: str) -> None:
    """顺牌 (123 or 789) are of one suit: 8m 9m 1p are in a row only as numbers."""
    assert blockers("mudanjiang", hand) == [NOT_OPEN, NO_TRIPLET, NO_RUN, NO_WAIT]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("111m59m2589p1479s", [NOT_OPEN, NO_RUN, NO_WAIT]),  # 111m
        ("1111m59m2589p147s", [NOT_OPEN, NO_RUN, NO_WAIT]),  # four 1m hold the 刻 too
        ("11m479m1479p1479s", [NOT_OPEN, NO_TRIPLET, NO_RUN, NO_WAIT]),  # a pair is no 刻
        ("11599m1479p1479s", [NOT_OPEN, NO_TRIPLET, NO_RUN, NO_WAIT]),  # nor two pairs
    ],
)
def test_mudanjiang_with_no_wait_needs_three_of_a_kind_for_the_triplet(
    hand: str, expected: list[str]
) -> None:
    """刻牌（即三张一样的牌） (000): three of a kind; 一对红中 stands in, no other pair does."""
    assert blockers("mudanjiang", hand) == expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("11m479m1479p1479s", [NOT_OPEN, NO_TRIPLET, NO_RUN, NO_WAIT]),  # one pair
        ("11599m1479p1479s", [NOT_OPEN, NO_RUN, NO_WAIT]),  # two pairs: 对倒
        ("114799m559p1479s", [NOT_OPEN, NO_RUN, NO_WAIT]),  # three pairs
    ],
)
def test_harbin_with_no_wait_takes_two_or_more_pairs_for_the_triplet_and_one_pair_not(
    hand: str, expected: list[str]
) -> None:
    """特例：如果无刻牌，但有两个对子也可听牌 (001): two pairs or more, not one."""
    assert blockers("harbin", hand) == expected


@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
def test_with_no_wait_a_pong_is_the_triplet_and_a_chi_the_run(variant_id: str) -> None:
    """Decision 6: a kong is a 刻; a 吃 is a 顺 — the melds count with no concealed 刻 or 顺."""
    melds = (meld("pong", "999s"), meld("chi", "123p"))
    assert blockers(variant_id, "1m47m58p36s", *melds) == [NO_WAIT]


# -- waits ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_a_kind_with_a_copy_still_unseen_is_a_wait(variant_id: str) -> None:
    """Two 5m in 吃 and one in hand leave the fourth 5m to wait on (单钓)."""
    melds = (meld("chi", "345m"), meld("chi", "567m"), meld("pong", "111p"), meld("pong", "999s"))
    assert hand_waits(get_variant(variant_id), parse_tiles("5m"), melds) == [tile("5m")]


def test_a_flower_named_among_the_hun_is_never_read_as_a_tile() -> None:
    """塘沽's 混 are suited tiles or honours (decision 9); a flower kind given among them takes
    nothing out of the hand and is never a wait. With the 5m 混, 1m 5m waits on 1m, 2m, 3m (a 顺
    or 刻 with the 混), 7z (1m and the 混 the pair, 777z) and a drawn 混."""
    hand = parse_tiles("15m456p789s111z77z")
    expected = hand_waits(TANGGU, hand, wildcards={tile("5m")})
    assert names(expected) == ["1m", "2m", "3m", "5m", "7z"]
    flowers = {tile("5m"), tile("1f"), tile("8f")}
    assert hand_waits(TANGGU, hand, wildcards=flowers) == expected


# -- a drawn 宝 --------------------------------------------------------------------------------
THREE_MELDS = (meld("pong", "999s"), meld("chi", "123s"), meld("chi", "789m"))


@pytest.mark.parametrize("variant", [MUDANJIANG, HARBIN], ids=lambda v: v.id)
def test_a_bao_the_hand_does_not_hold_completes_nothing(variant: VariantConfig) -> None:
    """宝牌只有在听牌后自摸摸到，才可替代任何牌和牌 (000): 11m34p waits on 2p or 5p; drawing 3p
    with the 宝 2p is no win, since no 2p was drawn."""
    hand = parse_tiles("11m334p")
    assert not complete_hand(variant, hand, THREE_MELDS, wildcards={tile("2p")})


@pytest.mark.parametrize("variant", [MUDANJIANG, HARBIN], ids=lambda v: v.id)
def test_each_held_bao_is_tried_as_the_drawn_tile_on_the_hand_as_held(
    variant: VariantConfig,
) -> None:
    """Decision 7: one held 宝 may be the tile a ready seat drew. With 1m and 5p both named, 1m
    read as the draw leaves 3m 5p waiting on nothing; 5p read as the draw leaves 13m waiting on
    2m: a win, whichever is tried first."""
    hand = parse_tiles("13m345s789s11s5p")
    pong = [meld("pong", "222p")]
    for order in ((tile("1m"), tile("5p")), (tile("5p"), tile("1m"))):
        assert complete_hand(variant, hand, pong, wildcards=order)


@pytest.mark.parametrize("variant", [MUDANJIANG, HARBIN], ids=lambda v: v.id)
def test_a_flower_named_as_the_bao_is_never_read_as_the_drawn_tile(variant: VariantConfig) -> None:
    """The 宝 is a tile of the 112 (decision 1: no flowers); a flower given as one is ignored."""
    hand = parse_tiles("11m334p")
    wild = (tile("1f"), tile("8f"))
    assert not complete_hand(variant, hand, THREE_MELDS, wildcards=wild)


# -- tile counts ------------------------------------------------------------------------------------
def test_ready_is_declared_on_13_tiles_never_on_14() -> None:
    """听 is declared on the 13 tiles a seat keeps after its discard (3n+1), not on 14 (3n+2)."""
    with pytest.raises(ValueError, match="3n\\+1"):
        ready_blockers(HARBIN, parse_tiles("11s888m789m222p345s"))


def test_a_discard_is_chosen_from_14_tiles_never_from_13() -> None:
    with pytest.raises(ValueError, match="3n\\+2"):
        ready_discards(HARBIN, parse_tiles("11s88m789m22p345s"))
