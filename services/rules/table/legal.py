"""Every command a seat may give now: for bots, clients' buttons, and tests.

Candidates are generated loosely and each is put to the same handlers ``decide`` uses, so
that what is offered here and what ``decide`` accepts can never disagree.
"""

from __future__ import annotations

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
from services.rules.table.state import TableState
from services.rules.table.winning import declarable_discards
from services.rules.tiles import name


def _accepted(table: TableState, command: Command) -> bool:
    try:
        _route(table, command)
    except CommandRejected:
        return False
    return True


def candidates(table: TableState, seat: int) -> list[Command]:
    hand = table.hand
    if hand is None or table.hand_over or hand.step == "ended":
        return []
    me = hand.seat(seat)
    found: list[Command] = []
    if hand.step in ("claims", "rob") and hand.window is not None:
        kinds = hand.window.options_of(seat)
        if not kinds or hand.window.answer_of(seat) is not None:
            return []
        found.append(PassClaim(seat=seat))
        found += [DeclareWin(seat=seat)] if "win" in kinds else []
        found += [
            Pung(seat=seat, ready=r)
            for r, k in ((False, "pong"), (True, "ready_pong"))
            if k in kinds
        ]
        found += [Kong(seat=seat)] if "kong" in kinds else []
        for ready, kind in ((False, "chi"), (True, "ready_chi")):
            if kind in kinds:
                for a, b in chow_options(hand.window.tile, me.concealed):
                    found.append(Chow(seat=seat, tiles=(name(a), name(b)), ready=ready))
        return found
    config = table.variant
    if config.honour_kongs:
        found += [DeclareHonourKong(seat=seat, honours=h) for h in ("dragons", "winds")]
    if hand.step != "discard" or seat != hand.turn:
        return found
    found.append(DeclareWin(seat=seat))
    found += [Kong(seat=seat, tile=name(t)) for t in sorted(set(me.hand))]
    found.append(RaiseWildPair(seat=seat))
    can_ready = (
        set()
        if me.ready is not None
        else declarable_discards(config, me.hand, me.melds, hand.wildcards)
    )
    for t in sorted(set(me.hand)):
        found.append(DiscardTile(seat=seat, tile=name(t)))
        if t in can_ready:
            found += [
                DiscardTile(seat=seat, tile=name(t), ready=mode) for mode in config.ready_modes
            ]
    return found


def legal_commands(table: TableState, seat: int) -> list[Command]:
    """The commands ``decide`` would accept from this seat now."""
    return [c for c in candidates(table, seat) if _accepted(table, c)]


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
