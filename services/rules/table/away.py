"""Commands about seats rather than tiles: 主动托管 on and off, a dropped connection and its
return, leaving (主动逃跑), a wait that ran out, and 网管解散; and what the table then does by
itself: the 托管 moves, the penalties due (decision 16) and the end of the series."""

from __future__ import annotations

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.penalties import SeatConduct
from services.rules.table.commands import (
    CancelAutoplay,
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    DissolveTable,
    Kong,
    LeaveTable,
    PassClaim,
    Pung,
    RaiseWildPair,
    ReportDisconnect,
    ReportReconnect,
    RequestAutoplay,
    TimeOut,
)
from services.rules.table.deadlines import deadline_for, deadlines, in_autoplay
from services.rules.table.guards import refuse
from services.rules.table.state import ALL_PRESENT, Presence, TableState

PLAY_COMMANDS = (
    DiscardTile,
    Chow,
    Pung,
    Kong,
    DeclareWin,
    PassClaim,
    DeclareHonourKong,
    RaiseWildPair,
)


def _opened(table: TableState) -> None:
    if not table.opened:
        raise refuse("the table is not open")


def _in_hand(table: TableState) -> bool:
    return table.hand is not None and not table.hand_over


def _present(table: TableState, seat: int) -> Presence:
    """The seat's presence, refusing a seat that left or whose connection is down."""
    _opened(table)
    presence = table.presence[seat]
    if presence.left:
        raise refuse(f"seat {seat} has left the table; 托管 plays it until the hand is settled")
    if not presence.connected:
        raise refuse(f"seat {seat} is disconnected; its return must be reported first")
    return presence


def check_seat_plays(table: TableState, command: Command) -> list[DomainEvent]:
    """A seat's own move: refused when it left or dropped; in 超时托管 it ends the 托管 (the
    player is back), which the events then say first."""
    if table.presence == ALL_PRESENT and table.opened:
        return []  # every seat at the table and playing itself: nothing to refuse or end
    seat = getattr(command, "seat", None)
    if not isinstance(command, PLAY_COMMANDS) or not isinstance(seat, int):
        return []
    if _present(table, seat).autoplay == "timeout":
        return [pe.AutoplayCancelled(seat=seat)]
    return []


def request_autoplay(table: TableState, cmd: RequestAutoplay) -> list[DomainEvent]:
    if _present(table, cmd.seat).autoplay == "requested":
        raise refuse(f"seat {cmd.seat} is already in 主动托管")
    return [pe.AutoplayRequested(seat=cmd.seat)]


def cancel_autoplay(table: TableState, cmd: CancelAutoplay) -> list[DomainEvent]:
    if _present(table, cmd.seat).autoplay is None:
        raise refuse(f"seat {cmd.seat} is not in 托管")
    return [pe.AutoplayCancelled(seat=cmd.seat)]


def leave_table(table: TableState, cmd: LeaveTable) -> list[DomainEvent]:
    _opened(table)
    if table.presence[cmd.seat].left:
        raise refuse(f"seat {cmd.seat} has already left the table")
    return [pe.SeatLeft(seat=cmd.seat, mid_hand=_in_hand(table))]


def report_disconnect(table: TableState, cmd: ReportDisconnect) -> list[DomainEvent]:
    _present(table, cmd.seat)
    return [pe.SeatDisconnected(seat=cmd.seat)]


def report_reconnect(table: TableState, cmd: ReportReconnect) -> list[DomainEvent]:
    _opened(table)
    presence = table.presence[cmd.seat]
    if presence.left:
        raise refuse(f"seat {cmd.seat} has left the table; 托管 plays it until the hand is settled")
    if presence.connected:
        raise refuse(f"seat {cmd.seat} is connected")
    return [pe.SeatReconnected(seat=cmd.seat)]


def time_out(table: TableState, cmd: TimeOut) -> list[DomainEvent]:
    """The wait ran out: only if the table still waits on it (else a late timer: refused)."""
    deadline = deadline_for(table, cmd)
    if deadline is None:
        waits = ", ".join(f"{d.wait} since {d.version}" for d in deadlines(table)) or "nothing"
        raise refuse(
            f"no {cmd.wait} wait began at version {cmd.version} is still running "
            f"(the table is at version {table.version} and waits on {waits})"
        )
    if cmd.wait == "claim":
        passes: list[DomainEvent] = [ev.ClaimAnswered(seat=s, claim="pass") for s in deadline.seats]
        return [pe.WaitTimedOut(wait="claim", seats=deadline.seats), *passes]
    assert cmd.seat is not None
    return [pe.WaitTimedOut(wait=cmd.wait, seats=(cmd.seat,))]


def dissolve_table(table: TableState, cmd: DissolveTable) -> list[DomainEvent]:
    _opened(table)
    mid_hand = _in_hand(table)
    if not mid_hand and table.series.hands_in_series == 0 and table.series.ending is None:
        raise refuse("the series has not begun: there is nothing to dissolve")
    return [pe.TableDissolved(reason=cmd.reason, mid_hand=mid_hand)]


# -- what the table then does by itself -----------------------------------------------------------
def seat_to_autoplay(table: TableState) -> pe.SeatAutoplayed | None:
    """The seat the system moves for now (托管), marked as such; None when it waits on players."""
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        return None
    if hand.owed_move is not None:  # its turn or 托管 window ran out
        return pe.SeatAutoplayed(seat=hand.owed_move, reason="timeout", turn=True)
    if table.presence == ALL_PRESENT:
        return None
    if hand.step == "discard":
        away = table.presence[hand.turn].away
        return None if away is None else pe.SeatAutoplayed(seat=hand.turn, reason=away, turn=True)
    window = hand.window
    if hand.step not in ("claims", "rob") or window is None:
        return None
    for seat, _ in window.options:
        if window.answer_of(seat) is None and in_autoplay(table, seat):
            reason = table.presence[seat].away or "timeout"
            return pe.SeatAutoplayed(seat=seat, reason=reason, turn=False)
    return None


def penalties_due(table: TableState) -> list[DomainEvent]:
    """An escape penalty the variant's rule now holds due (at most one per seat and hand)."""
    hand = table.hand
    if table.presence == ALL_PRESENT or hand is None or table.hand_over or hand.abandoned:
        return []
    for seat, presence in enumerate(table.presence):
        if hand.penalized[seat]:
            continue
        me = hand.seat(seat)
        conduct = SeatConduct(
            seat=seat,
            left=presence.left,
            dropped_past_grace=presence.grace_over,
            system_moves=hand.system_moves[seat],
            flowers=len(me.flowers),
            melds=me.melds,
            base_stake=table.base_stake,
        )
        penalty = table.variant.escape.due(conduct)
        if penalty is not None:
            return [
                pe.PenaltyAdjudicated(
                    seat=seat, cause=penalty.cause, rule=penalty.rule, amounts=penalty.amounts
                )
            ]
    return []


def series_end(table: TableState) -> list[DomainEvent]:
    """Once the hand is settled (or between hands), a series a seat left or 网管解散 ended."""
    series = table.series
    if series.ending is None or (table.hand is not None and not table.hand_over):
        return []
    return [
        pe.SeriesEnded(number=series.number, reason=series.ending, hands=series.hands_in_series)
    ]
