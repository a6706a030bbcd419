"""Deadlines as data: what the table waits on now, from whom, and for how long.

The engine has no clock. ``deadlines(table)`` names each wait; a timekeeper starts a clock when
it first sees one, keeps it while later states still name the same wait (same kind, seats and
``version``), and when it runs out gives the table ``deadline.timeout``. The ``version`` is the
one at which the wait began, so other seats' comings and goings do not restart a turn's clock;
once the table waits on something else, that timeout is refused and changes nothing.

A seat the system plays at once (it left, dropped, or asked for 主动托管) is never waited on; a
seat in 超时托管 gets the short 托管 window on its turn (``000``: 倒计时3秒) and is passed at once
in a claim window (托管 never claims).
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.table.commands import TimeOut, WaitKind
from services.rules.table.state import TableState


@dataclass(frozen=True, slots=True)
class Deadline:
    wait: WaitKind
    seats: tuple[int, ...]  # who must answer (a claim window: every seat still to)
    seconds: int
    version: int  # the version at which this wait began

    @property
    def timeout(self) -> TimeOut:
        """The command to give the table when the time is up."""
        seat = None if self.wait == "claim" else self.seats[0]
        return TimeOut(wait=self.wait, seat=seat, version=self.version)


def in_autoplay(table: TableState, seat: int) -> bool:
    """托管 of any kind: the system answers this seat's claim windows at once."""
    presence = table.presence[seat]
    return presence.away is not None or presence.autoplay == "timeout"


def deadlines(table: TableState) -> tuple[Deadline, ...]:
    """Every wait of the table now (none between hands: the next deal is the platform's call)."""
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        return ()
    timing = table.timing
    found: list[Deadline] = []
    if hand.step == "discard" and hand.owed_move is None:
        presence = table.presence[hand.turn]
        if presence.away is None:
            timeout = presence.autoplay == "timeout"
            wait: WaitKind = "autoplay_window" if timeout else "turn"
            seconds = timing.autoplay_window if timeout else timing.turn
            found.append(Deadline(wait, (hand.turn,), seconds, table.wait_since))
    elif hand.step in ("claims", "rob") and hand.window is not None:
        window = hand.window
        asked = tuple(
            s
            for s, _ in window.options
            if window.answer_of(s) is None and not in_autoplay(table, s)
        )
        if asked:
            found.append(Deadline("claim", asked, timing.claim, table.wait_since))
    for seat, presence in enumerate(table.presence):
        if not presence.connected and not presence.left and not presence.grace_over:
            found.append(
                Deadline("reconnect_grace", (seat,), timing.reconnect_grace, presence.dropped_at)
            )
    return tuple(found)


def deadline_for(table: TableState, timeout: TimeOut) -> Deadline | None:
    """The wait ``timeout`` was given for, if the table still waits on it."""
    for deadline in deadlines(table):
        same = deadline.wait == timeout.wait and deadline.version == timeout.version
        if same and (timeout.wait == "claim" or timeout.seat in deadline.seats):
            return deadline
    return None
