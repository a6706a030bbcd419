"""山东麻将 patterns and 花 (``services/rules/scoring/shandong_patterns.py``, ``seeds/002``,
README decisions 8 and 11): the rules its surviving mutants broke (issue 28)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hands import meld, win_context

from services.rules.melds import Meld, MeldKind
from services.rules.scoring.base import WinContext
from services.rules.scoring.shandong import ShandongScoring, escape_penalty, score, score_with
from services.rules.scoring.shandong_patterns import (
    FALLBACK,
    HuaValues,
    ShandongHand,
    hun_yi_se,
    meld_hua,
    qing_yi_se,
    tui_dao_he,
)
from services.rules.tiles import FLOWERS, parse_tiles


def win(concealed: str, win_tile: str, *, discarder: int | None = 1, **kw: Any) -> WinContext:
    """A win of seat 0 (dealer seat 3 unless named): on seat 1's discard unless told otherwise."""
    return win_context(
        "shandong", concealed, win_tile, discarder=discarder, dealer=kw.pop("dealer", 3), **kw
    )


PLAIN = "123m456p789s234s5z"  # 推倒和 on 5z (单钓 白)


def hand_of(tiles: tuple[int, ...]) -> ShandongHand:
    """One reading of a win as the patterns see it (read as 七对: the colour patterns ignore it)."""
    return ShandongHand(win(PLAIN, "5z"), tiles, None)


# -- the reading every pattern looks at ------------------------------------------------------------
def test_the_reading_the_patterns_look_at_cannot_be_changed_by_them() -> None:
    """各牌型番数可以叠加 (002): every pattern reads the same win, so none may alter it for the next."""
    hand = hand_of(tuple(parse_tiles(PLAIN + "5z")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.reading = None  # type: ignore[misc]
    assert hash(hand) == hash(ShandongHand(hand.ctx, hand.tiles, None))


# -- 混一色 and 清一色: suits and 字牌 -------------------------------------------------------------
@pytest.mark.parametrize("honour", ["1z", "7z"])  # 东, the first 字牌, and 中, the last
def test_one_suit_with_any_honour_pair_is_hun_yi_se(honour: str) -> None:
    """混一色: 由一种花色的序数牌和字牌组成的和牌 (002); 字牌 are 东南西北 and 中发白."""
    s = score(win("123m345m567m789m" + honour, honour))
    assert s.patterns == ("混一色",)
    assert s.fan == 2


def test_one_suit_of_bamboo_up_to_its_nine_is_qing_yi_se() -> None:
    """清一色: 由一种花色的序数牌組成和牌 (002); a 9条 is a number tile, no 字牌."""
    s = score(win("123s345s567s789s5s", "5s"))
    assert s.patterns == ("清一色",)
    assert s.fan == 5


def test_a_pair_of_nine_bamboo_is_a_second_suit_so_no_qing_yi_se() -> None:
    """清一色: 由一种花色的序数牌組成和牌 (002): a pair of 9条 beside 万 makes two suits."""
    s = score(win("123m456m234m678m9s", "9s"))
    assert s.patterns == ("推倒和",)
    assert s.fan == 1


def test_a_hand_of_honours_alone_is_neither_hun_yi_se_nor_qing_yi_se() -> None:
    """混一色 needs 一种花色的序数牌 with its 字牌 (002, which has no 字一色): honours alone are
    碰碰和 and nothing more."""
    s = score(win("111z222z333z555z7z", "7z"))
    assert s.patterns == ("碰碰和",)
    assert s.fan == 2


def test_flower_tiles_are_neither_a_suit_nor_honours_to_the_colour_patterns() -> None:
    """花: 春夏秋冬、梅兰竹菊 are flowers (002: 各算一个花), neither 字牌（风牌和箭牌） for 混一色
    nor 序数牌 of a suit for 清一色."""
    one_suit = tuple(parse_tiles("123m345m567m789m55m"))
    for flower in FLOWERS:
        assert not hun_yi_se(hand_of(one_suit + (flower,)))
    only_flowers = hand_of(tuple(FLOWERS))
    assert not qing_yi_se(only_flowers)
    assert not hun_yi_se(only_flowers)


# -- 将一色 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("honour", ["2z", "5z"])  # 南 and 白 sit where a 2 and a 5 would
def test_an_honour_pair_breaks_jiang_yi_se(honour: str) -> None:
    """将一色: 由2、5、8将牌组成的和牌牌型 (002): 南 and 白 are 字牌, not 2s or 5s of a suit."""
    s = score(win("222m555m888p222s" + honour, honour))
    assert s.patterns == ("碰碰和",)
    assert s.fan == 2


# -- 碰碰和 and 一条龙 ---------------------------------------------------------------------------------
def test_an_added_kong_counts_as_a_kong_for_peng_peng_he() -> None:
    """碰碰和: 除了一对將以外另外的是四个刻（或杠） (002): a 补杠 is a 杠, no run."""
    s = score(win("222m333p444s5z", "5z", melds=(meld("added_kong", "1111z", 2),)))
    assert s.patterns == ("碰碰和",)
    assert s.fan == 2


def test_one_to_nine_of_bamboo_as_three_runs_is_yi_tiao_long() -> None:
    """一条龙: 由同一种花色牌組成的从一至九的三个顺子 (002), 条 as well as 万 and 饼."""
    s = score(win("123s456s789s222z1m", "1m"))
    assert s.patterns == ("一条龙",)
    assert s.fan == 2


# -- 天和 and 地和 -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("seat", "dealer"), [(0, 3), (2, 1)])
def test_a_non_dealer_drawing_a_win_in_the_first_go_round_is_di_he_not_tian_he(
    seat: int, dealer: int
) -> None:
    """天和: 庄家起手和牌; 地和: 闲家在第一轮吃、碰、杠前和牌 (002): a 闲家's 自摸 is 地和 only."""
    s = score(win(PLAIN, "5z", seat=seat, dealer=dealer, discarder=None, first_draw=True))
    assert s.patterns == ("地和",)
    assert s.fan == 5


# -- 推倒和 ------------------------------------------------------------------------------------------
def test_every_win_holds_tui_dao_he_but_it_counts_only_when_nothing_else_does() -> None:
    """推倒和 (小和 1番, 002) is the win itself: every win holds it, and the scorer counts it only
    when no other pattern holds (README decision 8)."""
    ctx = win("1234567899m111m", "9m")  # 清一色 + 一条龙
    hand = ShandongHand(ctx, (*ctx.concealed, ctx.win_tile), None)
    assert tui_dao_he(hand)
    assert FALLBACK.name == "推倒和"
    assert FALLBACK.times(hand) == 1
    assert "推倒和" not in score(ctx).patterns


# -- 花 -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "hua"), [("kong", 1), ("added_kong", 1), ("concealed_kong", 2)])
def test_a_kong_of_nine_bamboo_earns_the_suited_kong_hua(kind: MeldKind, hua: int) -> None:
    """万、条、筒明杠、补杠1花；暗杠2花 (002): 9条 is a 条, not a 字牌."""
    s = score(win("123m456p234s5z", "5z", melds=(meld(kind, "9999s", 2),)))
    assert s.details["hua"] == hua


@pytest.mark.parametrize("kind", ["kong", "added_kong", "concealed_kong"])
def test_a_set_of_flower_tiles_never_earns_the_honour_kong_hua(kind: MeldKind) -> None:
    """字牌（风牌和箭牌）明杠、补杠2花；暗杠3花 (002): 春夏秋冬、梅兰竹菊 are no 字牌."""
    values = HuaValues(honour_exposed_kong=20, honour_concealed_kong=30)
    for flower in FLOWERS:
        assert meld_hua(Meld(kind, (flower,) * 4), values) not in (20, 30)


def test_a_negative_flower_count_is_refused() -> None:
    """春夏秋冬、梅兰竹菊，各算一个花 (002): a seat holds zero or more flowers, never fewer."""
    with pytest.raises(ValueError, match="never negative"):
        score(win(PLAIN, "5z", flowers=(-1, 0, 0, 0)))
    with pytest.raises(ValueError, match="never negative"):
        escape_penalty(-1)


def test_each_flower_tile_adds_the_hua_a_flower_is_worth() -> None:
    """花的具体对应数 (002): 春夏秋冬、梅兰竹菊，各算一个花; a table may value a flower otherwise,
    and each flower tile then adds that many 花 to the 底 of (底+花)*番数."""
    config = ShandongScoring(hua=HuaValues(flower=2))
    s = score_with(win(PLAIN, "5z", flowers=(3, 0, 0, 0)), config)
    assert s.details["hua"] == 6
    assert s.payments == (11, -11, 0, 0)
