"""Small helpers for the bot tests: a dealt table, and a seat's tiles replaced by a test's own."""

from __future__ import annotations

from dataclasses import replace

from services.bots.runner import open_table
from services.rules.table import TableState, decide, evolve
from services.rules.table.commands import StartHand
from services.rules.tiles import parse_tiles

VARIANTS = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")


def dealt(variant: str, seed: str = "bots-test-0001", dealer: int = 0) -> TableState:
    """A table of ``variant`` right after the deal, the dealer (seat ``dealer``) to discard."""
    table, _ = open_table(variant)
    for event in decide(table, StartHand(seed=seed, dealer=dealer)):
        table = evolve(table, event)
    return table


def with_tiles(
    table: TableState, seat: int, concealed: str, drawn: str | None = None
) -> TableState:
    """The table with ``seat`` holding ``concealed`` (and ``drawn``): for choices, not for conservation."""
    hand = table.hand
    assert hand is not None
    tiles = tuple(sorted(parse_tiles(concealed)))
    new_drawn = parse_tiles(drawn)[0] if drawn else None
    seat_state = replace(hand.seat(seat), concealed=tiles, drawn=new_drawn)
    return replace(table, hand=hand.with_seat(seat, seat_state))
