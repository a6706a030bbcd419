"""Where the dice open the wall: the ``WallBreak`` hooks shared by several variants."""

from __future__ import annotations

from services.rules.tiles import Tile


def side_and_stacks(wall: tuple[Tile, ...], dice: tuple[int, ...], dealer: int) -> tuple[Tile, ...]:
    """The first roll counts the side from the dealer, the last roll the stacks along it
    (``001``: 第一次逆时针数点找到先拿牌的人)."""
    return _opened(wall, (dealer + sum(dice[:2]) - 1) % 4, sum(dice[-2:]))


def opposite_wall(wall: tuple[Tile, ...], dice: tuple[int, ...], dealer: int) -> tuple[Tile, ...]:
    """The deal starts in the wall in front of the dealer's opposite seat, whatever the dice;
    they only count the stacks along it (``000``: 庄家根据摇出筛子的点数从对家的牌蹲中先拿牌,
    decision 15)."""
    return _opened(wall, (dealer + 2) % 4, sum(dice))


def _opened(wall: tuple[Tile, ...], side: int, stacks: int) -> tuple[Tile, ...]:
    """The shuffled wall stands for the four sides laid end to end (the side in front of seat
    ``s`` the ``s``-th), two tiles to a stack, so a break is a rotation."""
    offset = (side * (len(wall) // 4) + 2 * stacks) % len(wall)
    return wall[offset:] + wall[:offset]
