"""Deadlines that the mutation run of ``services/rules/table/deadlines.py`` found no test holding:
a table waits on nothing before its first hand nor once a hand has ended (even with a seat still
away), waits on the seats that may rob an 补杠 as on any claim window, and takes a timeout only for
the very wait it was given for — same kind, same seat, same starting version; a deadline once
announced is a value that cannot change.

Given events (a ``Table`` driven by commands; or folded up to a fact, the table as it stood right
after it), when the table is asked what it waits on or given a timeout, then the deadlines, or the
refusal."""

from __future__ import annotations

import dataclasses

import pytest

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table import replay
from services.rules.table.commands import ReportDisconnect, TimeOut
from services.rules.table.deadlines import Deadline, deadlines
from services.rules.table.state import TableState

from .builders import STD, Table, only, play_out, shandong_seat_two_about_to_add_a_kong, tail_for

TIAN_HE = "123m456p789s11z22z2z"  # 山东: the dealer's opening hand wins (天和)


def dealt(variant: str = "harbin") -> Table:
    """The standard deal: seat 0 deals and is to play."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    return table


def folded_through(table: Table, kind: type[DomainEvent]) -> TableState:
    """The table as it stood right after the last ``kind`` fact (a fold of the events so far)."""
    last = max(i for i, e in enumerate(table.events) if isinstance(e, kind))
    return replay(table.events[: last + 1])


def back_to_seat_0(table: Table) -> None:
    table.pass_all()
    play_out(table, until=lambda t: t.hand.turn == 0 and t.hand.step == "discard")


# -- no hand in play: nothing to wait on ------------------------------------------------------------
def test_a_table_waits_on_nothing_before_its_first_hand_is_dealt() -> None:
    """deadlines: "none between hands: the next deal is the platform's call" — an open table
    with no hand yet has no turn, no claim window and no reconnect grace running."""
    table = Table("harbin")
    assert table.state.hand is None and not table.state.hand_over
    assert deadlines(table.state) == ()


@pytest.mark.parametrize("end", [ev.HandWon, ev.HandSettled])
def test_a_hand_that_has_ended_waits_on_no_reconnect_even_before_it_is_settled(
    end: type[DomainEvent],
) -> None:
    """deadlines: "none between hands"; decision 16: a dropped seat is played by 托管 "until the
    hand is settled" — once the hand has ended (天和 here, 002) there is nothing left for the seat
    that dropped to come back to, so its reconnect grace no longer runs, right after the win as
    after the settlement."""
    table = Table("shandong")
    table.start({0: TIAN_HE})
    table.do(ReportDisconnect(seat=2))
    assert only(table, "reconnect_grace").seats == (2,)
    table.win(0)
    state = folded_through(table, end)
    assert state.hand is not None and state.hand.step == "ended"
    assert state.hand_over == (end is ev.HandSettled)
    assert deadlines(state) == ()


# -- a window that may rob an 补杠 ---------------------------------------------------------------------
def test_the_seats_that_may_rob_an_added_kong_are_waited_on_as_in_any_claim_window() -> None:
    """002: 抢杠 — the 补杠 opens a window on its tile for the seat that wins on it; the table
    waits on that seat with the claim window's time (not on the konger's turn), from the version
    at which the window opened."""
    table = shandong_seat_two_about_to_add_a_kong()
    table.kong(2, "5p")
    assert table.hand.step == "rob" and table.options_of(3) == ("win",)
    state = table.state
    assert deadlines(state) == (Deadline("claim", (3,), state.timing.claim, state.wait_since),)


# -- a timeout is taken only for the wait it was given for -------------------------------------------
def test_a_late_timeout_of_an_earlier_turn_of_the_same_seat_is_refused() -> None:
    """deadlines: "once the table waits on something else, that timeout is refused and changes
    nothing" — seat 0's first turn ran on; when its next turn comes, the first turn's timer (an
    earlier version) no longer counts."""
    table = dealt("shanghai")
    late = only(table, "turn").timeout
    table.discard(0, "2m")
    back_to_seat_0(table)
    now = only(table, "turn")
    assert now.seats == (0,) and now.version > late.version
    assert "no turn wait began at version" in table.refuse(late)


def test_a_timeout_naming_a_later_version_than_the_wait_began_at_is_refused() -> None:
    """deadlines: the timeout carries "the version at which the wait began"; one naming another
    version is for some other wait, and is refused."""
    table = dealt("shanghai")
    turn = only(table, "turn")
    later = TimeOut(wait="turn", seat=0, version=turn.version + 1)
    assert "no turn wait began at version" in table.refuse(later)
    assert table.do(turn.timeout)[0].wait == "turn"  # type: ignore[attr-defined]


def test_a_turn_timeout_for_a_seat_not_on_turn_is_refused() -> None:
    """deadlines: a turn is waited on from the seat whose turn it is; a timeout naming another
    seat, at the same version, is no timeout of that wait."""
    table = dealt("harbin")
    turn = only(table, "turn")
    assert turn.seats == (0,)
    for seat in (1, 2, 3):
        assert "no turn wait" in table.refuse(TimeOut(wait="turn", seat=seat, version=turn.version))


def test_in_timeout_autoplay_only_the_seats_own_autoplay_window_times_out() -> None:
    """000: 在超时托管状态下，每次轮到当前玩家出牌时，进行倒计时3秒 — what runs is that seat's
    托管 window: neither a turn timeout at the same version nor the window's timeout naming
    another seat is taken."""
    table = dealt("harbin")
    table.do(only(table, "turn").timeout)
    back_to_seat_0(table)
    window = only(table, "autoplay_window")
    assert window.seats == (0,)
    assert "no turn wait" in table.refuse(TimeOut(wait="turn", seat=0, version=window.version))
    for seat in (1, 2, 3):
        other = TimeOut(wait="autoplay_window", seat=seat, version=window.version)
        assert "no autoplay_window wait" in table.refuse(other)
    assert table.do(window.timeout)[0].seats == (0,)  # type: ignore[attr-defined]


# -- a deadline is a value ---------------------------------------------------------------------------
def test_a_deadline_once_announced_cannot_be_changed_and_holds_only_its_fields() -> None:
    """deadlines: a timekeeper "keeps it while later states still name the same wait" — the
    deadline it keeps is a value: equal to the same wait named again, usable as a key, and
    neither its fields can be changed nor others added."""
    table = dealt("harbin")
    turn = only(table, "turn")
    assert {turn: "clock"}[only(table, "turn")] == "clock"
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.seconds = 60  # type: ignore[misc]
    assert turn.seconds == 15
    assert not hasattr(turn, "__dict__")
