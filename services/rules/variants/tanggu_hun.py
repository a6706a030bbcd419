"""塘沽 混 (``seeds/004``, README decision 9): which tiles are wild, and where the indicator lies.

The indicator is turned face up where it lies; the seven 混 are its three other copies and the
four copies of the tile after it. "After" wraps inside each family: a suit's 9 is followed by
its 1; the dragons run 中→发→白→中 (7z→6z→5z→7z, ``004``: 中-发-白-中); the winds run
东→南→西→北→东 (1z→2z→3z→4z→1z).

Position: the dealer rolls, that roll names the seat that rolls second (the dealer counted as
1, in turn order), and the sum of both rolls is the indicator's place counted back from the end of
the wall, the last tile being place 1 (``004``: 两次掷骰子骰点之和为混的位置，即从牌墙最后一张反算).
A roll is the total shown by the dice thrown; how many dice make a roll is the caller's choice.
"""

from __future__ import annotations

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.table.state import HandState
from services.rules.tiles import Tile, name, names

COPIES = 4
_WINDS = (27, 28, 29, 30)  # 东 南 西 北
_DRAGONS = (33, 32, 31)  # 中 发 白: the order 004 gives


def _next_in(cycle: tuple[Tile, ...], t: Tile) -> Tile:
    return cycle[(cycle.index(t) + 1) % len(cycle)]


def next_tile(indicator: Tile) -> Tile:
    """The tile after ``indicator`` in its family: 9m→1m, 北→东, 中→发→白→中."""
    if 0 <= indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator in _WINDS:
        return _next_in(_WINDS, indicator)
    if indicator in _DRAGONS:
        return _next_in(_DRAGONS, indicator)
    raise ValueError(
        f"{indicator} is no tile that can be a 混 indicator (flowers are not in the set)"
    )


def hun_kinds(indicator: Tile) -> frozenset[Tile]:
    """The two kinds that are 混: the indicator's own kind and the next one."""
    return frozenset((indicator, next_tile(indicator)))


def hun_tiles(indicator: Tile) -> tuple[Tile, ...]:
    """The seven physical 混: three more copies of the indicator, four of the next tile."""
    return (indicator,) * (COPIES - 1) + (next_tile(indicator),) * COPIES


def second_roller(dealer: int, first_roll: int) -> int:
    """The seat that rolls second: counted from the dealer as 1, in turn order."""
    if first_roll < 1:
        raise ValueError(f"a roll is at least 1, got {first_roll}")
    return (dealer + first_roll - 1) % 4


def indicator_place(first_roll: int, second_roll: int) -> int:
    """The indicator's place counted back from the wall's end (the last tile is place 1)."""
    if first_roll < 1 or second_roll < 1:
        raise ValueError(f"rolls are at least 1, got {first_roll} and {second_roll}")
    return first_roll + second_roll


def indicator_index(wall_size: int, first_roll: int, second_roll: int) -> int:
    """The indicator's index in a wall of ``wall_size`` tiles listed in draw order."""
    place = indicator_place(first_roll, second_roll)
    if place > wall_size:
        raise ValueError(f"place {place} lies beyond a wall of {wall_size} tiles")
    return wall_size - place


def reveal_wildcards(hand: HandState) -> DomainEvent:
    """塘沽: the dealer's roll and the second roller's roll count back to the 混 indicator."""
    first, second = sum(hand.dice[:2]), sum(hand.dice[2:])
    place = indicator_place(first, second)
    indicator = hand.wall[len(hand.wall) - place]
    kinds = sorted(hun_kinds(indicator))
    return ev.WildcardsRevealed(
        indicator=name(indicator), position_from_end=place, wildcards=tuple(names(kinds))
    )
