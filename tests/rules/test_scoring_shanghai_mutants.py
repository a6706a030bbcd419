"""上海敲麻 scoring (``services/rules/scoring/shanghai.py``, ``seeds/003``, README decision 8):
the rules its surviving mutants broke (issue 28)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hands import meld as shared_meld
from hands import win_context

from services.rules.melds import Meld, MeldKind
from services.rules.scoring.base import WinContext
from services.rules.scoring.shanghai import (
    ShanghaiScoring,
    ShanghaiWin,
    concealed_honour_hua,
    escape_penalties,
    score,
    score_with,
)
from services.rules.tiles import parse_tiles

READY = (True, True, True, True)
OPEN = (shared_meld("chi", "123m", 1),)


def meld(kind: MeldKind, text: str) -> Meld:
    return shared_meld(kind, text, None if kind == "concealed_kong" else 1)


def win(concealed: str, win_tile: str, *, discarder: int | None = 1, **kw: Any) -> WinContext:
    return win_context("shanghai", concealed, win_tile, discarder=discarder, ready=READY, **kw)


THREE_SETS = (meld("chi", "123m"), meld("pong", "999p"), meld("kong", "5555s"))
FOUR_SETS = (*THREE_SETS, meld("concealed_kong", "1111z"))


# -- 番: 大吊车 -----------------------------------------------------------------------------------
def test_three_sets_laid_down_are_not_yet_da_diao_che() -> None:
    """大吊车：“吃”或“碰”或“杠”总计有4次，并符合普通胡牌牌型 (003): three are not enough."""
    s = score(win("234p5s", "5s", melds=THREE_SETS))
    assert s.patterns == ()
    assert s.fan == 0
    # 底花 1 + 明杠 1 = 2 花, no 番
    assert s.details["points"] == 2


def test_a_house_threshold_for_da_diao_che_is_a_least_count_of_sets() -> None:
    """大吊车: “吃”或“碰”或“杠”总计有4次 (003); a table that asks fewer sets (``da_diao_che_melds``)
    still grants it to a hand with more."""
    config = ShanghaiScoring(da_diao_che_melds=3)
    three = score_with(win("234p5s", "5s", melds=THREE_SETS), config)
    four = score_with(win("7p", "7p", melds=FOUR_SETS), config)
    assert three.patterns == ("大吊车",)
    assert four.patterns == ("大吊车",)
    assert four.fan == 1


# -- the win the 番 patterns read ----------------------------------------------------------------
def test_the_win_the_fan_patterns_read_cannot_be_changed_by_them() -> None:
    """番数计算 (003: 荒番局, 大吊, 杠开, 门清) reads one win; no pattern may alter it for the next."""
    reading = ShanghaiWin(win("7p", "7p", melds=FOUR_SETS))
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.config = ShanghaiScoring(da_diao_che_melds=5)  # type: ignore[misc]
    assert reading.config == ShanghaiScoring()
    assert hash(reading) == hash(ShanghaiWin(reading.ctx))


# -- 花: concealed honour sets and flowers ------------------------------------------------------
@pytest.mark.parametrize(("tiles", "kind"), [("1111z", "风暗刻"), ("5555z", "字牌")])
def test_four_of_an_honour_held_without_a_kong_still_count_their_set_once(
    tiles: str, kind: str
) -> None:
    """风暗刻：1花/个; 字牌：1花/个 (003): four in the hand hold the set, counted once per set."""
    assert concealed_honour_hua(tuple(parse_tiles(tiles))) == 1, kind
    assert concealed_honour_hua(tuple(parse_tiles(tiles + "234m"))) == 1, kind


def test_concealed_wind_and_dragon_sets_are_worth_their_configured_hua() -> None:
    """风暗刻：1花/个; 字牌：1花/个 (003), each a factor of the table's scoring config."""
    config = ShanghaiScoring(wind_concealed_triplet=2, dragon_set=3)
    # 风暗刻 111z and 字牌 555z in hand, 吃 of 123m: 底花 1 + 2 + 3
    s = score_with(win("111z555z789s5p", "5p", melds=OPEN), config)
    assert s.details["hua"] == 6
    assert type(s.details["hua"]) is int
    assert s.payments == (18, -6, -6, -6)


def test_each_flower_is_worth_its_configured_hua() -> None:
    """花牌：1花/个 (003), a factor of the table's scoring config; only the winner's flowers count."""
    config = ShanghaiScoring(flower=2)
    s = score_with(win("456p789s234s5p", "5p", melds=OPEN, flowers=(3, 1, 0, 0)), config)
    # 底花 1 + 3 flowers × 2
    assert s.details["hua"] == 7
    assert type(s.details["hua"]) is int
    assert s.payments == (21, -7, -7, -7)


def test_hua_and_points_stay_whole_numbers_under_the_default_table() -> None:
    """底分计算 (003) counts 花 by the piece: 花 and points are whole numbers."""
    s = score(win("111z555z789s5p", "5p", melds=OPEN, flowers=(2, 0, 0, 0), huangfan_hand=True))
    # 底花 1 + 2 flowers + 风暗刻 1 + 字牌 1 = 5 花; 荒番局 1 番
    assert (s.details["hua"], s.details["points"]) == (5, 10)
    assert all(type(v) is int for v in (s.details["hua"], s.details["points"], *s.payments))


# -- 逃跑处罚 -------------------------------------------------------------------------------------
def test_an_escape_with_no_stake_named_costs_one_stake() -> None:
    """逃跑处罚③ 主动逃跑：扣除游戏积分底注的66倍，其他玩家获得游戏积分底注的20倍作为补偿 (003),
    at a 底注 of 1 when none is named."""
    assert escape_penalties(2, "quit") == (20, 20, -66, 20)
    assert escape_penalties(0, "disconnected") == (-60, 20, 20, 20)


@pytest.mark.parametrize("leaver", [-1, 4, 5, 9])
def test_an_escape_by_a_seat_outside_the_table_is_refused(leaver: int) -> None:
    """逃跑处罚 (003) falls on one of the four seats, 0–3; any other leaver is refused."""
    with pytest.raises(ValueError, match="seats are 0–3"):
        escape_penalties(leaver, "timeouts", base_stake=1)


@pytest.mark.parametrize("leaver", [0, 3])
def test_the_first_and_last_seat_can_be_penalised_for_escaping(leaver: int) -> None:
    """逃跑处罚② 超时5次：扣除游戏积分底注的60倍，其他玩家获得…20倍作为补偿 (003)."""
    assert escape_penalties(leaver, "timeouts", base_stake=1) == tuple(
        -60 if s == leaver else 20 for s in range(4)
    )
