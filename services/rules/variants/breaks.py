"""Where the dice open the wall: the ``WallBreak`` hooks shared by several variants."""

from __future__ import annotations

from services.rules.tiles import Tile


def side_and_stacks(wall: tuple[Tile, ...], dice: tuple[int, ...], dealer: int) -> tuple[Tile, ...]:
    """The first roll counts the side from the dealer, the last roll the stacks along it
    (``000``, ``001``); the shuffled wall stands for the four sides laid end to end, so the
    break is a rotation."""
    side = (dealer + sum(dice[:2]) - 1) % 4
    stacks = sum(dice[-2:])
    offset = (side * (len(wall) // 4) + 2 * stacks) % len(wall)
    return wall[offset:] + wall[:offset]
