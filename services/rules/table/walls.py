"""How much of the wall may still be drawn, and where the next tile comes from."""

from __future__ import annotations

from services.rules.table.state import HandState
from services.rules.tiles import Tile
from services.rules.variants import VariantConfig


def reserved(config: VariantConfig, hand: HandState) -> int:
    """Tiles at the end of the wall that are never drawn.

    山东 keeps the last 6 stacks; after an odd number of replacement draws the tail has a
    lone tile on top, which counts as a stack of its own (``002``), so one tile fewer is kept.
    塘沽 keeps the last 34, its 混 indicator among them; replacements shorten the live wall
    (decision 9).
    """
    if config.dead_wall_in_stacks:
        return config.dead_wall - (hand.tail_draws % 2)
    return config.dead_wall


def drawable(config: VariantConfig, hand: HandState) -> int:
    """Tiles still to be drawn in turn (the 宝 already set aside; the 混 indicator excluded).

    The 混 indicator stays where it lies and is never drawn, and it is one of the reserved
    tiles wherever it lies (decision 9): among the undrawn tiles, or outside them once a draw
    or a replacement has stepped over it. So that step shortens the live wall by one tile,
    like any replacement.
    """
    undrawn = hand.tail - hand.head
    index = hand.indicator_index
    if index is not None and not hand.head <= index < hand.tail:
        undrawn += 1  # stepped over: still in the wall, still one of the reserved tiles
    return max(undrawn - reserved(config, hand), 0)


def replacement_available(config: VariantConfig, hand: HandState) -> bool:
    return drawable(config, hand) > 0


def in_last_draws(config: VariantConfig, hand: HandState) -> bool:
    """牡丹江/哈尔滨: the last four tiles (宝 excluded) are drawn for 自摸 only."""
    return config.last_draws_auto > 0 and drawable(config, hand) <= config.last_draws_auto


def next_head(hand: HandState) -> int:
    index = hand.head
    if index == hand.indicator_index:
        index += 1
    return index


def next_tail(hand: HandState) -> int:
    """The index of the next replacement tile: the last tile, stepping over the 混 indicator."""
    index = hand.tail - 1
    if index == hand.indicator_index:
        index -= 1
    return index


def peek_head(hand: HandState) -> Tile:
    return hand.wall[next_head(hand)]


def peek_tail(hand: HandState) -> Tile:
    return hand.wall[next_tail(hand)]
