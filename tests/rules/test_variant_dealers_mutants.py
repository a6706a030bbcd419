"""Who deals next (decision 13), each variant's succession asked directly: the rules the mutation
run of ``services/rules/variants/dealers.py`` found no test of ``tests/rules`` holding (issue 28).

``next_dealer(dealer, winners, discarder)``: ``winners`` in the order the table takes the wins,
nearest the discarder first; no winners is a drawn hand (荒庄); ``None`` is a dealer drawn at
random from the next hand's seed.
"""

from __future__ import annotations

import pytest

from services.rules.variants import variant_of

SEATS = range(4)


def next_dealer(variant: str, dealer: int, winners: tuple[int, ...], discarder: int | None):
    return variant_of(variant).dealers.next_dealer(dealer, winners, discarder)


# -- 牡丹江 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", SEATS)
def test_mudanjiang_a_drawn_hand_keeps_the_dealer(dealer: int) -> None:
    # 000: 荒庄…重新开局，庄家不变。
    assert next_dealer("mudanjiang", dealer, (), None) == dealer


@pytest.mark.parametrize("winner", SEATS)
def test_mudanjiang_after_any_win_the_next_dealer_is_drawn_at_random(winner: int) -> None:
    # 000: 决定庄家：每一局开始系统随机选择一个庄家 (a win, the dealer's own included).
    assert next_dealer("mudanjiang", 0, (winner,), None) is None
    assert next_dealer("mudanjiang", 0, (winner,), (winner + 1) % 4) is None


def test_mudanjiang_the_first_dealer_of_a_series_is_drawn_at_random() -> None:
    assert variant_of("mudanjiang").dealers.first_dealer() is None


# -- 哈尔滨 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", SEATS)
def test_harbin_the_dealer_keeps_the_deal_on_a_drawn_hand_or_its_own_win(dealer: int) -> None:
    # 001: 如果庄家赢或者和局，则继续坐庄称为连庄。
    assert next_dealer("harbin", dealer, (), None) == dealer
    assert next_dealer("harbin", dealer, (dealer,), None) == dealer
    assert next_dealer("harbin", dealer, (dealer,), (dealer + 2) % 4) == dealer


@pytest.mark.parametrize("dealer", SEATS)
def test_harbin_a_winner_who_is_not_the_dealer_deals_next(dealer: int) -> None:
    # 001: 否则由该局的胜利方做庄。
    for step in (1, 2, 3):
        winner = (dealer + step) % 4
        assert next_dealer("harbin", dealer, (winner,), None) == winner
        assert next_dealer("harbin", dealer, (winner,), dealer) == winner


def test_harbin_the_first_dealer_of_a_series_is_drawn_at_random() -> None:
    # 001: 新开第一局系统随机选择一个庄家。
    assert variant_of("harbin").dealers.first_dealer() is None


# -- 山东 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("dealer", "after"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_shandong_a_drawn_hand_passes_the_deal_to_the_next_seat(dealer: int, after: int) -> None:
    # 002: 荒庄，则由庄家的下一家坐庄。
    assert next_dealer("shandong", dealer, (), None) == after


@pytest.mark.parametrize("dealer", SEATS)
def test_shandong_the_one_winner_deals_next_on_a_discard_as_on_a_self_draw(dealer: int) -> None:
    # 002: 以后每局开始由上局和牌者坐庄。
    for step in (0, 1, 2, 3):
        winner = (dealer + step) % 4
        assert next_dealer("shandong", dealer, (winner,), None) == winner
        discarder = (winner + 3) % 4
        assert next_dealer("shandong", dealer, (winner,), discarder) == winner


@pytest.mark.parametrize(
    ("winners", "discarder"), [((2, 3), 1), ((1, 3), 0), ((3, 0, 1), 2), ((0, 2), 3)]
)
def test_shandong_several_winners_on_one_discard_give_the_deal_to_the_discarder(
    winners: tuple[int, ...], discarder: int
) -> None:
    # 002: 一炮多响则由放炮者坐庄。
    assert next_dealer("shandong", 0, winners, discarder) == discarder


def test_shandong_the_first_dealer_of_a_series_is_drawn_at_random() -> None:
    # 002: 第一把系統随机选一个人坐庄。
    assert variant_of("shandong").dealers.first_dealer() is None


# -- 上海 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("dealer", SEATS)
def test_shanghai_a_drawn_hand_keeps_the_dealer(dealer: int) -> None:
    # decision 13: Shanghai: the winner deals; a drawn hand keeps it.
    assert next_dealer("shanghai", dealer, (), None) == dealer


@pytest.mark.parametrize("winner", SEATS)
def test_shanghai_the_winner_deals_next(winner: int) -> None:
    # 003: 谁胡牌，下一轮由他做庄。
    assert next_dealer("shanghai", 1, (winner,), None) == winner


def test_shanghai_on_several_winners_the_one_nearest_the_discarder_deals_next() -> None:
    # 003 allows 一炮多响; the table lists the wins nearest the discarder first and the first
    # of them deals (谁胡牌，下一轮由他做庄).
    assert next_dealer("shanghai", 0, (2, 3), 1) == 2
    assert next_dealer("shanghai", 0, (3, 0, 1), 2) == 3


def test_shanghai_the_first_dealer_of_a_series_is_drawn_at_random() -> None:
    # 003: 开始时本游戏平台庄家为随机。
    assert variant_of("shanghai").dealers.first_dealer() is None


# -- 塘沽 ---------------------------------------------------------------------------------------
def test_tanggu_the_first_seated_player_deals_the_series_first_hand() -> None:
    # 004: 系统默认第一个入座并举手的玩家为第一局庄家。
    assert variant_of("tanggu").dealers.first_dealer() == 0


@pytest.mark.parametrize("dealer", SEATS)
def test_tanggu_the_dealer_stays_on_its_own_win(dealer: int) -> None:
    # 004: 如果庄家本局和牌，则下一局继续坐庄，称"联（连）庄"。
    assert next_dealer("tanggu", dealer, (dealer,), None) == dealer
    assert next_dealer("tanggu", dealer, (dealer,), (dealer + 1) % 4) == dealer


@pytest.mark.parametrize(("dealer", "after"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_tanggu_another_seats_win_or_a_drawn_hand_passes_the_deal_to_the_next_seat(
    dealer: int, after: int
) -> None:
    # 004: 如果其他玩家和牌，或者本局没有人和牌即"荒庄"，则下一局由本局庄家下手玩家坐庄。
    assert next_dealer("tanggu", dealer, (), None) == after
    for step in (1, 2, 3):
        assert next_dealer("tanggu", dealer, ((dealer + step) % 4,), None) == after
