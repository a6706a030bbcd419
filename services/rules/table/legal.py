"""Every command a seat may give now: for bots, clients' buttons, and tests.

``play_commands``: its moves with the tiles; ``seat_commands``: 托管 on or off and leaving;
``legal_commands``: both.

Candidates are generated loosely and each is put to the same handlers ``decide`` uses, so
that what is offered here and what ``decide`` accepts can never disagree.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from services.rules.table.claims import chow_options
from services.rules.table.commands import (
    CancelAutoplay,
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    LeaveTable,
    PassClaim,
    Pung,
    RaiseWildPair,
    RequestAutoplay,
)
from services.rules.table.decide import _route
from services.rules.table.guards import CommandRejected
from services.rules.table.state import SeatState, TableState
from services.rules.table.turn import DRAGONS, WINDS
from services.rules.table.winning import can_win, declarable_discards
from services.rules.tiles import Tile, name
from services.rules.variants.base import ReadyMode

_HONOUR_KONGS = (("dragons", DRAGONS), ("winds", WINDS))


def accepted(table: TableState, command: Command) -> bool:
    """Would ``decide`` take this command now (without working out what follows)?"""
    try:
        _route(table, command)
    except CommandRejected:
        return False
    return True


@cache
def _discard(seat: int, tile: str, ready: ReadyMode | None) -> Command:
    """Commands are immutable and built from the state (valid by construction): each is made
    once and reused, as building thousands per hand showed in the profiles."""
    return DiscardTile.model_construct(seat=seat, tile=tile, ready=ready)


def _make(kind: type[Command], **fields: Any) -> Command:
    return _made(kind, tuple(fields.items()))


@cache
def _made(kind: type[Command], fields: tuple[tuple[str, Any], ...]) -> Command:
    return kind.model_construct(**dict(fields))


def _kong_tiles(me: SeatState) -> list[Tile]:
    """Tiles an 暗杠 or 补杠 could be made of: four held, or one held beside its 碰."""
    held = sorted(me.hand)
    found = {a for a, b in zip(held, held[3:], strict=False) if a == b}
    if me.melds:
        found.update(m.tile for m in me.melds if m.kind == "pong" and m.tile in held)
    return sorted(found)


def _claim_candidates(table: TableState, seat: int, me: SeatState) -> list[Command]:
    hand = table.hand
    assert hand is not None and hand.window is not None
    kinds = hand.window.options_of(seat)
    if not kinds or hand.window.answer_of(seat) is not None:
        return []
    found: list[Command] = [_make(PassClaim, seat=seat)]
    if "win" in kinds:
        found.append(_make(DeclareWin, seat=seat))
    found += [
        _make(Pung, seat=seat, ready=r)
        for r, k in ((False, "pong"), (True, "ready_pong"))
        if k in kinds
    ]
    if "kong" in kinds:
        found.append(_make(Kong, seat=seat, tile=None))
    for ready, kind in ((False, "chi"), (True, "ready_chi")):
        if kind in kinds:
            for a, b in chow_options(hand.window.tile, me.concealed):
                found.append(_make(Chow, seat=seat, tiles=(name(a), name(b)), ready=ready))
    return found


def candidates(table: TableState, seat: int) -> list[Command]:
    """Commands worth putting to the handlers; built from the state, so unvalidated models."""
    return [c for group in _grouped_candidates(table, seat) for c in group]


def _grouped_candidates(table: TableState, seat: int) -> tuple[list[Command], list[Command]]:
    """(plain discards, everything else): see ``legal_commands``."""
    found, plain = _other_candidates(table, seat)
    return plain, found


def _other_candidates(table: TableState, seat: int) -> tuple[list[Command], list[Command]]:
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        return [], []
    me = hand.seat(seat)
    if hand.step in ("claims", "rob") and hand.window is not None:
        return _claim_candidates(table, seat, me), []
    config = table.variant.config
    found: list[Command] = []
    if config.honour_kongs:  # 风头杠: offered to a seat holding the honours (the rest: the handler)
        found += [
            _make(DeclareHonourKong, seat=seat, honours=h)
            for h, honours in _HONOUR_KONGS
            if all(t in me.hand for t in honours)
        ]
    if hand.step != "discard" or seat != hand.turn:
        return found, []
    held = me.hand
    kinds = sorted(set(held))
    # 自摸 is put to the handler only when the drawn tile completes the hand by shape, which
    # the handler (through settle.may_win) requires first; most turns it does not
    if me.drawn is not None and can_win(table.variant, hand, seat, me.drawn, True):
        found.append(_make(DeclareWin, seat=seat))
    if len(kinds) <= len(held) - 3 or me.melds:  # room for four of a kind, or a 碰 to add to
        found += [_make(Kong, seat=seat, tile=name(t)) for t in _kong_tiles(me)]
    if me.drawn in hand.wildcards:  # 上大台 sets a drawn 混 aside
        found.append(_make(RaiseWildPair, seat=seat))
    can_ready = (
        set()
        if me.ready is not None
        else declarable_discards(config, held, me.melds, hand.wildcards)
    )
    plain = [_plain_discard(seat, t) for t in kinds]
    if can_ready:
        for t in kinds:
            if t in can_ready:
                found += [_discard(seat, name(t), mode) for mode in config.ready_modes]
    return found, plain


@cache
def _plain_discard(seat: int, t: Tile) -> Command:
    return _discard(seat, name(t), None)


def legal_commands(table: TableState, seat: int) -> list[Command]:
    """Every command ``decide`` would accept from this seat now: its moves, then 托管 and leaving."""
    return play_commands(table, seat) + seat_commands(table, seat)


def seat_commands(table: TableState, seat: int) -> list[Command]:
    """主动托管 or 取消托管, and leaving the table, where they apply."""
    if not table.opened or table.closed or table.presence[seat].left:
        return []
    presence = table.presence[seat]
    found: list[Command] = []
    if presence.connected:
        if presence.autoplay is not None:
            found.append(_make(CancelAutoplay, seat=seat))
        if presence.autoplay != "requested":
            found.append(_make(RequestAutoplay, seat=seat))
    found.append(_make(LeaveTable, seat=seat))
    return found


def play_commands(table: TableState, seat: int) -> list[Command]:
    """The moves ``decide`` would accept from this seat now (none from a seat that left or
    dropped: 托管 plays it).

    A plain discard, on one's own turn, of a held tile, by a seat bound by neither 听 nor 吃听
    has nothing for the handler to refuse, so those are not put to it; every other candidate is.
    """
    presence = table.presence[seat]
    if presence.left or not presence.connected:
        return []
    plain, others = _grouped_candidates(table, seat)
    hand = table.hand
    me = hand.seat(seat) if hand is not None else None
    free = me is not None and me.ready is None and not me.must_ready
    checked = plain if free else [c for c in plain if accepted(table, c)]
    return checked + [c for c in others if accepted(table, c)]


def seats_to_act(table: TableState) -> list[int]:
    """Seats whose decision the table is waiting for."""
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        return []
    if hand.step in ("claims", "rob") and hand.window is not None:
        return [s for s, _ in hand.window.options if hand.window.answer_of(s) is None]
    if hand.step == "discard":
        return [hand.turn]
    return []
