"""Commands a seat gives on its own turn: discard (perhaps declaring 听), kong, 自摸, 风头杠, 上大台."""

from __future__ import annotations

from events.base import DomainEvent
from services.rules import ready as ready_rules
from services.rules.events import hand as ev
from services.rules.table import settle
from services.rules.table.commands import (
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    Kong,
    RaiseWildPair,
)
from services.rules.table.guards import hand_in_play, on_turn, refuse
from services.rules.table.state import HandState, SeatState, TableState
from services.rules.table.walls import peek_tail, replacement_available
from services.rules.table.winning import may_declare_ready, melds_after_kong
from services.rules.tiles import name, names, tile
from services.rules.variants import Variant

DRAGONS = (31, 32, 33)
WINDS = (27, 28, 29, 30)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _without(tiles: tuple[int, ...], t: int, copies: int = 1) -> tuple[int, ...]:
    rest = list(tiles)
    for _ in range(copies):
        rest.remove(t)
    return tuple(rest)


def discard(table: TableState, cmd: DiscardTile) -> list[DomainEvent]:
    hand = on_turn(table, cmd.seat)
    seat = hand.seat(cmd.seat)
    t = tile(cmd.tile)
    if t != seat.drawn and t not in seat.concealed:
        raise refuse(f"seat {cmd.seat} does not hold {cmd.tile}")
    if seat.ready is not None:
        if cmd.ready is not None:
            raise refuse(f"seat {cmd.seat} is already 听")
        if t != seat.drawn:
            raise refuse(
                f"after 听 the hand cannot change: discard the drawn tile {name(seat.drawn or 0)}"
            )
        return [ev.TileDiscarded(seat=cmd.seat, tile=cmd.tile)]
    mode = cmd.ready or ("plain" if seat.must_ready else None)
    if mode is None:
        return [ev.TileDiscarded(seat=cmd.seat, tile=cmd.tile)]
    rest = _without(seat.hand, t)
    _check_ready(table.variant, hand, seat, rest, mode, cmd)
    events: list[DomainEvent] = [ev.TileDiscarded(seat=cmd.seat, tile=cmd.tile, ready=mode)]
    if mode == "open":
        events.append(ev.HandShown(seat=cmd.seat, tiles=tuple(names(sorted(rest)))))
    return events


def _check_ready(
    variant: Variant,
    hand: HandState,
    seat: SeatState,
    rest: tuple[int, ...],
    mode: str,
    cmd: DiscardTile,
) -> None:
    config = variant.config
    if mode not in config.ready_modes:
        raise refuse(
            f"{config.name} declares 听 as {' or '.join(config.ready_modes)}, not {mode!r}"
        )
    if not may_declare_ready(config, rest, seat.melds, hand.wildcards):
        blockers = ready_rules.ready_blockers(config, rest, seat.melds, hand.wildcards)
        what = (
            "吃听 needs a discard that leaves the hand ready"
            if seat.must_ready
            else "cannot declare 听"
        )
        raise refuse(f"{what} after discarding {cmd.tile}: {'; '.join(blockers) or 'not ready'}")
    refusal = variant.declared_wait(mode, rest, seat.melds, hand.wildcards, config)
    if refusal is not None:
        raise refuse(refusal)


def kong(table: TableState, cmd: Kong) -> list[DomainEvent]:
    hand = on_turn(table, cmd.seat)
    config = table.variant.config
    seat = hand.seat(cmd.seat)
    if cmd.tile is None:
        raise refuse("name the tile to kong")
    t = tile(cmd.tile)
    if seat.drawn is None:
        raise refuse("an 暗杠 or 补杠 is made after drawing; discard now")
    if hand.last_draws:
        raise refuse("no kong in the last draws: they are for 自摸 only")
    if len(seat.concealed) < config.min_concealed_to_claim:
        raise refuse(f"no 吃, 碰 or 杠 with only {len(seat.concealed)} concealed tiles")
    if not replacement_available(config, hand):
        raise refuse("no tile is left to replace a kong")
    taken: tuple[int, ...]
    if seat.hand.count(t) == 4:
        kind, taken, rest = "concealed_kong", (t,) * 4, _without(seat.hand, t, 4)
    elif t in seat.hand and any(m.kind == "pong" and m.tile == t for m in seat.melds):
        kind, taken, rest = "added_kong", (t,), _without(seat.hand, t)
    else:
        raise refuse(f"seat {cmd.seat} holds no four of {cmd.tile} and no 碰 of it to add to")
    if seat.ready is not None:
        if config.kong_after_ready == "never":
            raise refuse(f"no kong after 听 in {config.name}")
        melds = melds_after_kong(seat.melds, kind, t)
        if not may_declare_ready(config, rest, melds, hand.wildcards):
            blockers = ready_rules.ready_blockers(config, rest, melds, hand.wildcards)
            raise refuse(
                "this kong would leave the hand not ready to declare 听 (无法上听): "
                + "; ".join(blockers)
            )
    return [ev.KongDeclared(seat=cmd.seat, kind=kind, tiles=tuple(names(taken)))]


def declare_win(table: TableState, cmd: DeclareWin) -> list[DomainEvent]:
    hand = on_turn(table, cmd.seat)
    config = table.variant.config
    seat = hand.seat(cmd.seat)
    if seat.drawn is None:
        raise refuse("自摸 needs a drawn tile; discard now")
    if seat.xianggong:
        raise refuse(f"seat {cmd.seat} is 相公 (discarded a 混) and cannot win this hand")
    if config.ready_rule == "required" and seat.ready is None:
        raise refuse(f"{config.name}: no win without declaring 听 first")
    if not settle.may_win(table, hand, settle.WinClaim(cmd.seat, seat.drawn, True)):
        raise refuse(f"{name(seat.drawn)} does not complete seat {cmd.seat}'s hand")
    return [settle.hand_won(table, hand, [settle.WinClaim(cmd.seat, seat.drawn, True)])]


def declare_honour_kong(table: TableState, cmd: DeclareHonourKong) -> list[DomainEvent]:
    """风头杠: before the seat's first draw (在首次摸牌前), while it has neither discarded nor
    claimed, and not while a claim window is open (its options rest on the seat's hand)."""
    hand = hand_in_play(table)
    config = table.variant.config
    seat = hand.seat(cmd.seat)
    if not config.honour_kongs:
        raise refuse(f"{config.name} has no 风头杠")
    claimed = any(m.claimed is not None for m in seat.melds)
    if hand.step != "discard" or seat.has_drawn or seat.has_discarded or claimed:
        raise refuse("风头杠 is declared before the seat's first draw")
    wanted = DRAGONS if cmd.honours == "dragons" else WINDS
    if not all(t in seat.hand for t in wanted):
        raise refuse(f"seat {cmd.seat} does not hold {' '.join(names(wanted))}")
    if cmd.honours == "dragons":
        return [ev.KongDeclared(seat=cmd.seat, kind="dragon_kong", tiles=tuple(names(wanted)))]
    if not replacement_available(config, hand):
        raise refuse("no tile is left to replace a kong")
    return [
        ev.KongDeclared(
            seat=cmd.seat,
            kind="wind_kong",
            tiles=tuple(names(wanted)),
            replacement=name(peek_tail(hand)),
        )
    ]


def raise_wild_pair(table: TableState, cmd: RaiseWildPair) -> list[DomainEvent]:
    """上大台: in 混钓 a drawn 混 is set aside, at most twice."""
    hand = on_turn(table, cmd.seat)
    seat = hand.seat(cmd.seat)
    config = table.variant.config
    if not config.wild_pair_raises:
        raise refuse(f"{config.name} has no 上大台")
    if seat.drawn is None or seat.drawn not in hand.wildcards:
        raise refuse("上大台 needs a drawn 混")
    if not table.variant.wildcards.in_wild_pair_wait(seat.concealed, hand.wildcards):
        raise refuse("上大台 is only for a hand in 混钓 (a 混 waiting to pair)")
    if len(seat.set_aside) >= config.wild_pair_raises:
        raise refuse(
            f"上大台 is allowed at most {_times(config.wild_pair_raises)}; win with the 混钓"
        )
    return [ev.WildcardSetAside(seat=cmd.seat, tile=name(seat.drawn))]
