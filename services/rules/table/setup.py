"""What the system does between the deal and the dealer's first discard."""

from __future__ import annotations

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table.state import HandState
from services.rules.tiles import FLOWERS, name
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
