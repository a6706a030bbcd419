"""Escape penalties (逃跑处罚, decision 16) as each variant's hook says them
(``services/rules/penalties.py``): the rules its mutants broke (issue 28)."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.melds import Meld
from services.rules.penalties import (
    NO_ESCAPE_PENALTY,
    NoEscapePenalty,
    Penalty,
    SeatConduct,
)
from services.rules.tiles import parse_tiles
from services.rules.variants import variant_of
from services.rules.variants.shandong import ShandongEscape
from services.rules.variants.shanghai import ShanghaiEscape

SEATS = range(4)


def conduct(
    seat: int = 0,
    *,
    left: bool = False,
    dropped: bool = False,
    moves: int = 0,
    flowers: int = 0,
    melds: tuple[Meld, ...] = (),
    stake: int = 1,
) -> SeatConduct:
    return SeatConduct(seat, left, dropped, moves, flowers, melds, stake)


# -- 上海 (003) ---------------------------------------------------------------------------------
SHANGHAI = variant_of("shanghai").escape


@pytest.mark.parametrize("seat", SEATS)
def test_shanghai_a_seat_that_quits_pays_66_stakes_and_each_other_seat_gets_20(seat: int) -> None:
    # 003: ③主动逃跑…扣除游戏积分底注的66倍，其他玩家获得游戏积分底注的20倍作为补偿。
    penalty = SHANGHAI.due(conduct(seat, left=True, stake=2))
    assert penalty is not None and penalty.cause == "left"
    assert penalty.rule.startswith("003 逃跑处罚③ 主动逃跑")
    assert penalty.amounts == tuple(-132 if s == seat else 40 for s in SEATS)


@pytest.mark.parametrize("seat", SEATS)
def test_shanghai_a_seat_away_past_three_minutes_pays_60_stakes_each_other_gets_20(
    seat: int,
) -> None:
    # 003: ①断线超过3分钟 扣除游戏积分底注的60倍，其他玩家获得游戏积分底注的20倍作为补偿。
    penalty = SHANGHAI.due(conduct(seat, dropped=True, stake=3))
    assert penalty is not None and penalty.cause == "dropped"
    assert penalty.rule.startswith("003 逃跑处罚① 断线超过3分钟")
    assert penalty.amounts == tuple(-180 if s == seat else 60 for s in SEATS)


@pytest.mark.parametrize("moves", [5, 6, 12])
def test_shanghai_five_moves_made_by_the_system_cost_60_stakes(moves: int) -> None:
    # 003: ②超时5次（即系统代打牌5次）扣除游戏积分底注的60倍，其他玩家获得…20倍作为补偿。
    penalty = SHANGHAI.due(conduct(1, moves=moves))
    assert penalty is not None and penalty.cause == "timeouts"
    assert penalty.rule.startswith("003 逃跑处罚② 超时5次")
    assert penalty.amounts == (20, -60, 20, 20)


@pytest.mark.parametrize("moves", [0, 1, 4])
def test_shanghai_fewer_than_five_system_moves_cost_nothing(moves: int) -> None:
    assert SHANGHAI.due(conduct(2, moves=moves)) is None
    assert ShanghaiEscape().timeouts == 5


def test_shanghai_quitting_is_the_penalty_charged_whatever_else_the_seat_did() -> None:
    # one penalty per seat and hand: 主动逃跑 (66×) before 断线 and 超时 (60×)
    penalty = SHANGHAI.due(conduct(0, left=True, dropped=True, moves=9))
    assert penalty is not None and penalty.cause == "left" and penalty.amounts[0] == -66
    dropped = SHANGHAI.due(conduct(0, dropped=True, moves=9))
    assert dropped is not None and dropped.cause == "dropped"


# -- 山东 (002) ---------------------------------------------------------------------------------
SHANDONG = variant_of("shandong").escape


@pytest.mark.parametrize("seat", SEATS)
def test_shandong_a_leaver_loses_base_plus_its_own_flowers_times_ten_and_nobody_receives_it(
    seat: int,
) -> None:
    # 002: 逃跑扣除分数=（底+花）*10…以上公式中的花都是和牌玩家和逃跑玩家拥有的花数.
    # 底 5; two flower tiles and a 暗杠 of 1m (2 花): (5 + 4) × 10.
    kong = Meld("concealed_kong", tuple(parse_tiles("1111m")))
    penalty = SHANDONG.due(conduct(seat, left=True, flowers=2, melds=(kong,)))
    assert penalty == Penalty(
        "left", "002 逃跑扣除分数=（底+花）*10", tuple(-90 if s == seat else 0 for s in SEATS)
    )


def test_shandong_a_leaver_with_no_flowers_loses_fifty() -> None:
    assert SHANDONG.due(conduct(3, left=True)) == Penalty(
        "left", "002 逃跑扣除分数=（底+花）*10", (0, 0, 0, -50)
    )


def test_shandong_charges_no_penalty_to_a_seat_that_did_not_leave() -> None:
    # 002 names only 逃跑: a drop or the system's moves cost nothing there.
    assert SHANDONG.due(conduct(1, dropped=True, moves=9, flowers=3)) is None


# -- 牡丹江, 哈尔滨, 塘沽 ------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "tanggu"])
def test_where_the_document_has_no_escape_penalty_a_leaver_pays_nothing(variant: str) -> None:
    # 000: 由于PP棋牌平台没有逃跑惩罚机制 (decision 16)
    escape = variant_of(variant).escape
    assert escape is NO_ESCAPE_PENALTY
    assert escape.due(conduct(0, left=True, dropped=True, moves=9, flowers=4)) is None


# -- the values cannot change once made ---------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [conduct(0), Penalty("left", "r", (0, 0, 0, 0))],
    ids=["SeatConduct", "Penalty"],
)
def test_a_seats_conduct_and_a_penalty_are_frozen_and_hold_only_their_fields(value: object) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, dataclasses.fields(value)[0].name, 1)  # type: ignore[arg-type]
    assert not hasattr(value, "__dict__")


@pytest.mark.parametrize(
    "rules",
    [NoEscapePenalty(), ShanghaiEscape(), ShandongEscape()],
    ids=lambda rules: type(rules).__name__,
)
def test_each_variants_escape_rule_is_frozen(rules: object) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.timeouts = 4  # type: ignore[attr-defined]
    assert dataclasses.is_dataclass(rules)
