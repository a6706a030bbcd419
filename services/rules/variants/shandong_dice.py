"""山东 wall break from two throws of two dice (``seeds/002``: 掷骰拿牌).

The dealer throws twice. The first total picks the wall to take from, the dealer's own wall
counted as 1 and going on in turn order (``002``: 以庄家位置作为1以逆时针顺序判定; turn order is
counter-clockwise, README). The first total plus the second is the number of stacks counted
from the right end of that wall, as its owner sees it (以被拿牌方从右往左数); dealing starts
with the stack after them, and replacements (补花, kongs) come from the other side of the break.

Wall layout this module assumes (a choice: ``002`` does not describe the flat wall): 144 tiles
as 72 stacks of two, top tile first. Stacks are numbered in counting direction (clockwise round
the table): seat 0's wall holds stacks 0–17 from its right end, then come seat 3's, seat 2's and
seat 1's walls, as the next wall clockwise is the previous seat in turn order. Counting past the
end of a wall runs on into the next one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

SEATS = 4
STACKS_PER_WALL = 18  # 每人摆18叠
TILES_PER_STACK = 2

T = TypeVar("T")


@dataclass(frozen=True)
class WallBreak:
    """Where dealing starts: ``stacks`` counted from the right end of ``wall_seat``'s wall."""

    wall_seat: int
    stacks: int


def _check_throw(throw: tuple[int, int]) -> int:
    if len(throw) != 2 or not all(1 <= d <= 6 for d in throw):
        raise ValueError(f"a throw is two dice of 1–6, got {throw}")
    return throw[0] + throw[1]


def wall_break(dealer: int, first: tuple[int, int], second: tuple[int, int]) -> WallBreak:
    """The wall and stack count two throws of two dice give (``002``)."""
    first_total = _check_throw(first)
    second_total = _check_throw(second)
    return WallBreak((dealer + first_total - 1) % SEATS, first_total + second_total)


def break_stack(brk: WallBreak, stacks_per_wall: int = STACKS_PER_WALL) -> int:
    """The global number of the first stack dealt, in the layout of the module docstring."""
    wall_start = ((SEATS - brk.wall_seat) % SEATS) * stacks_per_wall
    return (wall_start + brk.stacks) % (SEATS * stacks_per_wall)


def draw_order(
    wall: Sequence[T], brk: WallBreak, stacks_per_wall: int = STACKS_PER_WALL
) -> list[T]:
    """The physical wall rotated so the first tile dealt comes first and the tail comes last."""
    expected = SEATS * stacks_per_wall * TILES_PER_STACK
    if len(wall) != expected:
        raise ValueError(
            f"a wall of {stacks_per_wall} stacks a side holds {expected} tiles, got {len(wall)}"
        )
    start = break_stack(brk, stacks_per_wall) * TILES_PER_STACK
    return list(wall[start:]) + list(wall[:start])
