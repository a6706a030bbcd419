"""The claim window on a discard: who may claim what, and whose claim is taken."""

from __future__ import annotations

from services.rules.melds import Meld
from services.rules.table import settle
from services.rules.table.state import Claim, ClaimWindow, HandState, TableState
from services.rules.table.walls import replacement_available
from services.rules.table.winning import (
    can_win,
    declarable_discards,
    may_declare_ready,
    melds_after_kong,
    shanten_of,
)
from services.rules.tiles import Tile
from services.rules.variants import VariantConfig


def seats_after(seat: int) -> list[int]:
    """The other seats, nearest (in turn order) first."""
    return [(seat + i) % 4 for i in (1, 2, 3)]


def chow_options(tile: Tile, concealed: tuple[Tile, ...]) -> list[tuple[Tile, Tile]]:
    """The pairs of held tiles that make a run with ``tile`` (lowest run first)."""
    if tile >= 27:
        return []
    rank = tile % 9
    found = []
    if rank >= 2 and tile - 2 in concealed and tile - 1 in concealed:
        found.append((tile - 2, tile - 1))
    if 1 <= rank <= 7 and tile - 1 in concealed and tile + 1 in concealed:
        found.append((tile - 1, tile + 1))
    if rank <= 6 and tile + 1 in concealed and tile + 2 in concealed:
        found.append((tile + 1, tile + 2))
    return found


def _without(tiles: tuple[Tile, ...], remove: tuple[Tile, ...]) -> tuple[Tile, ...]:
    rest = list(tiles)
    for t in remove:
        rest.remove(t)
    return tuple(rest)


def claim_readies(
    config: VariantConfig,
    hand: HandState,
    seat_index: int,
    kind: str,
    tile: Tile,
    used: tuple[Tile, ...],
) -> bool:
    """吃听: after this claim, some discard leaves the seat ready."""
    seat = hand.seat(seat_index)
    rest = _without(seat.concealed, used)
    meld = Meld("chi" if kind == "chi" else "pong", tuple(sorted(used + (tile,))), tile)
    return bool(declarable_discards(config, rest, seat.melds + (meld,), hand.wildcards))


def claim_options(
    table: TableState,
    hand: HandState,
    seat_index: int,
    from_seat: int,
    tile: Tile,
    robbing: bool,
) -> tuple[str, ...]:
    variant = table.variant
    config = variant.config
    seat = hand.seat(seat_index)
    kinds: list[str] = []
    # every seat is asked on every discard and most cannot win on it: the shape test first,
    # before the scorer's context is built
    if can_win(variant, hand, seat_index, tile, False) and settle.may_win(
        table, hand, settle.WinClaim(seat_index, tile, False, from_seat, robbing)
    ):
        kinds.append("win")
    if robbing or not variant.wildcards.discard_claimable(hand, tile):
        return tuple(kinds)
    if len(seat.concealed) < config.min_concealed_to_claim:
        return tuple(kinds)
    held = seat.concealed.count(tile)
    if seat.ready is not None:
        if held == 3 and kong_keeps_ready(
            config, hand, seat_index, _without(seat.concealed, (tile,) * 3), tile
        ):
            kinds.append("kong")
        return tuple(kinds)
    if held == 3 and replacement_available(config, hand):
        kinds.append("kong")
    if held >= 2:
        kinds.append("pong")
        if (
            "pong" in config.ready_claim_kinds
            and near_ready(config, seat.concealed, hand.wildcards)
            and claim_readies(config, hand, seat_index, "pong", tile, (tile, tile))
        ):
            kinds.append("ready_pong")
    next_seat = seat_index == (from_seat + 1) % 4
    may_ready_chi = "chi" in config.ready_claim_kinds and near_ready(
        config, seat.concealed, hand.wildcards
    )
    chows = chow_options(tile, seat.concealed) if next_seat or may_ready_chi else []
    if chows and next_seat:
        kinds.append("chi")
    if may_ready_chi and any(
        claim_readies(config, hand, seat_index, "chi", tile, pair) for pair in chows
    ):
        kinds.append("ready_chi")
    return tuple(kinds)


def near_ready(
    config: VariantConfig, concealed: tuple[Tile, ...], wildcards: frozenset[Tile]
) -> bool:
    """A claim takes a hand at most one step nearer ready (向听), so only a hand within one
    step can 吃听; the cheap test spares the search for 听 discards on every other seat."""
    return shanten_of(concealed, config.seven_pairs, wildcards) <= 1


def kong_keeps_ready(
    config: VariantConfig, hand: HandState, seat_index: int, rest: tuple[Tile, ...], tile: Tile
) -> bool:
    """A kong of a discard after 听 only where the variant allows it, and only when the hand
    left could still declare 听 (哈尔滨, decision 4: 系统判断杠牌后的牌型是否无法上听)."""
    if config.kong_after_ready != "if_still_ready" or not replacement_available(config, hand):
        return False
    melds = melds_after_kong(hand.seat(seat_index).melds, "kong", tile)
    return may_declare_ready(config, rest, melds, hand.wildcards)


def open_window(
    table: TableState, hand: HandState, from_seat: int, tile: Tile, robbing: bool = False
) -> ClaimWindow | None:
    """The claim window on a discard (or, ``robbing``, on an 补杠's tile), if anyone may claim."""
    options = []
    for seat in seats_after(from_seat):
        kinds = claim_options(table, hand, seat, from_seat, tile, robbing)
        if kinds:
            options.append((seat, kinds))
    if not options:
        return None
    return ClaimWindow(tile=tile, from_seat=from_seat, options=tuple(options), robbing=robbing)


def winning_claims(config: VariantConfig, window: ClaimWindow) -> list[tuple[int, Claim]]:
    """The claims taken: the highest class wins, nearest seat first (all wins on 一炮多响)."""
    made = [
        (seat, claim)
        for seat in seats_after(window.from_seat)
        if (claim := window.answer_of(seat)) and claim.kind != "pass"
    ]
    for cls in config.claim_classes:
        in_class = [(seat, claim) for seat, claim in made if claim.kind in cls]
        if not in_class:
            continue
        if cls == ("win",) and config.multiple_winners:
            return in_class
        return in_class[:1]
    return []
