"""Can a seat win on a tile, and may it declare 听: the engine's questions to the hand analysis."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from services.rules import ready as ready_rules
from services.rules.melds import Meld, MeldKind
from services.rules.shanten import shanten
from services.rules.shapes import is_complete, is_seven_pairs, waits
from services.rules.table.state import HandState
from services.rules.tiles import NUM_KINDS, Tile
from services.rules.variants import Variant, VariantConfig


def split_wild(tiles: Iterable[Tile], wildcards: frozenset[Tile]) -> tuple[list[int], int]:
    """Counts of the natural tiles, and how many wildcards stand apart."""
    counts = [0] * NUM_KINDS
    if not wildcards:  # four variants of five, and every hand of them: nothing to set apart
        for t in tiles:
            counts[t] += 1
        return counts, 0
    wild = 0
    for t in tiles:
        if t in wildcards:
            wild += 1
        else:
            counts[t] += 1
    return counts, wild


def is_winning_shape(
    config: VariantConfig,
    tiles: Iterable[Tile],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
) -> bool:
    counts, wild = split_wild(tiles, wildcards)
    if is_complete(counts, wild):
        return True
    return config.seven_pairs and not melds and is_seven_pairs(counts, wild)


def hand_waits(
    config: VariantConfig,
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
) -> list[Tile]:
    return ready_rules.hand_waits(config, tiles, melds, wildcards)


def may_declare_ready(
    config: VariantConfig,
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
) -> bool:
    """May a seat holding these 3n+1 tiles declare 听 (the variant's conditions included).

    The wait search is cheap and rules most hands out, so it runs before the conditions; a
    variant with no conditions beyond a wait needs nothing more.
    """
    if not hand_waits(config, tiles, melds, wildcards):
        return False
    if config.ready_conditions is None:
        return True
    return ready_rules.can_declare_ready(config, tiles, melds, wildcards)


def melds_after_kong(melds: tuple[Meld, ...], kind: str, tile: Tile) -> tuple[Meld, ...]:
    """The melds once a kong of ``tile`` is made: an 补杠 turns its 碰 into a kong, an 暗杠 or
    a 明杠 adds one. Which kind of kong it is matters only to 开门 (an 暗杠 does not open)."""
    if kind == "added_kong":
        return tuple(
            Meld("added_kong", (tile,) * 4, m.claimed, m.from_seat)
            if m.kind == "pong" and m.tile == tile
            else m
            for m in melds
        )
    meld_kind: MeldKind = "concealed_kong" if kind == "concealed_kong" else "kong"
    return melds + (Meld(meld_kind, (tile,) * 4, None if meld_kind == "concealed_kong" else tile),)


def declarable_discards(
    config: VariantConfig,
    tiles: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
) -> set[Tile]:
    """The discards from 3n+2 tiles after which the seat may declare 听."""
    if shanten_of(tuple(sorted(tiles)), config.seven_pairs, wildcards) > 0:
        return set()  # no discard leaves this hand one tile from complete
    found: set[Tile] = set()
    for t in set(tiles):
        rest = list(tiles)
        rest.remove(t)
        if may_declare_ready(config, tuple(rest), melds, wildcards):
            found.add(t)
    return found


def can_win(
    variant: Variant, hand: HandState, seat_index: int, tile: Tile, self_drawn: bool
) -> bool:
    """May this seat declare 胡 with ``tile`` (drawn by itself, or discarded/robbed)."""
    config = variant.config
    seat = hand.seat(seat_index)
    if seat.xianggong:
        return False
    if config.ready_rule == "required" and seat.ready is None:
        return False
    if seat.ready == "open" and not self_drawn:
        return False  # 明楼 wins by 自摸 only
    if self_drawn and variant.wildcards.wins_on_draw(hand, seat, tile):
        return True  # 摸宝: the drawn 宝 stands for any tile the ready hand waits on
    if not self_drawn and not variant.wildcards.discard_claimable(hand, tile):
        return False  # a discarded 混 cannot be claimed by anybody
    if tile in hand.wildcards:
        return is_winning_shape(config, seat.concealed + (tile,), seat.melds, hand.wildcards)
    return tile in _winning_tiles(
        seat.concealed, config.seven_pairs and not seat.melds, hand.wildcards
    )


@lru_cache(maxsize=8192)
def _winning_tiles(
    concealed: tuple[Tile, ...], seven_pairs: bool, wildcards: frozenset[Tile]
) -> frozenset[Tile]:
    """The natural tiles that complete these concealed tiles, by shape: worked out once per hand
    shape, as each seat is asked about every discard while its own tiles stay the same."""
    counts, wild = split_wild(concealed, wildcards)
    return frozenset(waits(counts, wild, seven_pairs))


@lru_cache(maxsize=8192)
def shanten_of(tiles: tuple[Tile, ...], seven_pairs: bool, wildcards: frozenset[Tile]) -> int:
    """向听 of concealed tiles (sorted), melds counted from how many tiles are missing; cached
    per hand shape, since the same seat is asked again while its tiles stay the same."""
    counts, wild = split_wild(tiles, wildcards)
    melds = 4 - len(tiles) // 3
    return shanten(counts, melds, seven_pairs and melds == 0, wild)
