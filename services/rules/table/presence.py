"""How the facts of seats that are away change the table (the ``evolve`` side of 托管, drops,
leaving, timeouts, penalties and the end of a series)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.rules.events import presence as pe
from services.rules.table.state import (
    PRESENT,
    HandState,
    Series,
    TableState,
    patch,
)

# Facts that leave what the table waits on as it was: a turn's or a claim window's clock keeps
# running through them (``TableState.wait_since`` moves on every other event).
KEEPS_WAIT = frozenset(
    {
        "claim_answered",
        "autoplay_requested",
        "autoplay_cancelled",
        "seat_disconnected",
        "seat_reconnected",
        "seat_left",
        "wait_timed_out",
        "seat_autoplayed",
        "penalty_adjudicated",
        "table_close_requested",
    }
)


def _set(table: TableState, seat: int, **changes: Any) -> TableState:
    return table.with_presence(seat, patch(table.presence[seat], **changes))


def _hand(table: TableState) -> HandState:
    if table.hand is None:
        raise ValueError("no hand in play")
    return table.hand


def restart_graces(table: TableState) -> TableState:
    """A new hand: a seat still away gets a new reconnect grace, counted from the deal."""
    for seat, presence in enumerate(table.presence):
        if not presence.connected:
            table = _set(table, seat, dropped_at=table.version + 1, grace_over=False)
    return table


def _autoplay_requested(table: TableState, e: pe.AutoplayRequested) -> TableState:
    return _set(table, e.seat, autoplay="requested")


def _autoplay_cancelled(table: TableState, e: pe.AutoplayCancelled) -> TableState:
    return _set(table, e.seat, autoplay=None)


def _seat_disconnected(table: TableState, e: pe.SeatDisconnected) -> TableState:
    return _set(table, e.seat, connected=False, dropped_at=table.version + 1, grace_over=False)


def _seat_reconnected(table: TableState, e: pe.SeatReconnected) -> TableState:
    return _set(table, e.seat, connected=True, dropped_at=0, grace_over=False)


def _ending(series: Series, reason: str) -> Series:
    return series if series.ending == "dissolved" else patch(series, ending=reason)


def _seat_left(table: TableState, e: pe.SeatLeft) -> TableState:
    table = _set(table, e.seat, left=True)
    return patch(table, series=_ending(table.series, "seat_left"))


def _table_dissolved(table: TableState, e: pe.TableDissolved) -> TableState:
    table = patch(table, series=_ending(table.series, "dissolved"))
    if not e.mid_hand:
        return table
    hand = patch(_hand(table), step="ended", window=None, abandoned=True, pending_kong=None)
    return patch(table, hand=hand)


def _wait_timed_out(table: TableState, e: pe.WaitTimedOut) -> TableState:
    if e.wait in ("turn", "autoplay_window"):  # the system moves for the seat now
        table = patch(table, hand=patch(_hand(table), owed_move=e.seats[0]))
    if e.wait == "turn":  # 超时托管: from now on each turn of the seat opens a 托管 window
        return _set(table, e.seats[0], autoplay="timeout")
    if e.wait == "reconnect_grace":
        for seat in e.seats:
            table = _set(table, seat, grace_over=True)
    return table


def _seat_autoplayed(table: TableState, e: pe.SeatAutoplayed) -> TableState:
    hand = _hand(table)
    if hand.owed_move is not None:
        hand = patch(hand, owed_move=None)
    if e.reason != "timeout" or not e.turn:
        return patch(table, hand=hand)
    moves = list(hand.system_moves)
    moves[e.seat] += 1
    return patch(table, hand=patch(hand, system_moves=(moves[0], moves[1], moves[2], moves[3])))


def _penalty_adjudicated(table: TableState, e: pe.PenaltyAdjudicated) -> TableState:
    series = table.series
    scores = tuple(s + a for s, a in zip(series.scores, e.amounts, strict=True))
    series = patch(series, scores=(scores[0], scores[1], scores[2], scores[3]))
    if table.hand is None:
        return patch(table, series=series)
    marked = list(table.hand.penalized)
    marked[e.seat] = True
    hand = patch(table.hand, penalized=(marked[0], marked[1], marked[2], marked[3]))
    return patch(table, series=series, hand=hand)


def _series_ended(table: TableState, e: pe.SeriesEnded) -> TableState:
    """A new series: counters and dealer anew; a seat that left is free for the next player."""
    old = table.series
    series = Series(
        scores=old.scores,
        level_scores=old.level_scores,
        hands_played=old.hands_played,
        number=old.number + 1,
    )
    for seat, presence in enumerate(table.presence):
        if presence.left:
            table = table.with_presence(seat, PRESENT)
    return patch(table, series=series)


APPLY: dict[str, Callable[[TableState, Any], TableState]] = {
    "autoplay_requested": _autoplay_requested,
    "autoplay_cancelled": _autoplay_cancelled,
    "seat_disconnected": _seat_disconnected,
    "seat_reconnected": _seat_reconnected,
    "seat_left": _seat_left,
    "table_dissolved": _table_dissolved,
    "wait_timed_out": _wait_timed_out,
    "seat_autoplayed": _seat_autoplayed,
    "penalty_adjudicated": _penalty_adjudicated,
    "series_ended": _series_ended,
}
