"""The facts of seats that are away, time out, leave or pay, and of series that end.

``托管`` (the system playing a seat, decision 14) is marked by ``seat_autoplayed`` before the
move it makes, so a stream tells a player's moves from the system's. Penalties are their own
events, apart from the hand's zero-sum settlement: they need not sum to zero.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from events.base import DomainEvent
from events.registry import registry
from services.rules.events.types import Seat

WaitKind = Literal["turn", "claim", "autoplay_window", "reconnect_grace"]
AutoplayReason = Literal["timeout", "requested", "dropped", "left"]
EscapeCause = Literal["dropped", "timeouts", "left"]


@registry.register
class AutoplayRequested(DomainEvent):
    """主动托管: the seat asked the system to play for it."""

    type: Literal["autoplay_requested"] = "autoplay_requested"
    seat: Seat


@registry.register
class AutoplayCancelled(DomainEvent):
    """取消托管: the seat took control back (from 主动托管 or 超时托管)."""

    type: Literal["autoplay_cancelled"] = "autoplay_cancelled"
    seat: Seat


@registry.register
class SeatDisconnected(DomainEvent):
    """断线: the seat's connection dropped; 托管 plays it until it comes back."""

    type: Literal["seat_disconnected"] = "seat_disconnected"
    seat: Seat


@registry.register
class SeatReconnected(DomainEvent):
    """The seat's connection came back; its player plays again."""

    type: Literal["seat_reconnected"] = "seat_reconnected"
    seat: Seat


@registry.register
class SeatLeft(DomainEvent):
    """离开 / 主动逃跑: the player closed the game; mid-hand, 托管 plays the seat to the end."""

    type: Literal["seat_left"] = "seat_left"
    seat: Seat
    mid_hand: bool


@registry.register
class TableDissolved(DomainEvent):
    """网管解散: an operator ended the series; a hand in play was abandoned, nothing paid."""

    type: Literal["table_dissolved"] = "table_dissolved"
    reason: str = ""
    mid_hand: bool


@registry.register
class TableCloseRequested(DomainEvent):
    """关桌: the platform asked to close the table after the hand in play (``mid_hand``; else at
    once): that hand is played and settled as any other, and no next hand is dealt."""

    type: Literal["table_close_requested"] = "table_close_requested"
    reason: str = ""
    mid_hand: bool


@registry.register
class TableClosed(DomainEvent):
    """关桌: the table closed, its last hand settled; it deals no hand and takes no command
    again. ``hands``: the hands played at it, every series counted."""

    type: Literal["table_closed"] = "table_closed"
    reason: str = ""
    hands: int = Field(ge=0)


@registry.register
class WaitTimedOut(DomainEvent):
    """A wait ran out: a turn (the seat goes into 超时托管), a claim window (the seats still to
    answer pass), a 托管 window (the system moves), a reconnect grace."""

    type: Literal["wait_timed_out"] = "wait_timed_out"
    wait: WaitKind
    seats: tuple[Seat, ...] = Field(min_length=1, max_length=4)


@registry.register
class SeatAutoplayed(DomainEvent):
    """托管: the system makes the next move for this seat (the events after this one)."""

    type: Literal["seat_autoplayed"] = "seat_autoplayed"
    seat: Seat
    reason: AutoplayReason
    turn: bool  # its own turn (a discard or 自摸), not an answer to a claim window


@registry.register
class PenaltyAdjudicated(DomainEvent):
    """An escape penalty (逃跑处罚), naming its rule; ``amounts`` per seat need not sum to zero."""

    type: Literal["penalty_adjudicated"] = "penalty_adjudicated"
    seat: Seat
    cause: EscapeCause
    rule: str = Field(min_length=1)
    amounts: tuple[int, int, int, int]


@registry.register
class SeriesEnded(DomainEvent):
    """The series ended (a seat left, or 网管解散): the next hand starts a new one, its dealer
    chosen anew and the 荒庄 and 荒番 counters at zero."""

    type: Literal["series_ended"] = "series_ended"
    number: int = Field(ge=1)
    reason: Literal["seat_left", "dissolved"]
    hands: int = Field(ge=0)
