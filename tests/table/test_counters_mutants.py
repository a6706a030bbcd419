"""The level scores of a hand a seat left, that the mutation run of
``services/rules/table/counters.py`` found no test holding: the leaver's −3 lands on the leaver's
own seat whichever seat it is, the first two seats included, and nobody else scores.

Given a dealt hand, when a seat leaves and the hand is played out, then the settlement's level
scores."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import LeaveTable

from .builders import STD, Table, play_out, tail_for


@pytest.mark.parametrize("leaver", [0, 1, 2, 3])
def test_the_seat_that_left_loses_three_level_points_and_no_other_seat_scores(leaver: int) -> None:
    """003: 有人逃跑的情况下，逃跑的扣3分，其他人不得分 (decision 17: on every variant): the −3 goes
    to the seat that left, the dealer (seat 0) and seat 1 as much as the others."""
    table = Table("harbin")
    table.start(STD, tail=tail_for("harbin"))
    table.do(LeaveTable(seat=leaver))
    play_out(table)
    expected = tuple(-3 if s == leaver else 0 for s in range(4))
    assert table.last(ev.HandSettled).level_scores == expected
    assert table.state.series.level_scores == expected
