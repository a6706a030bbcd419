"""托管 at the table, timeouts and deadlines (decisions 14, 16; ``000`` 主动托管 / 超时托管 / 玩家断线).

Given a deal, when a wait runs out or a seat goes away, then the events: the system plays the
seat (``seat_autoplayed`` before its move), and ``deadlines`` says what the table waits on next.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table import CommandRejected, TableState, decide
from services.rules.table.commands import (
    CancelAutoplay,
    LeaveTable,
    OpenTable,
    ReportDisconnect,
    ReportReconnect,
    RequestAutoplay,
)
from services.rules.table.deadlines import Deadline, deadlines
from services.rules.table.legal import legal_commands, play_commands

from .builders import STD, VARIANTS, Table, only, play_out, tail_for


def dealt(variant: str, **timing: int) -> Table:
    """The standard deal: seat 0 deals and holds 2m as its 14th tile."""
    table = Table(variant, timing=dict(timing))
    table.start(STD, tail=tail_for(variant))
    return table


def back_to_seat_0(table: Table) -> None:
    """Every other seat throws what it drew and every claim is passed, until seat 0 is to play."""
    table.pass_all()
    play_out(table, until=lambda t: t.hand.turn == 0 and t.hand.step == "discard")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_turn_that_times_out_puts_the_seat_in_timeout_autoplay_and_the_system_discards(
    variant: str,
) -> None:
    """000: 玩家出牌倒计时结束玩家仍未出牌，则提醒超时，系统进入超时托管并选择出当前玩家手中牌的最右边的牌出牌。"""
    table = dealt(variant)
    turn = only(table, "turn")
    assert turn.seats == (0,) and turn.seconds == 15
    events = table.do(turn.timeout)
    assert events[:3] == [
        pe.WaitTimedOut(wait="turn", seats=(0,)),
        pe.SeatAutoplayed(seat=0, reason="timeout", turn=True),
        ev.TileDiscarded(seat=0, tile="2m"),  # the drawn tile: the rightmost one shown
    ]
    assert table.state.presence[0].autoplay == "timeout"


@pytest.mark.parametrize("variant", VARIANTS)
def test_in_timeout_autoplay_each_later_turn_gives_a_three_second_window_then_the_system_plays(
    variant: str,
) -> None:
    """000: 在超时托管状态下，每次轮到当前玩家出牌时，进行倒计时3秒，…如玩家没有进行取消托管操作，则系统托管出牌。"""
    table = dealt(variant)
    table.do(only(table, "turn").timeout)
    back_to_seat_0(table)
    window = only(table, "autoplay_window")
    assert window.seats == (0,) and window.seconds == 3
    drawn = table.drawn(0)
    events = table.do(window.timeout)
    assert events[1] == pe.SeatAutoplayed(seat=0, reason="timeout", turn=True)
    assert events[2] == ev.TileDiscarded(seat=0, tile=drawn)
    assert table.hand.system_moves[0] == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_within_the_autoplay_window_the_seat_takes_control_back(variant: str) -> None:
    """000: 玩家可以进行取消托管操作."""
    table = dealt(variant)
    table.do(only(table, "turn").timeout)
    back_to_seat_0(table)
    window = only(table, "autoplay_window")
    assert table.do(CancelAutoplay(seat=0)) == [pe.AutoplayCancelled(seat=0)]
    turn = only(table, "turn")
    assert turn.seconds == 15 and turn.version == window.version
    assert "no autoplay_window wait" in table.refuse(window.timeout)


def test_a_seat_that_plays_in_its_autoplay_window_is_back_in_control() -> None:
    table = dealt("harbin")
    table.do(only(table, "turn").timeout)
    back_to_seat_0(table)
    events = table.discard(0, table.drawn(0) or "")
    assert events[0] == pe.AutoplayCancelled(seat=0)
    assert table.state.presence[0].autoplay is None


def test_a_late_timeout_changes_nothing() -> None:
    table = dealt("shanghai")
    late = only(table, "turn").timeout
    table.play(0, "2m")
    assert "no turn wait began at version" in table.refuse(late)


def test_a_claim_window_that_times_out_passes_for_every_seat_still_to_answer() -> None:
    table = dealt("shandong")
    table.discard(0, "2m")
    claim = only(table, "claim")
    assert claim.seats == (1, 2) and claim.seconds == 8
    table.pass_(1)
    assert only(table, "claim") == Deadline("claim", (2,), 8, claim.version)
    events = table.do(claim.timeout)
    assert events[:2] == [
        pe.WaitTimedOut(wait="claim", seats=(2,)),
        ev.ClaimAnswered(seat=2, claim="pass"),
    ]
    assert table.hand.turn == 1 and table.state.presence[2].autoplay is None


def test_another_seats_drop_does_not_restart_a_turns_clock() -> None:
    table = dealt("mudanjiang")
    turn = only(table, "turn")
    table.do(ReportDisconnect(seat=2))
    assert only(table, "turn") == turn
    table.do(turn.timeout)
    assert table.last(ev.TileDiscarded).seat == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_requested_autoplay_plays_at_once_and_passes_every_claim(variant: str) -> None:
    """000: 主动托管：玩家主动托管时系统自动出牌，系统自动选择出当前玩家手中牌的最右边的牌。"""
    table = dealt(variant)
    table.do(RequestAutoplay(seat=2))
    events = table.discard(0, "2m")  # seat 2 could 碰 the 2m: 托管 passes for it at once
    assert pe.SeatAutoplayed(seat=2, reason="requested", turn=False) in events
    assert ev.ClaimAnswered(seat=2, claim="pass") in events
    assert all(d.seats != (2,) for d in deadlines(table.state))
    table.pass_all()
    play_out(table, until=lambda t: t.hand.turn == 3 or t.hand.step == "ended")
    moved = [e for e in table.events if isinstance(e, pe.SeatAutoplayed) and e.turn]
    assert [e.seat for e in moved] == [2]
    assert table.do(CancelAutoplay(seat=2)) == [pe.AutoplayCancelled(seat=2)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_dropped_seat_is_played_by_autoplay_until_it_comes_back(variant: str) -> None:
    """000: 玩家断线后在本局游戏未结束前回来可以继续游戏，不返回将有系统托管打完结算."""
    table = dealt(variant)
    table.do(ReportDisconnect(seat=1))
    assert play_commands(table.state, 1) == []
    table.play(0, "2m")  # seat 1's turn comes: the system plays it at once
    moved = table.of_type(pe.SeatAutoplayed)
    assert pe.SeatAutoplayed(seat=1, reason="dropped", turn=True) in moved
    assert table.hand.turn == 2
    grace = only(table, "reconnect_grace")
    assert grace.seats == (1,) and grace.seconds == 180
    assert table.do(ReportReconnect(seat=1)) == [pe.SeatReconnected(seat=1)]
    assert not [d for d in deadlines(table.state) if d.wait == "reconnect_grace"]
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert only(table, "turn").seats == (1,) and play_commands(table.state, 1)


def test_a_reconnect_grace_keeps_its_clock_while_the_others_play() -> None:
    table = dealt("harbin")
    table.do(ReportDisconnect(seat=3))
    grace = only(table, "reconnect_grace")
    table.play(0, "2m")
    assert only(table, "reconnect_grace") == grace
    assert table.do(grace.timeout)[0] == pe.WaitTimedOut(wait="reconnect_grace", seats=(3,))
    assert not [d for d in deadlines(table.state) if d.wait == "reconnect_grace"]


def test_a_seat_that_dropped_or_left_gives_no_move_of_its_own() -> None:
    table = dealt("shanghai")
    table.do(ReportDisconnect(seat=0))  # seat 0 was to play: 托管 plays it at once
    assert table.last(pe.SeatAutoplayed) == pe.SeatAutoplayed(seat=0, reason="dropped", turn=True)
    assert "disconnected" in table.refuse(RequestAutoplay(seat=0))
    table.do(LeaveTable(seat=2))
    assert "has left" in table.refuse(ReportReconnect(seat=2))
    assert "already left" in table.refuse(LeaveTable(seat=2))
    assert legal_commands(table.state, 2) == []


def test_presence_commands_are_refused_when_they_change_nothing() -> None:
    table = dealt("tanggu")
    assert "not in 托管" in table.refuse(CancelAutoplay(seat=1))
    assert "is connected" in table.refuse(ReportReconnect(seat=1))
    table.do(ReportDisconnect(seat=1))
    assert "disconnected" in table.refuse(ReportDisconnect(seat=1))
    table.do(RequestAutoplay(seat=3))
    assert "already in 主动托管" in table.refuse(RequestAutoplay(seat=3))


def test_legal_commands_offer_autoplay_and_leaving_beside_the_moves() -> None:
    table = dealt("harbin")
    offered = legal_commands(table.state, 1)
    assert RequestAutoplay(seat=1) in offered and LeaveTable(seat=1) in offered
    assert CancelAutoplay(seat=1) not in offered
    table.do(only(table, "turn").timeout)
    offered = legal_commands(table.state, 0)
    assert CancelAutoplay(seat=0) in offered and RequestAutoplay(seat=0) in offered


def test_timing_comes_from_the_variant_and_a_table_may_override_it() -> None:
    table = dealt("shandong", turn=20, autoplay_window=5)
    opened = table.of_type(ev.TableOpened)[0]
    assert opened.timing == {"turn": 20, "claim": 8, "autoplay_window": 5, "reconnect_grace": 180}
    assert only(table, "turn").seconds == 20


def test_a_table_with_an_unknown_timing_is_refused() -> None:
    command = OpenTable(
        table_id="t-2", variant="harbin", players=("a", "b", "c", "d"), timing={"turns": 10}
    )
    with pytest.raises(CommandRejected, match="unknown timing 'turns'"):
        decide(TableState(), command)


@pytest.mark.parametrize("seconds", [0, 3601])
def test_a_timing_outside_one_second_to_an_hour_is_no_command(seconds: int) -> None:
    """The bound is the command's own (``events.limits``): refused where it is read."""
    with pytest.raises(ValidationError, match="timing.claim"):
        OpenTable(table_id="t-2", variant="harbin", players=("a", "b", "c", "d"),
                  timing={"claim": seconds})  # fmt: skip


@pytest.mark.parametrize("variant", VARIANTS)
def test_four_seats_in_autoplay_play_the_hand_to_its_settlement(variant: str) -> None:
    table = Table(variant)
    for seat in range(4):
        table.do(RequestAutoplay(seat=seat))
    table.start(STD, tail=tail_for(variant))
    assert table.state.hand_over and table.last(ev.HandSettled)
    assert deadlines(table.state) == ()
    claimed = table.of_type(ev.TileClaimed)
    ready = [e for e in table.of_type(ev.TileDiscarded) if e.ready is not None]
    assert not claimed and not ready  # 托管 never claims and never declares 听


def test_every_seat_sees_who_is_away_and_what_the_table_waits_on() -> None:
    table = dealt("harbin")
    table.do(ReportDisconnect(seat=3))
    for viewer in (0, 3, None):
        view = table.view(viewer)
        assert [p["connected"] for p in view["presence"]] == [True, True, True, False]
        assert {"wait": "turn", "seats": [0], "seconds": 15} in view["waits"]
        assert {"wait": "reconnect_grace", "seats": [3], "seconds": 180} in view["waits"]
