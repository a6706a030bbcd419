"""Seats away (``services/rules/table/away.py``): a late timer is refused with what the table
still waits on, and a second seat's escape is penalized although an earlier seat's already was
(issue 28: the rules its mutants broke).

Given a table driven by commands, when a timeout or a seat leaving, then the events (or the
refusal)."""

from __future__ import annotations

import pytest

from services.rules.events import presence as pe
from services.rules.table.commands import LeaveTable, TimeOut
from services.rules.table.deadlines import deadlines

from .builders import STD, Table, tail_for


def dealt(variant: str, base_stake: int = 1) -> Table:
    table = Table(variant, base_stake=base_stake)
    table.start(STD, tail=tail_for(variant))
    return table


# -- a late timer is refused, naming what still runs ------------------------------------------------
def test_a_late_timeout_is_refused_naming_the_wait_the_table_still_runs() -> None:
    """deadlines: "once the table waits on something else, that timeout is refused and changes
    nothing" — and the refusal tells the timer's owner what the table does wait on: here the
    dealer's turn, since the version it began at."""
    table = dealt("shanghai")
    (turn,) = deadlines(table.state)
    assert (turn.wait, turn.seats) == ("turn", (0,))
    reason = table.refuse(TimeOut(wait="turn", seat=0, version=turn.version + 1))
    assert reason.endswith(f"waits on turn since {turn.version})")


def test_a_timeout_at_a_table_that_waits_on_nothing_is_refused_saying_so() -> None:
    """deadlines: "none between hands: the next deal is the platform's call" — a timer that
    fires at an open table before any deal is refused, and the refusal says the table waits on
    nothing."""
    table = Table("shanghai")
    assert deadlines(table.state) == ()
    reason = table.refuse(TimeOut(wait="turn", seat=0, version=0))
    assert reason.endswith("waits on nothing)")


# -- each seat's escape is penalized once --------------------------------------------------------
@pytest.mark.parametrize(("first", "second"), [(0, 2), (1, 3)])
def test_a_seat_that_leaves_after_another_already_paid_its_escape_pays_its_own(
    first: int, second: int
) -> None:
    """003 逃跑处罚: ③主动逃跑（直接关闭正在游戏中的游戏界面）扣除游戏积分底注的66倍，其他玩家获得游戏积分底注的
    20倍作为补偿 — for every seat that leaves mid-hand: a seat that already paid its own escape
    (``penalized``, at most one per seat and hand) does not spare a later leaver its penalty."""
    table = dealt("shanghai")
    table.do(LeaveTable(seat=first))
    assert [p.seat for p in table.of_type(pe.PenaltyAdjudicated)] == [first]
    assert table.hand.penalized[first] and table.hand.step != "ended"
    events = table.do(LeaveTable(seat=second))
    assert events[:2] == [
        pe.SeatLeft(seat=second, mid_hand=True),
        pe.PenaltyAdjudicated(
            seat=second,
            cause="left",
            rule="003 逃跑处罚③ 主动逃跑: 66×底注, 其他玩家各得20×底注",
            amounts=tuple(-66 if s == second else 20 for s in range(4)),
        ),
    ]
    assert [p.seat for p in table.of_type(pe.PenaltyAdjudicated)] == [first, second]
