"""Tile conservation: every tile of the set is in exactly one place, at every moment."""

from __future__ import annotations

from collections import Counter

from services.rules.table.deal import full_set
from services.rules.table.state import HandState, TableState
from services.rules.tiles import Tile, names
from services.rules.variants import VariantConfig


def tiles_in_play(hand: HandState) -> list[Tile]:
    """Every tile where it lies now: wall, 宝, 混 indicator, hands, melds, discards, flowers."""
    found = list(hand.wall[hand.head : hand.tail])
    if hand.bao is not None:
        found.append(hand.bao)
    if hand.indicator_index is not None and not hand.head <= hand.indicator_index < hand.tail:
        found.append(hand.wall[hand.indicator_index])
    for seat in hand.seats:
        found += seat.concealed
        if seat.drawn is not None:
            found.append(seat.drawn)
        found += seat.discards
        found += seat.flowers
        found += seat.set_aside
        for meld in seat.melds:
            found += meld.tiles
    return found


# each variant's sorted set by its config (a version may give a variant another set), found by
# the config's id, cheaper per event than hashing it; the config is kept so its id stays its own
_sets: dict[int, tuple[VariantConfig, list[Tile]]] = {}


def _sorted_set(table: TableState) -> list[Tile]:
    """The tile set of the table's variant, as the table's rules version has it."""
    config = table.variant.config
    found = _sets.get(id(config))
    if found is None or found[0] is not config:
        found = _sets[id(config)] = (config, sorted(full_set(config)))
    return found[1]


def conservation_errors(table: TableState) -> str | None:
    """None when the tiles of the hand in play are exactly the variant's set; else what differs.

    Checked after every event by ``paiju simulate``, so the common case is one sort and one
    comparison; the counting that names the difference runs only when there is one.
    """
    hand = table.hand
    if hand is None:
        return None
    found = tiles_in_play(hand)
    found.sort()
    expected_set = _sorted_set(table)
    if found == expected_set:
        return None
    expected, present = Counter(expected_set), Counter(found)
    missing = sorted((expected - present).elements())
    extra = sorted((present - expected).elements())
    return f"tiles missing: {' '.join(names(missing)) or 'none'}; tiles twice: {' '.join(names(extra)) or 'none'}"
