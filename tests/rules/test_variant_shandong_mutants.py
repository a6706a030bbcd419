"""山东's config and wall break (``services/rules/variants/shandong.py``), held through the rules
that read them (issue 28: the rules its mutants broke)."""

from __future__ import annotations

import pytest

from services.rules.table.claims import winning_claims
from services.rules.table.state import Claim, ClaimWindow
from services.rules.tiles import tile
from services.rules.variants import get_variant, variant_of

SHANDONG = get_variant("shandong")


def test_shandong_several_seats_win_on_one_discard_nearest_first() -> None:
    # 002: 可以一炮多响赢分方的积分均由放炮者支付。
    win = Claim("win")
    window = ClaimWindow(
        tile=tile("5p"),
        from_seat=3,
        options=((0, ("win",)), (1, ("win",)), (2, ("win",))),
        answers=((2, win), (0, win), (1, win)),
    )
    assert winning_claims(SHANDONG, window) == [(0, win), (1, win), (2, win)]


# 144 tiles, 18 stacks of two a side: seat 0's wall holds stacks 0-17, then seat 3's, seat 2's
# and seat 1's (``shandong_dice``); the first tile dealt is twice the first stack dealt.
@pytest.mark.parametrize(
    ("dealer", "dice", "first_tile"),
    [
        # first throw 3: the wall of seat 2 (stacks 36-53), 3 + 8 = 11 stacks in: stack 47
        (0, (1, 2, 3, 5), 94),
        # first throw 7: the wall of seat 3 (stacks 18-35), 7 + 6 = 13 stacks in: stack 31
        (1, (6, 1, 2, 4), 62),
        # first throw 7: the wall of seat 1 (stacks 54-71), 7 + 7 = 14 stacks in: stack 68
        (3, (2, 5, 6, 1), 136),
        # first throw 8: the wall of seat 1, 8 + 4 = 12 stacks in: stack 66
        (2, (4, 4, 1, 3), 132),
    ],
)
def test_shandong_the_first_throw_picks_the_wall_and_both_throws_count_the_stacks(
    dealer: int, dice: tuple[int, int, int, int], first_tile: int
) -> None:
    # 002: 第一次掷出的两個骰子总和为当局拿牌的方向（该位置以庄家位置作为1以逆时针顺序判定）；
    # 而第二次掷出的骰子总和加上第一次掷出的总和为当局拿牌的墩数（以被拿牌方从右往左数）
    wall = tuple(range(144))
    opened = variant_of("shandong").wall_break(wall, dice, dealer)  # type: ignore[arg-type]
    assert opened == wall[first_tile:] + wall[:first_tile]
