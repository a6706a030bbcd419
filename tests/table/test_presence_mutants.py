"""How the facts of seats that are away fold into the table (``services/rules/table/presence.py``),
held where the mutation run found no test: when a seat's connection drops its reconnect grace
is counted from that very fact, and a new hand counts it anew from the deal, for the seat still
away and no other; a seat back is as present as one that never dropped; 网管解散 abandons the
hand in play, so its settlement pays and counts nothing; each seat's count of moves made by
超时托管 is its own, and moves 托管 makes for a seat that asked for it, dropped or left are not
counted; an escape penalty adds to each seat's own series score.

Given events (a ``Table`` driven by commands through ``decide``/``evolve``; or folded up to a
fact, the table as it stood right after it), when a command or a wait running out, then the
events and the fields of the table they changed."""

from __future__ import annotations

import pytest

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table import replay
from services.rules.table.commands import (
    CancelAutoplay,
    Command,
    DissolveTable,
    LeaveTable,
    ReportDisconnect,
    ReportReconnect,
    RequestAutoplay,
    StartHand,
)
from services.rules.table.deadlines import Deadline, deadlines
from services.rules.table.state import ALL_PRESENT, PRESENT, Presence, TableState

from .builders import STD, Table, play_out, tail_for

DEALER = "147p258s369p6z7z3s9s"  # 上海: 13 quiet tiles; the 14th is the tile seat 0 throws first
WAITS_5P_1 = "123m789m789s11z46p"  # seat 1: waits on 5p


def dealt(variant: str = "shandong", **options: bool) -> Table:
    """The standard deal: seat 0 deals; nobody may claim its 8s."""
    table = Table(variant, options=dict(options))
    table.start(STD, tail=tail_for(variant))
    return table


def only(table: Table | TableState, wait: str) -> Deadline:
    state = table.state if isinstance(table, Table) else table
    found = [d for d in deadlines(state) if d.wait == wait]
    assert len(found) == 1, deadlines(state)
    return found[0]


def folded_through(table: Table, kind: type[DomainEvent]) -> TableState:
    """The table as it stood right after the last ``kind`` fact (a fold of the events so far)."""
    last = max(i for i, e in enumerate(table.events) if isinstance(e, kind))
    return replay(table.events[: last + 1])


def throw_drawn(table: Table, seat: int) -> None:
    """The seat plays itself: it throws the tile it drew, and every claim on it is passed."""
    drawn = table.drawn(seat)
    assert drawn is not None
    table.play(seat, drawn)


def run_out(table: Table, wait: str) -> list[DomainEvent]:
    """The table's one ``wait`` runs out, and every claim window after it is passed."""
    return table.do(only(table, wait).timeout) + table.pass_all()


# -- a dropped connection and its reconnect grace ------------------------------------------------
def test_a_seat_whose_connection_drops_has_its_reconnect_grace_counted_from_that_very_fact() -> (
    None
):
    """000 玩家断线: 玩家断线后在本局游戏未结束前回来可以继续游戏 — the grace to come back runs from
    the version of the seat's ``seat_disconnected`` fact (the fact's own version, not one before
    or after it), and the seat has not stayed away past it yet."""
    table = dealt()
    table.play(0, "8s")  # seat 1 to play: seats come and go while the table waits on it
    events = table.do(ReportDisconnect(seat=2))
    assert events == [pe.SeatDisconnected(seat=2)]
    dropped_at = folded_through(table, pe.SeatDisconnected).version
    assert dropped_at == len(table.events)  # the fact's version: one per fact since TableOpened
    assert table.state.presence == (
        PRESENT,
        PRESENT,
        Presence(connected=False, dropped_at=dropped_at, grace_over=False),
        PRESENT,
    )
    grace = only(table, "reconnect_grace")
    assert (grace.seats, grace.version) == ((2,), dropped_at)


def test_a_seat_that_drops_a_second_time_gets_its_grace_counted_from_the_second_drop() -> None:
    """000 玩家断线: each drop starts its own grace to come back, from the fact of that drop."""
    table = dealt()
    table.do(ReportDisconnect(seat=3))
    first = table.state.version
    table.play(0, "8s")
    table.do(ReportReconnect(seat=3))
    table.do(ReportDisconnect(seat=3))
    second = table.state.version
    assert second > first + 1
    assert table.state.presence[3] == Presence(connected=False, dropped_at=second)
    assert only(table, "reconnect_grace").version == second


def test_a_seat_that_reconnects_is_as_present_as_a_seat_that_never_dropped() -> None:
    """000 玩家断线: 玩家断线后在本局游戏未结束前回来可以继续游戏 — once back, nothing of the drop
    is left on the seat: no drop version, no grace, and the table has every seat present again."""
    table = dealt()
    table.do(ReportDisconnect(seat=1))
    assert table.state.presence[1].dropped_at == table.state.version > 0
    events = table.do(ReportReconnect(seat=1))
    assert events == [pe.SeatReconnected(seat=1)]
    assert table.state.presence[1] == Presence(connected=True, dropped_at=0, grace_over=False)
    assert table.state.presence == ALL_PRESENT
    assert [d.wait for d in deadlines(table.state)] == ["turn"]


def test_a_seat_still_away_when_the_next_hand_is_dealt_gets_a_new_grace_counted_from_the_deal() -> (
    None
):
    """Decision 16 / 000 玩家断线: a seat whose connection dropped is played by 托管 until the hand is
    settled; coming back is a matter of each hand (在本局游戏未结束前回来), so at the next deal a
    seat still away — even one that stayed away past the last hand's grace — has a new grace,
    counted from the ``hand_started`` fact; the seats that are there are left as they were."""
    table = dealt()
    table.do(ReportDisconnect(seat=2))
    run_out(table, "reconnect_grace")
    assert table.state.presence[2].grace_over
    play_out(table)
    assert table.state.hand_over and table.state.presence[2].grace_over
    table.do(StartHand(seed="the-second-hand-seed"))
    started = folded_through(table, ev.HandStarted)
    assert started.presence == (
        PRESENT,
        PRESENT,
        Presence(connected=False, dropped_at=started.version, grace_over=False),
        PRESENT,
    )
    assert only(started, "reconnect_grace").version == started.version
    grace = only(table, "reconnect_grace")
    assert (grace.seats, grace.version) == ((2,), started.version)


def test_a_seat_that_dropped_between_hands_has_its_grace_counted_from_the_next_deal() -> None:
    """000 玩家断线: the grace is the time to come back to the hand in play, so a seat that dropped
    between hands has it counted from the next deal's ``hand_started``, not from its drop."""
    table = dealt()
    play_out(table)
    table.do(ReportDisconnect(seat=1))
    dropped = table.state.version
    table.do(StartHand(seed="the-second-hand-seed"))
    started = folded_through(table, ev.HandStarted)
    assert started.version == dropped + 1
    assert started.presence == (
        PRESENT,
        Presence(connected=False, dropped_at=started.version, grace_over=False),
        PRESENT,
        PRESENT,
    )


# -- 网管解散 -----------------------------------------------------------------------------------------
def test_a_hand_dissolved_in_play_is_abandoned_and_its_settlement_counts_no_drawn_hand() -> None:
    """001 网管解散算作新┅局开始; events: "a hand in play was abandoned, nothing paid" — the hand
    ends with no winner and is marked abandoned, so its settlement is no 荒庄: no drawn streak,
    no next dealer (山东: 流局 would pass the deal to the next seat)."""
    table = dealt("shandong")
    table.play(0, "8s")
    table.do(DissolveTable(reason="room closed"))
    dissolved = folded_through(table, pe.TableDissolved)
    hand = dissolved.hand
    assert hand is not None
    assert (hand.step, hand.window, hand.abandoned, hand.pending_kong) == (
        "ended",
        None,
        True,
        None,
    )
    settled = table.last(ev.HandSettled)
    assert (settled.drawn_streak, settled.next_dealer) == (0, None)
    assert settled.payments == settled.hand_payments == settled.level_scores == (0, 0, 0, 0)


# -- 超时托管: the system's moves, per seat ------------------------------------------------------------
def test_each_seat_counts_only_the_turns_that_timeout_autoplay_played_for_it() -> None:
    """003 逃跑处罚②: 超时5次（即系统代打牌5次） — the count is of one seat's own turns that the
    system played after its wait ran out: a turn that times out, then each 托管 window; a seat
    that takes control back (取消托管) and plays itself adds nothing."""
    table = dealt("shandong")
    table.play(0, "8s")
    counts = []
    for seat in (1, 2, 3):  # each seat lets its first turn run out: 超时托管
        assert table.hand.turn == seat
        events = run_out(table, "turn")
        assert pe.SeatAutoplayed(seat=seat, reason="timeout", turn=True) in events
        counts.append(table.hand.system_moves)
    assert counts == [(0, 1, 0, 0), (0, 1, 1, 0), (0, 1, 1, 1)]
    throw_drawn(table, 0)
    run_out(table, "autoplay_window")
    assert table.hand.system_moves == (0, 2, 1, 1)
    run_out(table, "autoplay_window")
    assert table.hand.system_moves == (0, 2, 2, 1)
    table.do(CancelAutoplay(seat=3))  # seat 3 is back and plays its own turn
    throw_drawn(table, 3)
    assert table.hand.system_moves == (0, 2, 2, 1)
    throw_drawn(table, 0)
    run_out(table, "autoplay_window")
    assert table.hand.system_moves == (0, 3, 2, 1)
    assert table.hand.owed_move is None


@pytest.mark.parametrize(
    ("away", "reason"),
    [
        (RequestAutoplay(seat=1), "requested"),
        (ReportDisconnect(seat=1), "dropped"),
        (LeaveTable(seat=1), "left"),
    ],
)
def test_turns_played_for_a_seat_that_asked_for_autoplay_dropped_or_left_are_not_timeouts(
    away: Command, reason: str
) -> None:
    """003 逃跑处罚②: 超时5次（即系统代打牌5次） counts the turns the system played because the
    seat's own time ran out; a seat in 主动托管, or one that dropped or left (decision 16), is
    played by the system at once, and those moves are not timeouts."""
    table = dealt("shandong")
    table.do(away)
    events = table.play(0, "8s")
    assert pe.SeatAutoplayed(seat=1, reason=reason, turn=True) in events
    assert table.hand.turn == 2
    assert table.hand.system_moves == (0, 0, 0, 0)


# -- escape penalties and the series scores ------------------------------------------------------
def test_an_escape_penalty_adds_to_each_seats_own_series_score() -> None:
    """003 逃跑处罚①: 断线超过3分钟 扣除游戏积分底注的60倍，其他玩家获得游戏积分底注的20倍作为补偿 —
    added to what each seat already has in the series (here a first hand won on a discard that
    the discarder paid alone), seat by seat."""
    table = Table("shanghai", options={"discarder_pays_alone": True})
    table.start({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["6z", "5p"], dice=(2, 3))
    table.play(0, "1m")
    table.discard(1, "6z", ready="plain")
    table.pass_all()
    table.discard(2, "5p")
    table.pass_all(but=[1])
    table.win(1)
    won = table.last(ev.HandSettled).payments
    assert won[0] == won[3] == 0 and won[1] == -won[2] > 0
    assert table.state.series.scores == won
    table.do(StartHand(seed="the-second-hand-seed"))
    table.do(ReportDisconnect(seat=3))
    events = run_out(table, "reconnect_grace")
    penalty = table.of_type(pe.PenaltyAdjudicated, events)
    assert [p.amounts for p in penalty] == [(20, 20, 20, -60)]
    gain = won[1]
    assert table.state.series.scores == (20, 20 + gain, 20 - gain, -60)
    assert len(set(table.state.series.scores)) == 4
