"""山东麻将 scoring (seeds/002, README decisions 8 and 11) and its wall break from the dice."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hands import meld, win_context, winning_hands
from hypothesis import given
from hypothesis import strategies as st

from services.rules.melds import Meld
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.scoring.shandong import (
    ShandongScoring,
    chengbao_seat,
    drawn_factor,
    escape_penalty,
    score,
    score_with,
)
from services.rules.variants.shandong_dice import WallBreak, break_stack, draw_order, wall_break


def win(
    concealed: str, win_tile: str, *, seat: int = 0, discarder: int | None = None, **kw: Any
) -> WinContext:
    return win_context(
        "shandong",
        concealed,
        win_tile,
        seat=seat,
        discarder=discarder,
        dealer=kw.pop("dealer", 3),
        **kw,
    )


PLAIN = "123m456p789s234s5z"  # 推倒和 on 5z (单钓 白)


def test_a_plain_win_on_a_discard_is_tui_dao_he_paid_by_the_discarder_alone() -> None:
    s = score(win(PLAIN, "5z", discarder=2))
    assert s.patterns == ("推倒和",)
    assert s.fan == 1
    assert s.payments == (5, 0, -5, 0)


def test_a_self_drawn_win_is_paid_by_each_other_seat() -> None:
    assert score(win(PLAIN, "5z")).payments == (15, -5, -5, -5)


def test_each_flower_adds_one_hua_to_the_base() -> None:
    s = score(win(PLAIN, "5z", discarder=1, flowers=(3, 0, 0, 0)))
    assert s.details["hua"] == 3
    assert s.payments == (8, -8, 0, 0)


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("pong", "111z", 1),  # 风牌碰
        ("pong", "555z", 1),  # 箭牌碰
        ("pong", "111m", 0),  # a suited 碰 has no 花
        ("kong", "2222z", 2),  # 字牌明杠
        ("added_kong", "7777z", 2),  # 字牌补杠
        ("concealed_kong", "3333z", 3),  # 字牌暗杠
        ("kong", "9999m", 1),  # 万条筒明杠
        ("added_kong", "1111s", 1),
        ("concealed_kong", "5555p", 2),
    ],
)
def test_every_hua_source_of_the_table_counts_its_value(
    kind: str, text: str, expected: int
) -> None:
    s = score(win("123m456p234s5z", "5z", discarder=1, melds=(meld(kind, text, 1),)))
    assert s.details["hua"] == expected


def test_a_triplet_formed_by_the_winning_tile_brings_no_hua() -> None:
    s = score(win("123m456p789s11z55z", "1z", discarder=1))
    assert s.details["hua"] == 0


def test_the_fan_of_several_patterns_add_up() -> None:
    # 清一色 (5) + 一条龙 (2) on a discard
    s = score(win("1234567899m111m", "9m", discarder=1))
    assert set(s.patterns) == {"清一色", "一条龙"}
    assert s.fan == 7
    assert s.payments == (35, -35, 0, 0)


@pytest.mark.parametrize(
    ("concealed", "win_tile", "melds", "name", "fan"),
    [
        ("123m456m789m11z22z", "2z", (), "混一色", 2),
        ("123p456p789p11m22s", "2s", (), "一条龙", 2),
        ("111m222p333s44z55z", "5z", (), "碰碰和", 2),
        ("1133m5577p99s11z2z", "2z", (), "七对", 2),
        ("222m555m888p22s88s", "8s", (), "将一色", 5),
    ],
)
def test_each_pattern_of_the_fan_table_scores_its_fan(
    concealed: str, win_tile: str, melds: tuple[Meld, ...], name: str, fan: int
) -> None:
    s = score(win(concealed, win_tile, discarder=1, melds=melds))
    assert name in s.patterns
    assert "推倒和" not in s.patterns
    assert s.fan >= fan


def test_seven_pairs_of_one_suit_count_qi_dui_and_qing_yi_se() -> None:
    # 112233 and 778899 also read as runs (清一色 alone, 5 番); the 七对 reading is worth more
    s = score(win("113355778899m2m", "2m", discarder=1))
    assert set(s.patterns) == {"七对", "清一色"}
    assert s.fan == 7


def test_a_pong_pong_hand_of_258_is_jiang_yi_se_and_peng_peng_he() -> None:
    s = score(win("222m555m888p22s88s", "8s", discarder=1))
    assert set(s.patterns) == {"将一色", "碰碰和"}
    assert s.fan == 7


def test_a_kong_replacement_self_draw_is_gang_shang_kai_hua() -> None:
    s = score(win(PLAIN, "5z", after_kong=True))
    assert s.patterns == ("杠上开花",)
    assert s.fan == 2


def test_the_dealer_winning_on_the_opening_hand_is_tian_he() -> None:
    s = score(win(PLAIN, "5z", dealer=0, first_draw=True))
    assert s.patterns == ("天和",)
    assert s.fan == 6


def test_a_non_dealer_winning_in_the_first_go_round_is_di_he() -> None:
    s = score(win(PLAIN, "5z", dealer=3, first_draw=True, discarder=3))
    assert s.patterns == ("地和",)
    assert s.fan == 5


def test_a_hand_that_does_not_win_is_refused() -> None:
    with pytest.raises(ScoringError):
        score(win("123m456p789s234s5z", "6z", discarder=1))


@pytest.mark.parametrize(
    ("streak", "factor"), [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 32), (6, 32), (40, 32)]
)
def test_each_consecutive_drawn_hand_doubles_the_next_win_up_to_32_times(
    streak: int, factor: int
) -> None:
    assert drawn_factor(streak) == factor
    s = score(win(PLAIN, "5z", discarder=1, drawn_streak=streak))
    assert s.payments == (5 * factor, -5 * factor, 0, 0)


def test_a_chain_of_five_drawn_hands_reaches_32_times_and_a_sixth_stays_capped() -> None:
    amounts = [
        score(win(PLAIN, "5z", discarder=1, drawn_streak=n)).details["amount"] for n in range(8)
    ]
    assert amounts == [5, 10, 20, 40, 80, 160, 160, 160]


def test_the_drawn_hand_cap_is_a_config_value() -> None:
    assert drawn_factor(6, ShandongScoring(drawn_factor_cap=64)) == 64


FED_BY_2 = (meld("pong", "111p", 2), meld("chi", "234s", 2))
THIRD_FED = meld("pong", "999m", 2)


def test_two_fed_melds_are_no_chengbao() -> None:
    ctx = win("123m9s", "9s", melds=FED_BY_2 + (meld("pong", "777p", 1),))
    assert chengbao_seat(ctx) is None
    assert score(ctx).payments == (15, -5, -5, -5)


def test_after_a_third_fed_meld_the_feeder_pays_everything_on_a_self_draw() -> None:
    ctx = win("123m9s", "9s", melds=FED_BY_2 + (THIRD_FED,))
    assert chengbao_seat(ctx) == 2
    s = score(ctx)
    assert s.payments == (15, 0, -15, 0)
    assert s.details["liable_seat"] == 2


def test_chengbao_takes_precedence_over_the_discarder_of_the_winning_tile() -> None:
    s = score(win("123m9s", "9s", discarder=1, melds=FED_BY_2 + (THIRD_FED,)))
    assert s.payments == (15, 0, -15, 0)


def test_an_added_kong_counts_as_fed_by_the_seat_that_fed_its_pong() -> None:
    melds = FED_BY_2 + (meld("added_kong", "9999m", 2),)
    ctx = win("123m9s", "9s", melds=melds)
    assert chengbao_seat(ctx) == 2
    assert score(ctx).payments[2] == -3 * (5 + 1) * 1


def test_a_robbed_kong_is_paid_by_the_robbed_seat_for_all_three() -> None:
    s = score(win(PLAIN, "5z", discarder=3, robbed_kong=True))
    assert s.payments == (15, 0, 0, -15)


def test_gang_bao_makes_the_seat_whose_discard_was_kongged_pay_all() -> None:
    s = score(win(PLAIN, "5z", after_kong=True, kong_fed_by=1))
    assert s.patterns == ("杠上开花",)
    assert s.payments == (30, -30, 0, 0)


def test_an_open_declared_winner_wins_double() -> None:
    s = score(win(PLAIN, "5z", open_declared=(True, False, False, False)))
    assert s.payments == (30, -10, -10, -10)


def test_an_open_declared_seat_that_deals_in_pays_double() -> None:
    s = score(win(PLAIN, "5z", discarder=2, open_declared=(False, False, True, False)))
    assert s.payments == (10, 0, -10, 0)


def test_an_open_declared_seat_pays_the_normal_amount_on_another_seats_self_draw() -> None:
    s = score(win(PLAIN, "5z", open_declared=(False, False, True, False)))
    assert s.payments == (15, -5, -5, -5)


def test_an_open_declared_seat_cannot_win_on_a_discard() -> None:
    with pytest.raises(ScoringError, match="明楼"):
        score(win(PLAIN, "5z", discarder=2, open_declared=(True, False, False, False)))


def test_an_open_declared_seat_whose_kong_is_robbed_pays_double_for_all() -> None:
    s = score(
        win(PLAIN, "5z", discarder=3, robbed_kong=True, open_declared=(False, False, False, True))
    )
    assert s.payments == (30, 0, 0, -30)


def test_the_escape_penalty_is_base_plus_hua_times_ten() -> None:
    assert escape_penalty(0) == 50
    assert escape_penalty(2, (meld("concealed_kong", "1111z"),)) == (5 + 2 + 3) * 10


def test_several_winners_on_one_discard_are_each_paid_by_the_discarder() -> None:
    first = score(win(PLAIN, "5z", seat=0, discarder=2))
    second = score(win("123m456p789s234s1z", "1z", seat=1, discarder=2))
    total = [a + b for a, b in zip(first.payments, second.payments, strict=True)]
    assert total == [5, 5, -10, 0]


def test_the_base_is_a_config_value() -> None:
    assert score_with(win(PLAIN, "5z", discarder=1), ShandongScoring(base=10)).payments[0] == 10


def test_flowers_in_the_winning_hand_are_refused() -> None:
    with pytest.raises(ScoringError, match="flowers"):
        score(win("123m456p789s234s1f", "1f"))


def test_a_hand_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ScoringError, match="14 tiles"):
        score(replace(win(PLAIN, "5z"), melds=(meld("pong", "111z", 1),)))


# 掷骰拿牌: the wall break from two throws of two dice


def test_the_first_total_picks_the_wall_counting_the_dealer_as_one_in_turn_order() -> None:
    assert wall_break(dealer=1, first=(1, 4), second=(1, 1)).wall_seat == 1  # 5 → the dealer
    assert wall_break(dealer=1, first=(1, 1), second=(1, 1)).wall_seat == 2  # 2 → next seat
    assert wall_break(dealer=1, first=(6, 6), second=(1, 1)).wall_seat == 0  # 12 → the seat before


def test_both_totals_together_are_the_stacks_counted_from_the_right() -> None:
    assert wall_break(dealer=0, first=(3, 4), second=(2, 5)) == WallBreak(wall_seat=2, stacks=14)


def test_counting_past_a_walls_end_runs_into_the_next_wall_clockwise() -> None:
    # seat 0's wall holds stacks 0-17, the next wall clockwise (seat 3) 18-35
    assert break_stack(WallBreak(0, 20)) == 20
    assert break_stack(WallBreak(3, 4)) == 22
    assert break_stack(WallBreak(1, 24)) == 6  # wraps past stack 71


def test_the_draw_order_starts_at_the_break_and_ends_with_the_tail() -> None:
    wall = list(range(144))
    order = draw_order(wall, WallBreak(0, 3))
    assert order[:2] == [6, 7]
    assert order[-2:] == [4, 5]
    assert sorted(order) == wall


@pytest.mark.parametrize("throw", [(0, 3), (7, 1)])
def test_a_die_shows_one_to_six(throw: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        wall_break(0, throw, (1, 1))


# properties over random winning hands


def _ctx(tiles: list[int], win_index: int, discarder: int | None) -> WinContext:
    return WinContext(
        variant="shandong",
        concealed=tuple(tiles[:win_index] + tiles[win_index + 1 :]),
        melds=(),
        win_tile=tiles[win_index],
        self_drawn=discarder is None,
        seat=0,
        dealer=3,
        discarder=discarder,
    )


@given(winning_hands(), st.integers(0, 13), st.integers(0, 8))
def test_a_self_draw_earns_three_times_what_the_same_win_on_a_discard_earns(
    tiles: list[int], win_index: int, streak: int
) -> None:
    drawn = score(replace(_ctx(tiles, win_index, None), drawn_streak=streak))
    dealt = score(replace(_ctx(tiles, win_index, 2), drawn_streak=streak))
    assert drawn.payments[0] == 3 * dealt.payments[0]
    assert drawn.payments[1:] == (dealt.payments[2],) * 3


@given(winning_hands(), st.integers(0, 13))
def test_tui_dao_he_stands_alone_and_only_when_nothing_else_holds(
    tiles: list[int], win_index: int
) -> None:
    s = score(_ctx(tiles, win_index, 1))
    assert ("推倒和" in s.patterns) == (s.patterns == ("推倒和",))
    assert s.fan >= 1
