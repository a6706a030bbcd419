"""Who may know what, mid-hand: the few rules that both ``views`` and ``redact`` apply.

One place for each rule, so that the table as a seat sees it (``player_view``) and the events
it is sent (``event_for``) can never disagree on it.
"""

from __future__ import annotations

from services.rules.table.state import HandState, SeatState
from services.rules.variants import VariantConfig


def sees_bao(hand: HandState | None, viewer: int | None) -> bool:
    """宝: a seat learns it when it declares 听; a spectator does not see it during the hand."""
    return hand is not None and viewer is not None and hand.seat(viewer).ready is not None


def concealed_kong_faces_shown(config: VariantConfig, owner: SeatState) -> bool:
    """暗杠 faces, to the other seats: face down, except where an opened seat must show them.

    牡丹江 shows an 暗杠 once the seat has opened (``000``: 开门后暗杠也要亮明; decision 4).
    """
    return config.concealed_kong_shown_when_open and owner.is_open


def ready_announced(config: VariantConfig, mode: str | None) -> bool:
    """A silent 听 (山东 暗楼, 塘沽's plain 听) is not told to the other seats until the hand ends."""
    return mode not in config.silent_ready_modes


def asked_seats_seen(asked: tuple[int, ...] | list[int], viewer: int | None) -> list[int]:
    """Of the seats a claim window asks, the ones ``viewer`` may be told of: itself, if asked.

    Which seats the rules ask is read from their concealed tiles, so it is as secret as the
    tiles: a seat learns that the table waits on claims, and whether it may claim, never who
    else may (issue 21). The window's timing is the tell left (``docs/architecture.md``).
    """
    return [s for s in asked if s == viewer]
