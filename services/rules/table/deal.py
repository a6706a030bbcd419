"""The wall and the dice of a hand, from the seed carried by ``hand_started``.

The wall order is the order tiles are drawn in: the head is drawn in turn, replacements
come from the tail. ``random.Random`` seeded with an int is stable across CPython versions
for ``shuffle`` and ``randint``, so a seed gives the same wall on every machine.
"""

from __future__ import annotations

import hashlib
import random

from services.rules.tiles import Tile, tile_set
from services.rules.variants import Variant, VariantConfig

DEAL_ROUNDS = 3  # 4 tiles a seat, three times round
DEAL_BLOCK = 4


def _rng(seed: str, purpose: str) -> random.Random:
    digest = hashlib.sha256(f"{purpose}:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def full_set(config: VariantConfig) -> tuple[Tile, ...]:
    """Every tile of the variant's set, in kind order."""
    return tile_set(config.kinds, flowers=config.flowers)


def shuffled_wall(config: VariantConfig, seed: str) -> tuple[Tile, ...]:
    tiles = list(full_set(config))
    _rng(seed, "wall").shuffle(tiles)
    return tuple(tiles)


def roll_dice(seed: str, count: int) -> tuple[int, ...]:
    rng = _rng(seed, "dice")
    return tuple(rng.randint(1, 6) for _ in range(count))


def random_seat(seed: str) -> int:
    return _rng(seed, "dealer").randrange(4)


def wall_in_draw_order(
    variant: Variant, wall: tuple[Tile, ...], dice: tuple[int, ...], dealer: int
) -> tuple[Tile, ...]:
    """Open the shuffled wall where the dice say (the variant's ``wall_break``): the draw order
    starts at the break."""
    return variant.wall_break(wall, dice, dealer)


def deal_order(dealer: int) -> list[tuple[int, int]]:
    """(seat, tiles) in dealing order: 4 each ×3 from the dealer, 1 each, 1 more to the dealer."""
    seats = [(dealer + i) % 4 for i in range(4)]
    order = [(seat, DEAL_BLOCK) for _ in range(DEAL_ROUNDS) for seat in seats]
    order += [(seat, 1) for seat in seats]
    order.append((dealer, 1))
    return order


def deal(wall: tuple[Tile, ...], dealer: int) -> tuple[list[list[Tile]], int]:
    """The opening hands and how many tiles the deal took from the head."""
    hands: list[list[Tile]] = [[], [], [], []]
    head = 0
    for seat, count in deal_order(dealer):
        hands[seat].extend(wall[head : head + count])
        head += count
    return hands, head
