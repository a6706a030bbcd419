"""上海敲麻 counters at their edges (``seeds/003``: 荒番规则, 等级分): dice show 1–6, a 荒番 count is
never negative and starts at 0, a leaver alone loses 3, and every seat named is one of the four."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from services.rules.levels import level_deltas
from services.rules.variants.shanghai_counters import (
    HuangfanCounter,
    count_after_hand,
    dice_huangfan,
)


@pytest.mark.parametrize("throw", [(0, 3), (3, 0), (7, 3), (3, 7), (0, 0), (7, 7)])
def test_a_die_showing_other_than_one_to_six_is_refused(throw: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="dice show 1–6"):
        dice_huangfan(*throw)


@pytest.mark.parametrize("won", [True, False])
def test_a_negative_count_is_refused_before_a_hand_is_counted(won: bool) -> None:
    with pytest.raises(ValueError, match="never negative"):
        count_after_hand(-1, won)


def test_a_table_opens_with_no_huangfan() -> None:
    """荒番 starts only after a drawn hand (or a dice 荒番): the first hand is no 荒番局."""
    opening = HuangfanCounter()
    assert opening.count == 0
    assert not opening.is_huangfan_hand
    assert opening.after_hand(won=False).is_huangfan_hand


def test_a_counter_is_a_value_each_step_makes_a_new_one() -> None:
    counter = HuangfanCounter(2)
    with pytest.raises(FrozenInstanceError):
        counter.count = 0  # type: ignore[misc]
    assert counter.after_hand(won=True).count == 1
    assert counter.count == 2


@pytest.mark.parametrize("leaver", [0, 1, 2, 3])
def test_a_leaver_alone_loses_three_whichever_seat_leaves(leaver: int) -> None:
    expected = [0, 0, 0, 0]
    expected[leaver] = -3
    assert level_deltas(leaver=leaver) == tuple(expected)


@pytest.mark.parametrize("seat", [-1, 4, 5])
def test_a_winner_or_leaver_that_is_no_seat_is_refused(seat: int) -> None:
    with pytest.raises(ValueError, match="seats are 0–3"):
        level_deltas(winners=[seat])
    with pytest.raises(ValueError, match="seats are 0–3"):
        level_deltas(winners=[0, seat])
    with pytest.raises(ValueError, match="seats are 0–3"):
        level_deltas(leaver=seat)
