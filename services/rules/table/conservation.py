"""Tile conservation: every tile of the set is in exactly one place, at every moment."""

from __future__ import annotations

from collections import Counter

from services.rules.table.deal import full_set
from services.rules.table.state import HandState, TableState
from services.rules.tiles import Tile, names


def places(hand: HandState) -> Counter[Tile]:
    """Every tile where it lies now: wall, 宝, 混 indicator, hands, melds, discards, flowers."""
    found: Counter[Tile] = Counter(hand.wall[hand.head : hand.tail])
    if hand.bao is not None:
        found[hand.bao] += 1
    if hand.indicator_index is not None and not hand.head <= hand.indicator_index < hand.tail:
        found[hand.wall[hand.indicator_index]] += 1
    for seat in hand.seats:
        found.update(seat.hand)
        found.update(seat.discards)
        found.update(seat.flowers)
        found.update(seat.set_aside)
        for meld in seat.melds:
            found.update(meld.tiles)
    return found


def conservation_errors(table: TableState) -> str | None:
    """None when the tiles of the hand in play are exactly the variant's set; else what differs."""
    hand = table.hand
    if hand is None:
        return None
    expected = Counter(full_set(table.variant))
    found = places(hand)
    if found == expected:
        return None
    missing = sorted((expected - found).elements())
    extra = sorted((found - expected).elements())
    return f"tiles missing: {' '.join(names(missing)) or 'none'}; tiles twice: {' '.join(names(extra)) or 'none'}"
