"""塘沽麻将 scoring patterns (``services/rules/scoring/tanggu_patterns.py``, ``seeds/004``, README
decisions 8 and 10): the rules its surviving mutants broke (issue 28)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hands import meld, win_context

from services.rules.hand import readings
from services.rules.melds import MeldKind
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.scoring.tanggu import TangguScoring, score, score_with
from services.rules.scoring.tanggu_patterns import TangguHand, dan_diao, kan_zhang
from services.rules.tiles import NUM_KINDS, counts_of, tile
from services.rules.variants.tanggu_hun import hun_kinds

HUN = hun_kinds(tile("1z"))  # 东 and 南 are the 混
PAIR_258 = TangguScoring(pair_258_only=True)


def win(concealed: str, win_tile: str, *, discarder: int | None = 1, **kw: Any) -> WinContext:
    """A win on seat 1's discard unless ``discarder=None`` (自摸); no 混 unless given."""
    return win_context(
        "tanggu",
        concealed,
        win_tile,
        discarder=discarder,
        wildcards=kw.pop("wildcards", frozenset()),
        **kw,
    )


def hands_of(ctx: WinContext) -> list[TangguHand]:
    """Every reading of the win as sets and a pair, each 混 standing for some suited tile."""
    tiles = (*ctx.concealed, ctx.win_tile)
    last = len(tiles) - 1
    natural = tuple(
        t
        for i, t in enumerate(tiles)
        if t not in ctx.wildcards and not (i == last and ctx.win_tile_is_wild)
    )
    wild = len(tiles) - len(natural)
    win_wild = ctx.win_tile in ctx.wildcards or ctx.win_tile_is_wild
    found = readings(counts_of(natural, NUM_KINDS), wild)
    assert found, "the test hand must win"
    return [TangguHand(ctx, r, natural, wild, win_wild) for r in found]


# -- the reading of a win ------------------------------------------------------------------------
def test_a_reading_of_a_win_cannot_be_changed_by_the_patterns_that_read_it() -> None:
    """The scorer evaluates every reading (which tile each 混 stands for) and keeps the best for the
    winner: each pattern reads the one reading, and none may alter it for the next."""
    (h,) = hands_of(win("123m123p789p456s5m", "5m"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.wild = 3  # type: ignore[misc]
    assert h.wild == 0
    assert hash(h) == hash(dataclasses.replace(h))


# -- 龙 -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("suit", ["m", "p", "s"])
def test_long_is_one_to_nine_of_any_one_suit(suit: str) -> None:
    """“龙”：牌型：1、2、3、4、5、6、7、8、9单一花色为“龙”，+4 (004): 万, 饼 or 条 alike."""
    other = "234p" if suit == "m" else "234m"
    s = score(win(f"123{suit}456{suit}789{suit}{other}5z", "5z"))
    assert "龙" in s.patterns


def test_a_chi_of_one_two_three_is_part_of_the_long() -> None:
    """“龙”：1…9单一花色 (004): a run laid down by 吃 is one of the three runs."""
    s = score(win("456m789m55p78s", "9s", melds=(meld("chi", "123m", 0),)))
    assert "龙" in s.patterns


@pytest.mark.parametrize("kind", ["pong", "added_kong"])
def test_a_pong_or_a_kong_of_ones_is_no_run_of_the_long(kind: MeldKind) -> None:
    """“龙”：1、2、3…9 (004) are runs: a 碰 of 1m, or its 补杠, holds 1m but not 2m and 3m."""
    tiles = "111m" if kind == "pong" else "1111m"
    s = score(win("456m789m55p78s", "9s", melds=(meld(kind, tiles, 0),)))
    assert "龙" not in s.patterns


def test_three_hun_stand_for_the_run_the_long_lacks_when_the_pair_is_an_honour() -> None:
    """“混”可代替其中任何缺张 (004): three 混 read as 7m 8m 9m; the pair 中中 holds no 混."""
    s = score(win("123456m112z78s77z", "9s", wildcards=HUN))
    assert "龙" in s.patterns


def test_two_hun_paired_together_fill_no_run_of_the_long() -> None:
    """“混”可代替其中任何缺张 (004): two 混 as the pair stand in no run; 789m stays missing."""
    s = score(win("123456m555p78s12z", "9s", wildcards=HUN))
    assert "龙" not in s.patterns


def test_three_hun_fill_one_missing_run_of_the_long_not_two() -> None:
    """“混”可代替其中任何缺张 (004): three 混 make one run; 123m alone lacks 456m and 789m."""
    s = score(win("123m456p78s77z112z", "9s", wildcards=HUN))
    assert "龙" not in s.patterns


def test_a_long_laid_down_whole_keeps_its_value_beside_a_set_of_hun() -> None:
    """“龙”：1…9单一花色为“龙”，+4 (004): 123m 456m 789m by 吃, and three 混 making a fourth set
    of their own, are still the 龙."""
    chis = (meld("chi", "123m", 0), meld("chi", "456m", 0), meld("chi", "789m", 0))
    s = score(win("112z7z", "7z", melds=chis, wildcards=HUN))
    assert "龙" in s.patterns


# -- 对对和 ---------------------------------------------------------------------------------------
def test_a_pong_and_an_added_kong_are_triplets_of_dui_dui_he_and_a_chi_is_not() -> None:
    """对对和：和牌全为对，+4 (004; README decision 8: 对对和 = all triplets): a 碰 and a 补杠
    are triplets, a 吃 is a run."""
    triplets = (meld("pong", "111m", 0), meld("added_kong", "2222p", 0))
    assert "对对和" in score(win("333s55z77z", "7z", melds=triplets)).patterns
    chi_and_pong = (meld("chi", "123m", 0), meld("pong", "222p", 0))
    assert "对对和" not in score(win("333s55z77z", "7z", melds=chi_and_pong)).patterns


# -- 缺门 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pair", "missing"),
    [("1p", 1), ("9p", 1), ("1s", 1), ("9s", 1), ("1z", 2), ("7z", 2)],
)
def test_que_men_counts_a_suit_shown_by_its_one_or_its_nine_and_no_honour_as_a_suit(
    pair: str, missing: int
) -> None:
    """缺门：缺一门，+2；依次累加 (004), over the suits m, p, s (README decision 8): a 1 or 9 of
    饼 or 条 shows its suit; an honour is no suit."""
    s = score(win(f"123m456m789m234m{pair}", pair))
    assert s.patterns.count("缺门") == missing


@pytest.mark.parametrize(
    ("concealed", "win_tile"),
    [("111z222z333z444z5z", "5z"), ("11z22z33z44z55z66z7z", "7z")],
    ids=["sets", "qi_xiao_dui"],
)
def test_a_hand_of_honours_alone_lacks_all_three_suits(concealed: str, win_tile: str) -> None:
    """缺门：缺一门，+2；依次累加 (004): no 万, 饼 or 条 at all is three missing suits."""
    s = score(win(concealed, win_tile))
    assert s.patterns.count("缺门") == 3


@pytest.mark.parametrize(
    "concealed",
    ["333z444z555z666z1z", "33z44z55z66z77z112z"],
    ids=["sets", "qi_xiao_dui"],
)
def test_hun_among_honours_stand_for_one_suit_and_the_other_two_are_missing(
    concealed: str,
) -> None:
    """缺门 +2 per missing suit, each 混 counted as the tile it stands for (README decision 8): 混
    paired among themselves beside honours stand for one suit, so two are missing."""
    s = score(win(concealed, "2z", discarder=None, wildcards=HUN))
    assert s.patterns.count("缺门") == 2


# -- 二五八将 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("pair", ["2m", "5p", "8s", "8m"])
def test_er_wu_ba_jiang_accepts_a_pair_of_twos_fives_or_eights(pair: str) -> None:
    """将牌只有二、五、八可以做将 (004; an option, README decision 10)."""
    s = score_with(win(f"123m456p789s234s{pair}", pair), PAIR_258)
    assert s.fan == 2 + 2 + 2  # 平和, 素和, 门清


@pytest.mark.parametrize("pair", ["1m", "3p", "7s", "9s", "2z", "5z"])
def test_er_wu_ba_jiang_refuses_any_other_pair_and_every_honour_pair(pair: str) -> None:
    """只有二条、二饼、二万、五条、五饼、五万、八条、八饼、八万的对子才能做将 (004): a 1, 3, 7 or 9
    is no 将, nor is 南 or 白, whatever their place among the honours."""
    with pytest.raises(ScoringError):
        score_with(win(f"123m456p789s234s{pair}", pair), PAIR_258)


def test_er_wu_ba_jiang_accepts_a_pair_of_two_hun() -> None:
    """二五八将 (004): “混”可以代替任何一张“万”“饼”“条” (004), so two 混 as the pair stand for
    a 2, 5 or 8."""
    ctx = win("333z444z555z666z1z", "2z", discarder=None, wildcards=HUN)
    assert score_with(ctx, PAIR_258) == score(ctx)


# -- 混钓 -----------------------------------------------------------------------------------------
def test_a_hun_paired_with_a_held_tile_is_no_hun_diao_when_another_tile_wins() -> None:
    """“混”钓：以“混”为将牌，单钓“将” (004): the win tile must be the one the 混 pairs; here the
    混 pairs 1m and 9s completes 789s."""
    s = score(win("1m1z456p78s567m", "9s", melds=(meld("chi", "123m", 0),), wildcards=HUN))
    assert "混钓" not in s.patterns
    assert s.patterns == ("平和",)


# -- 坎张, 单钓 and 捉五 ---------------------------------------------------------------------------
def test_a_drawn_hun_is_never_kan_zhang() -> None:
    """坎张 (独抱：只“和”坎张或单钓将, 004): the winning tile sits between two natural tiles; a
    drawn 混 read as 5m beside a natural 456m is no 坎张."""
    ctx = win("456m123p789p456s9s", "5m", discarder=None, win_tile_is_wild=True)
    assert not any(kan_zhang(h) for h in hands_of(ctx))


def test_a_five_wan_beside_a_natural_four_and_a_hun_is_no_kan_zhang_nor_zhuo_wu() -> None:
    """捉“五”：“独抱”或单钓“五万”为捉“五” (004): 4m and a 混 wait on more than 5m, so the 5m
    that fills them is no 坎张."""
    ctx = win("4m1z123p789p456s77z", "5m", wildcards=HUN)
    assert not any(kan_zhang(h) for h in hands_of(ctx))
    assert "捉五" not in score(ctx).patterns


def test_a_kan_zhang_on_another_tile_than_five_wan_is_no_zhuo_wu() -> None:
    """捉“五”：“独抱”或单钓“五万”为捉“五” (004): a 坎张 on 3m is no 捉五."""
    assert "捉五" not in score(win("24m123p789p456s77z", "3m")).patterns


def test_a_five_wan_won_beside_another_pair_is_no_zhuo_wu() -> None:
    """捉“五”：…单钓“五万”为捉“五” (004): the pair must be of 5m; 5m ending an open 34m wait
    beside a pair of 1m is no 捉五."""
    assert "捉五" not in score(win("34m123p789p456s11m", "5m")).patterns


def test_a_five_wan_paired_with_a_hun_is_hun_diao_not_zhuo_wu() -> None:
    """“混”钓：以“混”为将牌，单钓“将” (004): 5m winning on a lone 混 is 混钓; 捉五 asks a wait
    on 五万 itself (单钓“五万”)."""
    s = score(win("123m123p789p456s1z", "5m", wildcards=HUN))
    assert "混钓" in s.patterns
    assert "捉五" not in s.patterns


@pytest.mark.parametrize(
    ("concealed", "wildcards"),
    [("123m123p789p456s5m", frozenset()), ("123m123p789p456s1z", HUN)],
    ids=["natural", "hun"],
)
def test_the_winning_tile_completing_the_pair_is_dan_diao(
    concealed: str, wildcards: frozenset[int]
) -> None:
    """单吊将: 将牌的一对只有一张，这时要进的形成和牌的第十四张牌 (004): 5m pairs a held 5m or a
    held 混."""
    assert any(dan_diao(h) for h in hands_of(win(concealed, "5m", wildcards=wildcards)))


@pytest.mark.parametrize("pair", ["11m", "99s"])
def test_a_winning_tile_outside_the_pair_is_no_dan_diao(pair: str) -> None:
    """单吊将 (004): the 14th tile must complete the pair; 5m filling 46m beside a pair of 1m or
    9s is no 单钓."""
    assert not any(dan_diao(h) for h in hands_of(win(f"46m123p789p456s{pair}", "5m")))


def test_a_pair_of_two_hun_is_no_dan_diao_on_a_natural_winning_tile() -> None:
    """单吊将 (004): 7z completes 777z, not the pair of two held 混."""
    (h,) = hands_of(win("333z444z555z77z12z", "7z", wildcards=HUN))
    assert h.pair is not None and h.pair.wild == 2
    assert not dan_diao(h)


def test_a_drawn_hun_is_never_dan_diao() -> None:
    """单吊将 (004) is a wait on the pair's tile; a drawn 混 stands for whatever the hand lacks,
    even read beside a natural pair of its own kind."""
    ctx = win("123m123p789p45s55m", "5m", discarder=None, win_tile_is_wild=True)
    assert not any(dan_diao(h) for h in hands_of(ctx))
