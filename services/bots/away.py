"""Seats that come and go at random moments, for simulations (seeded, so a run repeats).

Before each move a bot would make, ``AwaySeats.next_command`` may give something else: a wait
the table announced runs out (``deadlines``: a turn, a claim window, a 托管 window, a reconnect
grace), a seat drops or comes back, asks for 主动托管 or cancels it, leaves mid-hand, or, rarely,
an operator dissolves the table. It only ever gives what the table would accept now, so a
refusal in a simulation is an engine bug. ``away_paths`` counts which of these paths a hand took.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from events.base import DomainEvent
from services.rules.events import presence as pe
from services.rules.table.commands import (
    CancelAutoplay,
    Command,
    DissolveTable,
    LeaveTable,
    ReportDisconnect,
    ReportReconnect,
    RequestAutoplay,
)
from services.rules.table.deadlines import deadlines
from services.rules.table.state import TableState

WINDOW_RUNS_OUT = 0.8  # a seat in 超时托管 mostly lets its 3 s window pass (else the bot plays)
WEIGHTS = {
    "turn": 4.0,
    "claim": 4.0,
    "reconnect_grace": 1.0,
    "drop": 1.0,
    "come back": 3.0,
    "主动托管": 0.5,
    "取消托管": 2.0,
    "leave": 0.25,
    "dissolve": 0.02,
}


@dataclass
class AwaySeats:
    """``rate``: the chance, before each move, that something other than a move happens."""

    rng: random.Random
    rate: float

    def next_command(self, table: TableState) -> Command | None:
        hand = table.hand
        if self.rate <= 0 or hand is None or table.hand_over:
            return None
        waits = deadlines(table)
        window = next((d for d in waits if d.wait == "autoplay_window"), None)
        if window is not None and self.rng.random() < WINDOW_RUNS_OUT:
            return window.timeout
        if self.rng.random() >= self.rate:
            return None
        options: list[tuple[float, Command]] = [
            (WEIGHTS.get(d.wait, 1.0), d.timeout) for d in waits if d is not window
        ]
        options += _seat_options(table)
        options.append((WEIGHTS["dissolve"], DissolveTable(reason="simulated")))
        return self.rng.choices([c for _, c in options], weights=[w for w, _ in options])[0]


def _seat_options(table: TableState) -> list[tuple[float, Command]]:
    found: list[tuple[float, Command]] = []
    for seat, presence in enumerate(table.presence):
        if presence.left:
            continue
        if not presence.connected:
            found.append((WEIGHTS["come back"], ReportReconnect(seat=seat)))
        else:
            found.append((WEIGHTS["drop"], ReportDisconnect(seat=seat)))
            if presence.autoplay != "requested":
                found.append((WEIGHTS["主动托管"], RequestAutoplay(seat=seat)))
            if presence.autoplay is not None:
                found.append((WEIGHTS["取消托管"], CancelAutoplay(seat=seat)))
        found.append((WEIGHTS["leave"], LeaveTable(seat=seat)))
    return found


TIMED_OUT = {
    "turn": "turn timed out (超时托管)",
    "claim": "claim window timed out",
    "autoplay_window": "托管 window ran out",
    "reconnect_grace": "reconnect grace ran out",
}


def away_paths(events: Iterable[DomainEvent]) -> Counter[str]:
    """How often each path of seats coming and going was taken in these events."""
    seen: Counter[str] = Counter()
    for e in events:
        if isinstance(e, pe.WaitTimedOut):
            seen[TIMED_OUT[e.wait]] += 1
        elif isinstance(e, pe.SeatAutoplayed):
            seen[f"托管 move ({e.reason}, {'turn' if e.turn else 'claim'})"] += 1
        elif isinstance(e, pe.SeatDisconnected):
            seen["dropped"] += 1
        elif isinstance(e, pe.SeatReconnected):
            seen["came back"] += 1
        elif isinstance(e, pe.AutoplayRequested):
            seen["主动托管"] += 1
        elif isinstance(e, pe.AutoplayCancelled):
            seen["取消托管"] += 1
        elif isinstance(e, pe.SeatLeft):
            seen["left mid-hand (主动逃跑)" if e.mid_hand else "left between hands"] += 1
        elif isinstance(e, pe.TableDissolved):
            seen["dissolved (网管解散)"] += 1
        elif isinstance(e, pe.PenaltyAdjudicated):
            seen[f"penalty ({e.cause})"] += 1
        elif isinstance(e, pe.TableClosed):
            seen["closed (关桌)"] += 1
        elif isinstance(e, pe.SeriesEnded):
            seen[f"series ended ({e.reason})"] += 1
    return +seen
