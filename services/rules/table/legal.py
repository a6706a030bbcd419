"""Every command a seat may give now: for bots, clients' buttons, and tests.

Candidates are generated loosely and each is put to the same handlers ``decide`` uses, so
that what is offered here and what ``decide`` accepts can never disagree.
"""

from __future__ import annotations

from typing import Any

from services.rules.table.claims import chow_options
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    PassClaim,
    Pung,
    RaiseWildPair,
)
from services.rules.table.decide import _route
from services.rules.table.guards import CommandRejected
from services.rules.table.state import SeatState, TableState
from services.rules.table.winning import declarable_discards
from services.rules.tiles import Tile, name


def _accepted(table: TableState, command: Command) -> bool:
    try:
        _route(table, command)
    except CommandRejected:
        return False
    return True


_MADE: dict[tuple[type[Command], tuple[tuple[str, object], ...]], Command] = {}


def _make(kind: type[Command], **fields: Any) -> Command:
    """A command built from the state (valid by construction), made once and then reused:
    commands are immutable, and building thousands per hand showed in the profiles."""
    key = (kind, tuple(sorted(fields.items())))
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = kind.model_construct(**fields)
    return made


def _kong_tiles(me: SeatState) -> list[Tile]:
    """Tiles an 暗杠 or 补杠 could be made of: four held, or one held beside its 碰."""
    held = me.hand
    pongs = {m.tile for m in me.melds if m.kind == "pong"}
    return sorted(t for t in set(held) if held.count(t) == 4 or t in pongs)


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
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        return []
    me = hand.seat(seat)
    if hand.step in ("claims", "rob") and hand.window is not None:
        return _claim_candidates(table, seat, me)
    config = table.variant
    found: list[Command] = []
    if config.honour_kongs:
        found += [_make(DeclareHonourKong, seat=seat, honours=h) for h in ("dragons", "winds")]
    if hand.step != "discard" or seat != hand.turn:
        return found
    found.append(_make(DeclareWin, seat=seat))
    found += [_make(Kong, seat=seat, tile=name(t)) for t in _kong_tiles(me)]
    if hand.wildcards:
        found.append(_make(RaiseWildPair, seat=seat))
    can_ready = (
        set()
        if me.ready is not None
        else declarable_discards(config, me.hand, me.melds, hand.wildcards)
    )
    for t in sorted(set(me.hand)):
        found.append(_make(DiscardTile, seat=seat, tile=name(t), ready=None))
        if t in can_ready:
            found += [
                _make(DiscardTile, seat=seat, tile=name(t), ready=mode)
                for mode in config.ready_modes
            ]
    return found


def _surely_legal(table: TableState, seat: int, command: Command) -> bool:
    """A plain discard on one's own turn, of a held tile, by a seat not bound by 听 or 吃听:
    the handler has nothing to refuse it for, so it is not put to the handler."""
    if not isinstance(command, DiscardTile) or command.ready is not None or table.hand is None:
        return False
    me = table.hand.seat(seat)
    return me.ready is None and not me.must_ready


def legal_commands(table: TableState, seat: int) -> list[Command]:
    """The commands ``decide`` would accept from this seat now."""
    return [
        c for c in candidates(table, seat) if _surely_legal(table, seat, c) or _accepted(table, c)
    ]


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
