"""上海敲麻 counters (``seeds/003``): the 荒番 count and dice 荒番 (the level score and titles,
which every variant keeps, are ``services.rules.levels``).

荒番 (``003``: 荒番规则): a drawn hand adds one to the count, a won hand takes one off, never
below 0; a hand played while the count is above 0 is a 荒番局. So after one drawn hand the next
is a 荒番局; after two in a row the next two are, and so on. Dice 荒番 is added to the count at
the start of a hand, so the hand it is thrown in is already a 荒番局 (当局即开始荒番局).

Dice 荒番: (1,1) and (4,4) add two; every other throw holding a 1 or a 4, and the doubles
(2,2), (3,3), (5,5), (6,6), add one; the rest add nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

DOUBLE_HUANGFAN = frozenset({(1, 1), (4, 4)})
SINGLE_HUANGFAN_FACES = frozenset({1, 4})


def dice_huangfan(die_a: int, die_b: int) -> int:
    """骰子荒番: how much a throw of two dice adds to the 荒番 count (0, 1 or 2)."""
    if not (1 <= die_a <= 6 and 1 <= die_b <= 6):
        raise ValueError(f"dice show 1–6, got ({die_a}, {die_b})")
    throw = (die_a, die_b)
    if throw in DOUBLE_HUANGFAN:
        return 2
    if die_a == die_b or die_a in SINGLE_HUANGFAN_FACES or die_b in SINGLE_HUANGFAN_FACES:
        return 1
    return 0


def count_after_hand(count: int, won: bool) -> int:
    """The 荒番 count after a hand: one less after a win (never below 0), one more after a draw."""
    if count < 0:
        raise ValueError(f"a 荒番 count is never negative, got {count}")
    return max(count - 1, 0) if won else count + 1


@dataclass(frozen=True)
class HuangfanCounter:
    """The table's 荒番 count, as a value: each step returns a new counter."""

    count: int = 0

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"a 荒番 count is never negative, got {self.count}")

    @property
    def is_huangfan_hand(self) -> bool:
        """The hand now being played is a 荒番局."""
        return self.count > 0

    def after_dice(self, die_a: int, die_b: int) -> HuangfanCounter:
        """The count once the opening throw's dice 荒番 is added."""
        return HuangfanCounter(self.count + dice_huangfan(die_a, die_b))

    def after_hand(self, won: bool) -> HuangfanCounter:
        return HuangfanCounter(count_after_hand(self.count, won))
