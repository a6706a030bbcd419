"""How much of the wall may still be drawn, and where the next tile comes from."""

from __future__ import annotations

from services.rules.table.state import HandState
from services.rules.tiles import Tile
from services.rules.variants import VariantConfig


def reserved(config: VariantConfig, hand: HandState) -> int:
    """Tiles at the end of the wall that are never drawn.

    山东 keeps the last 6 stacks; after an odd number of replacement draws the tail has a
    lone tile on top, which counts as a stack of its own (``002``), so one tile fewer is kept.
    塘沽 keeps the last 34; replacements shorten the live wall (decision 9).
    """
    if config.id == "shandong":
        return config.dead_wall - (hand.tail_draws % 2)
    return config.dead_wall


def drawable(config: VariantConfig, hand: HandState) -> int:
    """Tiles still to be drawn in turn (the 宝 already set aside; the 混 indicator excluded)."""
    end = hand.tail - reserved(config, hand)
    left = end - hand.head
    if hand.indicator_index is not None and hand.head <= hand.indicator_index < end:
        left -= 1  # the indicator stays where it lies; it is never drawn
    return max(left, 0)


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
