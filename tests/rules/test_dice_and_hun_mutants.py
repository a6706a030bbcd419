"""The dice at their edges: 山东's wall break (``seeds/002``: two throws of two dice) and 塘沽's 混
indicator (``seeds/004``: 混 is the indicator's kind and the next; rolls count back from the
wall's end). A throw is two dice of 1–6, a roll at least 1; anything else is refused by name."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from services.rules.variants.shandong_dice import (
    STACKS_PER_WALL,
    TILES_PER_STACK,
    WallBreak,
    draw_order,
    wall_break,
)
from services.rules.variants.tanggu_hun import (
    indicator_index,
    indicator_place,
    next_tile,
    second_roller,
)

WALL = 4 * STACKS_PER_WALL * TILES_PER_STACK


@pytest.mark.parametrize("throw", [(3,), (1, 2, 3), (), (0, 3), (3, 7)])
def test_a_throw_is_two_dice_of_one_to_six(throw: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="two dice of 1–6"):
        wall_break(0, throw, (1, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="two dice of 1–6"):
        wall_break(0, (1, 1), throw)  # type: ignore[arg-type]


def test_a_wall_break_once_thrown_cannot_be_changed() -> None:
    brk = wall_break(0, (3, 4), (2, 2))
    with pytest.raises(FrozenInstanceError):
        brk.stacks = 1  # type: ignore[misc]
    assert brk == WallBreak(wall_seat=2, stacks=11)


@pytest.mark.parametrize("size", [WALL - 1, WALL + 1, WALL - TILES_PER_STACK, 0])
def test_a_wall_of_the_wrong_size_is_refused(size: int) -> None:
    with pytest.raises(ValueError, match=f"holds {WALL} tiles, got {size}"):
        draw_order(list(range(size)), WallBreak(0, 2))


def test_a_flower_or_a_negative_number_is_no_hun_indicator() -> None:
    for indicator in (-1, -9, 34, 41):
        with pytest.raises(ValueError, match="no tile that can be a 混 indicator"):
            next_tile(indicator)


def test_a_roll_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        second_roller(0, 0)
    for rolls in ((0, 3), (3, 0), (0, 0)):
        with pytest.raises(ValueError, match="at least 1"):
            indicator_place(*rolls)


def test_the_indicator_may_lie_at_the_very_start_of_the_wall() -> None:
    """Rolls that count back the whole wall land on its first tile (index 0), not beyond it."""
    assert indicator_index(12, 6, 6) == 0
    assert indicator_index(13, 6, 6) == 1
    with pytest.raises(ValueError, match="beyond a wall of 11 tiles"):
        indicator_index(11, 6, 6)
