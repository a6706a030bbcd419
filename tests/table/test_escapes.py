"""Leaving, penalties, 网管解散 and the end of a series (decisions 12, 13, 16, 17).

Given a hand, when a seat leaves, stays away, times out again and again, or an operator
dissolves the table, then the penalty events (each naming its rule, once), the level scores
in the settlement, and the series' end.
"""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table.commands import (
    DissolveTable,
    LeaveTable,
    ReportDisconnect,
    StartHand,
    TimeOut,
)
from services.rules.table.deadlines import deadlines
from services.rules.table.deal import random_seat

from .builders import STD, VARIANTS, Table, play_out, tail_for
from .test_series import QUIET, READY_ON_7P, chow_ready_and_win


def dealt(variant: str, base_stake: int = 1, hands: dict[int, str] | None = None) -> Table:
    table = Table(variant, base_stake=base_stake)
    table.start(hands or STD, tail=tail_for(variant))
    return table


def wait_of(table: Table, wait: str) -> TimeOut:
    return next(d for d in deadlines(table.state) if d.wait == wait).timeout


# -- 上海敲麻 (003 逃跑处罚) -----------------------------------------------------------------
def test_shanghai_a_seat_that_leaves_mid_hand_pays_66_times_the_stake_and_each_other_gets_20() -> (
    None
):
    """003: ③主动逃跑（直接关闭正在游戏中的游戏界面）扣除游戏积分底注的66倍，其他玩家获得游戏积分底注的20倍作为补偿。"""
    table = dealt("shanghai", base_stake=2)
    events = table.do(LeaveTable(seat=1))
    assert events[:2] == [
        pe.SeatLeft(seat=1, mid_hand=True),
        pe.PenaltyAdjudicated(
            seat=1,
            cause="left",
            rule="003 逃跑处罚③ 主动逃跑: 66×底注, 其他玩家各得20×底注",
            amounts=(40, -132, 40, 40),
        ),
    ]
    assert table.state.series.scores == (40, -132, 40, 40)


def test_shanghai_a_drop_past_the_reconnect_grace_costs_60_times_the_stake() -> None:
    """003: ①断线超过3分钟 扣除游戏积分底注的60倍，其他玩家获得游戏积分底注的20倍作为补偿。"""
    table = dealt("shanghai")
    table.do(ReportDisconnect(seat=3))
    grace = next(d for d in deadlines(table.state) if d.wait == "reconnect_grace")
    assert grace.seconds == 180  # 3分钟
    events = table.do(grace.timeout)
    assert events[1] == pe.PenaltyAdjudicated(
        seat=3,
        cause="dropped",
        rule="003 逃跑处罚① 断线超过3分钟: 60×底注, 其他玩家各得20×底注",
        amounts=(20, 20, 20, -60),
    )


def test_shanghai_the_fifth_move_the_system_makes_for_a_seat_costs_60_times_the_stake() -> None:
    """003: ②超时5次（即系统代打牌5次）扣除游戏积分底注的60倍，其他玩家获得游戏积分底注的20倍作为补偿。"""
    table = dealt("shanghai")
    for moves in range(1, 6):
        table.do(wait_of(table, "turn" if moves == 1 else "autoplay_window"))
        assert table.hand.system_moves[0] == moves
        penalties = table.of_type(pe.PenaltyAdjudicated)
        assert len(penalties) == (1 if moves == 5 else 0)
        if moves < 5:
            table.pass_all()
            play_out(table, until=lambda t: t.hand.turn == 0 and t.hand.step == "discard")
    assert penalties[0].cause == "timeouts" and penalties[0].amounts == (-60, 20, 20, 20)


def test_shanghai_a_seat_pays_one_escape_penalty_in_a_hand() -> None:
    table = dealt("shanghai")
    table.do(ReportDisconnect(seat=2))
    table.do(wait_of(table, "reconnect_grace"))
    table.do(LeaveTable(seat=2))
    assert [p.cause for p in table.of_type(pe.PenaltyAdjudicated)] == ["dropped"]


# -- 山东麻将 (002: 逃跑扣除分数=（底+花）*10) -----------------------------------------------
def test_shandong_a_leaver_pays_base_plus_its_own_flowers_times_ten() -> None:
    """002: 逃跑扣除分数=（底+花）*10 以上公式中的花都是和牌玩家和逃跑玩家拥有的花数."""
    table = dealt("shandong", hands={**STD, 1: "345m678m12p45p3s6s1f"})
    assert len(table.seat(1).flowers) == 1
    events = table.do(LeaveTable(seat=1))
    assert events[1] == pe.PenaltyAdjudicated(
        seat=1, cause="left", rule="002 逃跑扣除分数=（底+花）*10", amounts=(0, -60, 0, 0)
    )


def test_shandong_a_drop_is_no_escape() -> None:
    table = dealt("shandong")
    table.do(ReportDisconnect(seat=2))
    table.do(wait_of(table, "reconnect_grace"))
    assert table.of_type(pe.PenaltyAdjudicated) == []


# -- no escape penalty ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "tanggu"])
def test_a_leaver_pays_no_penalty_where_the_rules_have_none(variant: str) -> None:
    """000: 由于PP棋牌平台没有逃跑惩罚机制 … 进入系统托管状态，直到该局打完，系统结算后玩家才彻底退出。"""
    table = dealt(variant)
    table.do(LeaveTable(seat=2))
    play_out(table)
    assert table.of_type(pe.PenaltyAdjudicated) == []
    assert table.last(ev.HandSettled).level_scores == (0, 0, -3, 0)


# -- level score (decisions 12, 17) -----------------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_every_variant_scores_three_to_the_winner_and_minus_one_to_each_other_seat(
    variant: str,
) -> None:
    """003: 和牌者可得到3分的等级分，其他玩家扣除一分的等级分 (decision 17: on every variant)."""
    table = Table(variant)
    table.start({0: QUIET + "1m", 1: READY_ON_7P}, draws=["7p"], tail=tail_for(variant))
    chow_ready_and_win(table)
    assert table.last(ev.HandSettled).level_scores == (-1, 3, -1, -1)


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_when_a_seat_left_the_leaver_loses_three_and_nobody_else_scores(variant: str) -> None:
    """003: 有人逃跑的情况下，逃跑的扣3分，其他人不得分。"""
    table = Table(variant)
    table.start({0: QUIET + "1m", 1: READY_ON_7P}, draws=["7p"], tail=tail_for(variant))
    table.do(LeaveTable(seat=3))
    chow_ready_and_win(table)
    settled = table.last(ev.HandSettled)
    assert table.last(ev.HandWon).wins[0].seat == 1 and sum(settled.payments) == 0
    assert settled.level_scores == (0, 0, 0, -3)
    assert table.state.series.level_scores == (0, 0, 0, -3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_drawn_hand_scores_no_level(variant: str) -> None:
    """003: 流局所有玩家均不计算等级分."""
    table = dealt(variant)
    play_out(table)
    assert table.last(ev.HandSettled).level_scores == (0, 0, 0, 0)


# -- the end of a series (decision 13; 001, 002: 任意一个玩家离开游戏，算作新的一局开始) -----------
@pytest.mark.parametrize("variant", VARIANTS)
def test_after_a_hand_a_seat_left_the_series_ends_and_the_next_hand_begins_a_new_one(
    variant: str,
) -> None:
    """001: 任意一个玩家离开游戏，算作新的一局开始."""
    table = dealt(variant)
    table.do(LeaveTable(seat=1))
    play_out(table)
    after = table.events[table.events.index(table.last(ev.HandSettled)) :]
    assert after[-1] == pe.SeriesEnded(number=1, reason="seat_left", hands=1)
    series = table.state.series
    assert (series.number, series.hands_in_series, series.next_dealer) == (2, 0, None)
    assert (series.drawn_streak, series.huangfan, series.hands_played) == (0, 0, 1)
    assert not table.state.presence[1].left  # the seat is free for the next player
    table.do(StartHand(seed="a-new-series-seed"))
    expected = 0 if variant == "tanggu" else random_seat("a-new-series-seed")
    assert table.hand.dealer == expected and table.hand.number == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_operator_dissolving_a_hand_abandons_it_pays_nothing_and_ends_the_series(
    variant: str,
) -> None:
    """001: 网管解散算作新┅局开始."""
    table = dealt(variant)
    table.play(0, "2m")
    events = table.do(DissolveTable(reason="room closed"))
    assert events[0] == pe.TableDissolved(reason="room closed", mid_hand=True)
    settled = table.last(ev.HandSettled)
    assert settled.payments == settled.hand_payments == settled.level_scores == (0, 0, 0, 0)
    assert events[-1] == pe.SeriesEnded(number=1, reason="dissolved", hands=1)
    assert table.state.hand_over and table.state.series.number == 2
    assert deadlines(table.state) == ()


def test_dissolving_between_hands_ends_the_series_at_once() -> None:
    table = dealt("shandong")
    play_out(table)
    assert table.state.series.drawn_streak == 1
    events = table.do(DissolveTable())
    assert events == [
        pe.TableDissolved(reason="", mid_hand=False),
        pe.SeriesEnded(number=1, reason="dissolved", hands=1),
    ]
    assert table.state.series.drawn_streak == 0
    assert "nothing to dissolve" in table.refuse(DissolveTable())


def test_leaving_between_hands_ends_the_series_without_a_penalty() -> None:
    table = dealt("shanghai")
    play_out(table)
    events = table.do(LeaveTable(seat=0))
    assert events == [
        pe.SeatLeft(seat=0, mid_hand=False),
        pe.SeriesEnded(number=1, reason="seat_left", hands=1),
    ]


def test_shanghai_a_new_series_starts_its_huangfan_count_at_zero() -> None:
    table = dealt("shanghai")
    play_out(table)
    assert table.state.series.huangfan == 1
    table.do(LeaveTable(seat=2))
    assert table.state.series.huangfan == 0
