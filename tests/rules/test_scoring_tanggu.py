"""塘沽麻将 scoring (seeds/004, README decisions 8–10): the additive table."""

from __future__ import annotations

from typing import Any

import pytest
from hands import meld as shared_meld
from hands import win_context, winning_hands
from hypothesis import assume, given
from hypothesis import strategies as st

from services.rules.melds import Meld, MeldKind
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.scoring.tanggu import (
    TangguScoring,
    hand_scores,
    kong_scores,
    score,
    score_with,
)
from services.rules.tiles import parse_tiles, tile
from services.rules.variants.tanggu_hun import hun_kinds

HUN = hun_kinds(tile("1z"))  # 东 and 南 are 混: suited tiles in the hands read plainly


def meld(kind: MeldKind, text: str, from_seat: int | None = 3) -> Meld:
    return shared_meld(kind, text, from_seat)


def win(concealed: str, win_tile: str, *, discarder: int | None = None, **kw: Any) -> WinContext:
    return win_context(
        "tanggu", concealed, win_tile, discarder=discarder, wildcards=kw.pop("wildcards", HUN), **kw
    )


CHI = (meld("chi", "123m"),)
NO_MELDS: tuple[tuple[Meld, ...], ...] = ((), (), (), ())


def test_a_plain_win_with_a_hun_is_worth_two_paid_by_the_discarder_alone() -> None:
    s = score(win("456p7s1z99s567m", "8s", discarder=2, melds=CHI))
    assert s.patterns == ("平和",)
    assert s.fan == 2
    assert s.payments == (2, 0, -2, 0)


def test_a_win_without_any_hun_adds_su_he() -> None:
    s = score(win("456p78s99s567m", "9s", discarder=2, melds=CHI))
    assert s.patterns == ("平和", "素和")
    assert s.payments == (4, 0, -4, 0)


def test_a_self_drawn_win_adds_zi_mo_and_each_other_seat_pays() -> None:
    s = score(win("456p7s1z99s567m", "8s", melds=CHI))
    assert s.patterns == ("平和", "自摸")
    assert s.payments == (12, -4, -4, -4)


def test_a_lone_hun_paired_with_the_winning_tile_is_hun_diao() -> None:
    s = score(win("456p789s567m1z", "3m", discarder=1, melds=CHI))
    assert "混钓" in s.patterns
    assert s.fan == 4


def test_a_hun_diao_won_after_shang_da_tai_is_worth_its_win_alone() -> None:
    """上大台 is paid apart, per hand (``hand_scores``), whether or not the seat wins."""
    s = score(win("456p789s567m1z", "2z", melds=CHI))
    assert "上大台" not in s.patterns and {"混钓", "自摸"} <= set(s.patterns)
    assert s.fan == 2 + 2 + 2
    assert s.payments == (18, -6, -6, -6)


def test_each_shang_da_tai_earns_five_from_each_other_seat_won_or_not() -> None:
    """004: "上大台"不成功否均每次+5 (decision 8)."""
    assert hand_scores(NO_MELDS, shang_da_tai=(0, 2, 0, 0)) == (-10, 30, -10, -10)


def test_more_than_two_shang_da_tai_are_refused() -> None:
    with pytest.raises(ScoringError, match="上大台"):
        hand_scores(NO_MELDS, shang_da_tai=(3, 0, 0, 0))


def test_long_counts_with_two_hun_filling_its_gaps() -> None:
    # 1m 3m 4m 6m 789m with 东 and 南 standing for 2m and 5m
    s = score(win("1346789m12z55p78s", "9s", discarder=1))
    assert "龙" in s.patterns
    assert s.fan == 2 + 4 + 2  # 平和, 龙, 门清


def test_three_hun_can_stand_for_a_whole_run_of_the_long() -> None:
    s = score(
        win("123456m112z55p78s", "9s", discarder=1, wildcards=hun_kinds(tile("1z")) | {tile("3z")})
    )
    assert "龙" in s.patterns


def test_a_seat_that_is_xianggong_cannot_win() -> None:
    with pytest.raises(ScoringError, match="相公"):
        score(win("456p78s99s567m", "9s", melds=CHI, xianggong=(True, False, False, False)))


def test_another_seats_xianggong_does_not_stop_the_winner() -> None:
    assert (
        score(win("456p78s99s567m", "9s", melds=CHI, xianggong=(False, True, False, False))).fan
        == 6
    )


def test_que_men_adds_two_per_missing_suit() -> None:
    # only 万 and honours: 饼 and 条 are missing; the 混 stands for 9m
    s = score(win("234m456m7m1z666z55z", "8m", discarder=1))
    assert s.patterns.count("缺门") == 2
    assert s.fan == 2 + 4 + 2  # 平和, 缺门 twice, 门清


def test_que_men_counts_a_hun_as_the_tile_it_stands_for_not_as_its_own_kind() -> None:
    # 混 are 4s and 5s; the 5s stands for 9m, so 条 is still missing
    s = score(win("234m456m7m5s666z55z", "8m", discarder=1, wildcards=hun_kinds(tile("4s"))))
    assert s.patterns.count("缺门") == 2


def test_a_hun_forced_into_another_suit_shows_that_suit() -> None:
    s = score(win("123m456m5p1z666z55z", "6p", discarder=1))
    assert s.patterns.count("缺门") == 1


def test_all_triplets_are_dui_dui_he() -> None:
    s = score(win("111m222p33s1z55z77z", "7z", discarder=1))
    assert "对对和" in s.patterns
    assert s.fan == 2 + 4 + 2  # 平和, 对对和, 门清


def test_seven_pairs_with_a_hun_are_qi_xiao_dui() -> None:
    s = score(win("1133m5577p99s55z1z", "2s", discarder=1))
    assert "七小对" in s.patterns
    assert s.fan == 2 + 4 + 2  # 平和, 七小对, 门清


def test_a_kan_zhang_on_five_wan_is_zhuo_wu() -> None:
    s = score(win("46m123p789p456s77z", "5m", discarder=1))
    assert set(s.patterns) == {"平和", "素和", "捉五", "门清"}
    assert s.fan == 8


def test_a_dan_diao_on_five_wan_is_zhuo_wu() -> None:
    assert "捉五" in score(win("123m123p789p456s5m", "5m", discarder=1)).patterns


def test_an_open_wait_on_five_wan_is_no_zhuo_wu() -> None:
    assert "捉五" not in score(win("34m123p789p456s77z", "5m", discarder=1)).patterns


def test_an_announced_du_bao_costs_each_other_seat_two_won_or_not() -> None:
    """004: "独抱"…不论"和"牌，其他玩家均-2 (decision 8): paid per hand, not by the win."""
    assert hand_scores(NO_MELDS, du_bao=(True, False, False, False)) == (6, -2, -2, -2)
    s = score(win("46m123p789p456s77z", "5m", discarder=2))
    assert "独抱" not in s.patterns and s.payments == (8, 0, -8, 0)  # 平和 素和 捉五 门清


def test_hand_scores_add_kongs_du_bao_and_shang_da_tai() -> None:
    melds = ((meld("kong", "1111m"),), (), (), ())
    # seat 0: a 明杠 (2) and 独抱 (2) from each; seat 3: one 上大台 (5) from each
    found = hand_scores(melds, du_bao=(True, False, False, False), shang_da_tai=(0, 0, 0, 1))
    assert found == (3 * 4 - 5, -4 - 5, -4 - 5, 3 * 5 - 4)


def test_a_win_on_a_kong_replacement_doubles_the_hand() -> None:
    plain = score(win("456p7s1z99s567m", "8s", melds=CHI))
    doubled = score(win("456p7s1z99s567m", "8s", melds=CHI, after_kong=True))
    assert doubled.fan == 2 * plain.fan
    assert doubled.payments == (24, -8, -8, -8)


def test_a_concealed_hand_is_men_qing_and_a_concealed_kong_keeps_it() -> None:
    kong = (meld("concealed_kong", "9999p"),)
    assert "门清" in score(win("123m456p7s1z99s", "8s", discarder=1, melds=kong)).patterns
    exposed = (meld("kong", "9999p"),)
    assert "门清" not in score(win("123m456p7s1z99s", "8s", discarder=1, melds=exposed)).patterns


def test_the_reading_best_for_the_winner_is_taken() -> None:
    # 3p 456p and a 混: 3p with the 混 as the pair (混钓), or 345p and 6p with the 混
    s = score(win("234m456p789s1z", "3p", discarder=1, melds=CHI))
    assert "混钓" in s.patterns


def test_nobody_can_win_on_a_discarded_hun() -> None:
    with pytest.raises(ScoringError, match="混"):
        score(win("456p789s567m3m", "1z", discarder=1, melds=CHI))


def test_er_wu_ba_jiang_refuses_another_pair_when_chosen() -> None:
    ctx = win("456p78s99s567m", "9s", discarder=2, melds=CHI)
    assert score(ctx).fan == 4
    with pytest.raises(ScoringError):
        score_with(ctx, TangguScoring(pair_258_only=True))


def test_er_wu_ba_jiang_accepts_a_pair_of_fives() -> None:
    ctx = win("456p78s55s567m", "9s", discarder=2, melds=CHI)
    assert score_with(ctx, TangguScoring(pair_258_only=True)).fan == 4


def test_kong_scores_pay_each_konger_from_each_other_seat() -> None:
    melds = ((meld("kong", "1111m"),), (meld("concealed_kong", "2222p"),), (), ())
    # seat 0: +2 from three seats, −4 to seat 1; seat 1: +4 × 3, −2; seats 2 and 3: −2 −4
    assert kong_scores(melds) == (2, 10, -6, -6)


def test_fengtou_kongs_count_dragons_as_exposed_and_winds_as_concealed() -> None:
    assert kong_scores(((), (), (), ()), [(2, "dragons")]) == (-2, -2, 6, -2)
    assert kong_scores(((), (), (), ()), [(3, "winds")]) == (-4, -4, -4, 12)


def test_an_added_kong_scores_as_an_exposed_kong() -> None:
    assert kong_scores(((meld("added_kong", "5555s"),), (), (), ())) == (6, -2, -2, -2)


def test_a_hand_that_does_not_win_is_refused() -> None:
    with pytest.raises(ScoringError):
        score(win("456p78s99s567m", "1s", discarder=2, melds=CHI))


def test_a_drawn_hun_filling_a_kan_zhang_is_no_zhuo_wu() -> None:
    s = score(win("46m123p789p456s77z", "1z"))
    assert "捉五" not in s.patterns
    assert s.payments == (3 * (2 + 2 + 2), -6, -6, -6)  # 平和, 自摸, 门清


# properties over random winning hands


def _ctx(
    tiles: list[int], win_index: int, wildcards: frozenset[int], self_drawn: bool
) -> WinContext:
    win_tile = tiles[win_index]
    concealed = tuple(tiles[:win_index] + tiles[win_index + 1 :])
    return WinContext(
        variant="tanggu",
        concealed=concealed,
        melds=(),
        win_tile=win_tile,
        self_drawn=self_drawn,
        seat=0,
        dealer=0,
        discarder=None if self_drawn else 1,
        wildcards=wildcards,
    )


@given(winning_hands(), st.integers(0, 13), st.booleans())
def test_any_hand_of_four_sets_and_a_pair_scores_at_least_ping_he(
    tiles: list[int], i: int, drawn: bool
) -> None:
    s = score(_ctx(tiles, i, frozenset(), drawn))
    assert s.fan >= 2
    assert "素和" in s.patterns
    assert s.payments[0] == s.fan * (3 if drawn else 1)


@given(winning_hands(), st.integers(0, 13), st.data())
def test_a_hun_in_place_of_any_suited_tile_keeps_the_win_and_loses_su_he(
    tiles: list[int], win_index: int, data: st.DataObject
) -> None:
    suited = [k for k, t in enumerate(tiles) if k != win_index and t < 27]
    assume(suited)
    hand = tiles[:]
    hun = next(t for t in range(27, 34) if t not in tiles)  # a 混 kind no tile of the hand has
    hand[data.draw(st.sampled_from(suited))] = hun
    s = score(_ctx(hand, win_index, frozenset({hun}), True))
    assert "素和" not in s.patterns
    assert s.fan >= 4  # 平和 and 自摸 at least


def test_a_fengtou_kong_laid_down_as_a_meld_keeps_men_qing_and_scores_as_its_kind() -> None:
    dragons = Meld("kong", tuple(parse_tiles("567z")))
    winds = Meld("concealed_kong", tuple(parse_tiles("1234z")))
    s = score(
        win(
            "123m456p7s3z99s",
            "8s",
            discarder=1,
            melds=(dragons,),
            wildcards=frozenset({tile("3z")}),
        )
    )
    assert "门清" in s.patterns
    assert kong_scores(((dragons, winds), (), (), ())) == (18, -6, -6, -6)


def test_an_added_kong_breaks_men_qing() -> None:
    added = Meld("added_kong", tuple(parse_tiles("9999p")), tile("9p"), 2)
    assert "门清" not in score(win("123m456p7s1z99s", "8s", discarder=1, melds=(added,))).patterns


@pytest.mark.parametrize(
    "exposed", [Meld("pong", (tile("9p"),) * 3), Meld("chi", tuple(parse_tiles("789p")))]
)
def test_an_exposed_pong_or_chi_breaks_men_qing_even_when_its_claimed_tile_is_not_given(
    exposed: Meld,
) -> None:
    # 004 "门清：+2": a 碰 or 吃 is a tile taken from another seat, whether or not the caller
    # (``paiju rules score`` names no claimed tile) says which tile it was
    assert "门清" not in score(win("123m456p7s1z99s", "8s", discarder=1, melds=(exposed,))).patterns
