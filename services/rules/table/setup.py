"""What the system does between the deal and the dealer's first discard."""

from __future__ import annotations

from events import hand as ev
from events.base import DomainEvent
from services.rules.table.state import HandState
from services.rules.tanggu_hun import hun_kinds, indicator_place
from services.rules.tiles import FLOWERS, name, names
from services.rules.variants import Variant


def holds_flower(hand: HandState, seat: int) -> bool:
    return any(t in FLOWERS for t in hand.seat(seat).hand)


def setup_pending(variant: Variant, hand: HandState) -> bool:
    if variant.wildcards.setup_pending(hand):
        return True
    return variant.config.flowers and any(holds_flower(hand, s) for s in range(4))


def setup_events(variant: Variant, hand: HandState) -> list[DomainEvent]:
    """The next setup step: the variant's wildcards (set the 宝 aside, reveal the 混), then
    rounds of 补花."""
    return variant.wildcards.setup_events(hand) or flower_round(hand)


def reveal_wildcards(hand: HandState) -> DomainEvent:
    """塘沽: the dealer's roll and the second roller's roll count back to the 混 indicator."""
    first, second = sum(hand.dice[:2]), sum(hand.dice[2:])
    place = indicator_place(first, second)
    indicator = hand.wall[len(hand.wall) - place]
    kinds = sorted(hun_kinds(indicator))
    return ev.WildcardsRevealed(
        indicator=name(indicator), position_from_end=place, wildcards=tuple(names(kinds))
    )


def flower_round(hand: HandState) -> list[DomainEvent]:
    """补花 at the deal: from the dealer round the table, each seat replaces the flowers it
    holds; flowers drawn as replacements wait for the next round (``002``)."""
    events: list[DomainEvent] = []
    tail = hand.tail
    for offset in range(4):
        seat = (hand.dealer + offset) % 4
        for flower in sorted(t for t in hand.seat(seat).hand if t in FLOWERS):
            tail -= 1
            events.append(
                ev.FlowerReplaced(seat=seat, flower=name(flower), replacement=name(hand.wall[tail]))
            )
    return events
