"""上海敲麻's config and 荒番 counters (``services/rules/variants/shanghai.py``), held through the
rules that read them (issue 28: the rules its mutants broke)."""

from __future__ import annotations

import pytest

from services.rules.table.claims import winning_claims
from services.rules.table.state import Claim, ClaimWindow
from services.rules.tiles import tile
from services.rules.variants import get_variant, variant_of

SHANGHAI = get_variant("shanghai")
COUNTERS = variant_of("shanghai").counters


def test_shanghai_several_seats_win_on_one_discard_nearest_first() -> None:
    # 003: 一炮多响：当打出的牌其他两家或者三家都能胡牌，这种胡牌方式称为一炮多响。
    win = Claim("win")
    window = ClaimWindow(
        tile=tile("5p"),
        from_seat=1,
        options=((2, ("win",)), (3, ("win",)), (0, ("win",))),
        answers=((0, win), (3, win), (2, Claim("pass"))),
    )
    assert winning_claims(SHANGHAI, window) == [(3, win), (0, win)]


@pytest.mark.parametrize(
    ("dice", "added"),
    [((1, 1), 2), ((4, 4), 2), ((1, 5), 1), ((6, 4), 1), ((3, 3), 1), ((2, 5), 0), ((6, 3), 0)],
)
def test_shanghai_the_dice_add_their_huangfan_to_the_count_a_hand_starts_with(
    dice: tuple[int, int], added: int
) -> None:
    # 003: 骰子荒番——如果掷得的2个骰子数为"1""1"或"4""4"，加2次荒番数。骰子数为：1、n（n=2~6）；
    # 4、n（n=1~3,5,6）；2、2；3、3；5、5；6、6的情况，加1次荒番数。
    assert COUNTERS.huangfan_at_start(3, dice) == 3 + added


@pytest.mark.parametrize("dice", [(), (4,)])
def test_shanghai_a_hand_started_without_a_throw_of_two_dice_adds_no_huangfan(
    dice: tuple[int, ...],
) -> None:
    assert COUNTERS.huangfan_at_start(2, dice) == 2


def test_shanghai_a_drawn_hand_adds_one_huangfan_and_a_won_hand_takes_one_off() -> None:
    # 003: 荒番 +1 per drawn hand, −1 per won hand (never below 0)
    assert COUNTERS.huangfan_after(2, won=False) == 3
    assert COUNTERS.huangfan_after(2, won=True) == 1
    assert COUNTERS.huangfan_after(0, won=True) == 0
