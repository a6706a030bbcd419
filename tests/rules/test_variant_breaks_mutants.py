"""Where the dice open the wall, each variant's ``wall_break`` asked directly: the rules the
mutation run of ``services/rules/variants/breaks.py`` found no test of ``tests/rules`` holding
(issue 28).

The shuffled wall stands for the four sides laid end to end, the side in front of seat ``s`` the
``s``-th, two tiles to a stack; a break is a rotation, so the tile dealt first tells where the
wall was opened. The walls here hold their own places (``range``) so that the first tile dealt
is the place the deal starts from.
"""

from __future__ import annotations

import pytest

from services.rules.variants import variant_of


def first_dealt(variant: str, size: int, dice: tuple[int, ...], dealer: int) -> int:
    wall = tuple(range(size))
    opened = variant_of(variant).wall_break(wall, dice, dealer)  # type: ignore[arg-type]
    assert sorted(opened) == list(wall), "a break only rotates the wall"
    assert opened == wall[opened[0] :] + wall[: opened[0]]
    return opened[0]


# -- 哈尔滨 and 塘沽: the first roll counts the side, the last roll the stacks ------------------
@pytest.mark.parametrize(
    ("dealer", "side"),
    [(0, 0), (1, 1), (2, 2), (3, 3)],  # 2 + 3 = 5 counts round to the dealer's own side again
)
def test_harbin_the_first_roll_counts_the_side_from_the_dealer_and_the_last_roll_the_stacks(
    dealer: int, side: int
) -> None:
    # 001: 庄家摇两次筛子第一次逆时针数点找到先拿牌的人，先拿牌的人再从自己面前的牌堆…根据第二次
    # 摇筛子的两个筛子点数之和的点数开始拿牌. First roll 2 + 3: the dealer counts 1, so the 5th
    # is the dealer again; second roll 1 + 5 = 6 stacks, 12 tiles, into that side of 28 tiles.
    assert first_dealt("harbin", 112, (2, 3, 1, 5), dealer) == side * 28 + 12


@pytest.mark.parametrize(
    ("dice", "side", "stacks"),
    [
        ((1, 1, 6, 6), 1, 12),  # 2: the seat after the dealer
        ((1, 2, 3, 4), 2, 7),  # 3: the seat opposite
        ((2, 2, 1, 1), 3, 2),  # 4: the seat before
        ((3, 3, 2, 3), 1, 5),  # 6: round once more to the seat after
    ],
)
def test_tanggu_the_first_roll_counts_the_side_and_the_last_roll_the_stacks(
    dice: tuple[int, int, int, int], side: int, stacks: int
) -> None:
    # 004: 由庄家掷骰子，根据庄家骰点选择第二次掷骰子玩家，由该玩家掷骰子. The dealer (seat 0)
    # counts itself 1; a side of 136 tiles is 34.
    assert first_dealt("tanggu", 136, dice, 0) == side * 34 + 2 * stacks


@pytest.mark.parametrize(("dice", "side"), [((2, 3), 3), ((1, 1), 0), ((6, 5), 1), ((4, 4), 2)])
def test_shanghai_one_roll_of_two_dice_counts_both_the_side_and_the_stacks(
    dice: tuple[int, int], side: int
) -> None:
    # 003 rolls 2 dice (6面骰子2个): the one roll counts the side from the dealer (seat 3 here,
    # counting itself 1) and then the stacks along it; a side of 144 tiles is 36.
    assert first_dealt("shanghai", 144, dice, 3) == side * 36 + 2 * sum(dice)


# -- 牡丹江: always the opposite seat's wall --------------------------------------------------
@pytest.mark.parametrize(("dealer", "opposite"), [(0, 2), (1, 3), (2, 0), (3, 1)])
@pytest.mark.parametrize("dice", [(1, 1), (3, 4), (6, 6)])
def test_mudanjiang_the_deal_starts_in_the_wall_of_the_seat_opposite_the_dealer_whatever_the_dice(
    dealer: int, opposite: int, dice: tuple[int, int]
) -> None:
    # 000: 庄家根据摇出筛子的点数从对家的牌蹲中先拿牌 (decision 15): the dice only count the
    # stacks along the opposite seat's side (28 tiles a side of 112).
    assert first_dealt("mudanjiang", 112, dice, dealer) == opposite * 28 + 2 * sum(dice)
