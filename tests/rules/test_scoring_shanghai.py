"""上海敲麻 scoring (seeds/003, README decision 8): 花 × 2^番."""

from __future__ import annotations

from typing import Any

import pytest
from hands import meld as shared_meld
from hands import win_context

from services.rules.melds import Meld, MeldKind
from services.rules.scoring.base import ScoringError, WinContext
from services.rules.scoring.shanghai import (
    ShanghaiScoring,
    escape_penalties,
    meld_hua,
    score,
    score_with,
)

READY = (True, True, True, True)


def meld(kind: MeldKind, text: str, from_seat: int | None = 1) -> Meld:
    return shared_meld(kind, text, from_seat)


def win(concealed: str, win_tile: str, *, discarder: int | None = None, **kw: Any) -> WinContext:
    return win_context(
        "shanghai", concealed, win_tile, discarder=discarder, ready=kw.pop("ready", READY), **kw
    )


OPEN = (meld("chi", "123m"),)
OPEN_HAND = "456p789s234s5p"  # with the 吃 of 123m, waits on 5p


def test_a_plain_open_win_is_worth_the_bottom_hua_alone() -> None:
    s = score(win(OPEN_HAND, "5p", discarder=2, melds=OPEN))
    assert s.patterns == ()
    assert s.fan == 0
    assert s.details["hua"] == 1
    assert s.payments == (3, -1, -1, -1)


def test_every_other_seat_pays_on_a_discard_as_on_a_self_draw() -> None:
    assert score(win(OPEN_HAND, "5p", melds=OPEN)).payments == (3, -1, -1, -1)


def test_the_discarder_pays_alone_as_an_option() -> None:
    config = ShanghaiScoring(discarder_pays_alone=True)
    assert score_with(win(OPEN_HAND, "5p", discarder=2, melds=OPEN), config).payments == (
        1,
        0,
        -1,
        0,
    )


def test_a_robbed_kong_is_settled_like_a_win_on_a_discard() -> None:
    ctx = win(OPEN_HAND, "5p", discarder=3, melds=OPEN, robbed_kong=True)
    assert score(ctx).payments == (3, -1, -1, -1)
    config = ShanghaiScoring(discarder_pays_alone=True)
    assert score_with(ctx, config).payments == (1, 0, 0, -1)


def test_points_are_hua_times_two_to_the_fan() -> None:
    # 门清 and 荒番局: 2 番; 底花 1 + 3 flowers: 4 花 → 16 points
    s = score(win("123m456p789s234s5p", "5p", flowers=(3, 0, 0, 0), huangfan_hand=True))
    assert set(s.patterns) == {"门清", "荒番局"}
    assert s.details["hua"] == 4
    assert s.details["points"] == 16
    assert s.payments == (48, -16, -16, -16)


def test_payments_scale_with_the_base_stake() -> None:
    assert score(win(OPEN_HAND, "5p", melds=OPEN, base_stake=10)).payments == (30, -10, -10, -10)


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("pong", "111z", 1),  # 风向碰
        ("pong", "777z", 1),  # 字牌
        ("pong", "555m", 0),
        ("chi", "345s", 0),
        ("kong", "5555m", 1),  # 明杠
        ("added_kong", "5555m", 1),  # 上杠
        ("concealed_kong", "5555m", 2),  # 暗杠
        ("kong", "2222z", 2),  # 风向明杠
        ("added_kong", "3333z", 2),  # 风向上杠
        ("concealed_kong", "4444z", 3),  # 风向暗杠
        ("kong", "6666z", 2),  # 字牌 and 明杠
        ("concealed_kong", "5555z", 3),  # 字牌 and 暗杠
    ],
)
def test_each_row_of_the_hua_table_counts_its_value(kind: str, text: str, expected: int) -> None:
    assert meld_hua(meld(kind, text)) == expected


def test_a_dragon_kong_can_count_as_a_kong_alone() -> None:
    assert meld_hua(meld("kong", "6666z"), ShanghaiScoring(dragon_kong_adds_set=False)) == 1


def test_concealed_wind_and_dragon_triplets_count_one_hua_each() -> None:
    # 风暗刻 111z and 字牌 555z in hand: 底花 1 + 2
    s = score(win("111z555z789s5p", "5p", discarder=1, melds=OPEN))
    assert s.details["hua"] == 3


def test_a_dragon_pair_brings_no_hua() -> None:
    assert score(win("123m456p789s234s7z", "7z", discarder=1)).details["hua"] == 1


def test_four_melds_make_da_diao_che() -> None:
    melds = (
        meld("chi", "123m"),
        meld("pong", "999p"),
        meld("kong", "5555s"),
        meld("concealed_kong", "1111z"),
    )
    s = score(win("7p", "7p", discarder=1, melds=melds))
    assert s.patterns == ("大吊车",)
    # 底花 1 + 明杠 1 + 风向暗杠 3 = 5 花, 1 番
    assert s.details["points"] == 10


def test_four_concealed_kongs_are_da_diao_che_and_men_qing() -> None:
    kongs = tuple(meld("concealed_kong", t) for t in ("1111m", "2222p", "3333s", "4444s"))
    s = score(win("7p", "7p", melds=kongs))
    assert set(s.patterns) == {"大吊车", "门清"}


def test_a_win_on_a_kong_or_flower_replacement_is_gang_kai() -> None:
    s = score(win(OPEN_HAND, "5p", melds=OPEN, after_kong=True))
    assert s.patterns == ("杠开",)
    assert s.details["points"] == 2


def test_a_concealed_kong_keeps_men_qing_and_an_exposed_one_breaks_it() -> None:
    closed = score(
        win("456p789s234s5p", "5p", discarder=1, melds=(meld("concealed_kong", "1111m"),))
    )
    opened = score(win("456p789s234s5p", "5p", discarder=1, melds=(meld("kong", "1111m"),)))
    assert closed.patterns == ("门清",)
    assert opened.patterns == ()


def test_the_level_score_is_three_for_the_winner_and_minus_one_for_each_other_seat() -> None:
    s = score(win(OPEN_HAND, "5p", melds=OPEN, seat=2, discarder=1))
    assert [s.details[f"level_{seat}"] for seat in range(4)] == [-1, -1, 3, -1]


def test_a_seat_that_has_not_declared_ready_cannot_win() -> None:
    with pytest.raises(ScoringError, match="听"):
        score(win(OPEN_HAND, "5p", melds=OPEN, ready=(False, True, True, True)))


def test_seven_pairs_are_no_win_in_shanghai() -> None:
    with pytest.raises(ScoringError):
        score(win("1133m5577p99s11z2z", "2z", discarder=1))


@pytest.mark.parametrize(("reason", "loss"), [("disconnected", 60), ("timeouts", 60), ("quit", 66)])
def test_a_leaver_loses_its_multiple_of_the_stake_and_others_gain_twenty(
    reason: str, loss: int
) -> None:
    penalties = escape_penalties(1, reason, base_stake=2)  # type: ignore[arg-type]
    assert penalties == (40, -2 * loss, 40, 40)
