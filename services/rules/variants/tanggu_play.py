"""塘沽 shapes the table asks its variant for while playing: 混钓 (for 上大台, through the 混's
``in_wild_pair_wait``) and the 独抱 wait (``declared_wait``)."""

from __future__ import annotations

from services.rules.hand import readings
from services.rules.melds import Meld
from services.rules.shapes import is_complete
from services.rules.table.winning import hand_waits, split_wild
from services.rules.tiles import Tile
from services.rules.variants import VariantConfig

MAX_WILD_PAIR_RAISES = 2  # 最多允许2次上大台


def in_hun_diao(concealed: tuple[Tile, ...], wildcards: frozenset[Tile]) -> bool:
    """混钓: take one 混 away and the rest is sets only; that 混 waits to be paired.

    "Sets only" is tested as complete-with-a-pair after adding a pair of an honour the hand
    does not hold: an honour pair can only ever be the pair, so it takes the pair's place.
    """
    counts, wild = split_wild(concealed, wildcards)
    if wild == 0:
        return False
    absent = next((t for t in range(27, 34) if counts[t] == 0), None)
    if absent is None:
        return False
    counts[absent] = 2
    return is_complete(counts, wild - 1)


def dubao_wait(
    concealed: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
    config: VariantConfig,
) -> Tile | None:
    """独抱: the one tile the hand waits on, when it is a 坎张 (middle of a run) or a 单钓 (the pair)."""
    # a drawn 混 completes any ready hand, so the 混 kinds are no part of the wait that counts
    found = [t for t in hand_waits(config, concealed, melds, wildcards) if t not in wildcards]
    if len(found) != 1:
        return None
    wait = found[0]
    counts, wild = split_wild(concealed + (wait,), wildcards)
    for reading in readings(counts, wild):
        for group in reading:
            if group.kind == "run" and group.tiles[1] == wait and group.wild == 0:
                return wait
            if group.kind == "pair" and group.tiles == (wait, wait):  # 单钓, whatever else holds it
                return wait
    return None


def dubao_refusal(
    mode: str,
    concealed: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
    config: VariantConfig,
) -> str | None:
    """独抱: declared only on a hand that waits on a single 坎张 or 单钓 tile."""
    if mode == "dubao" and dubao_wait(concealed, melds, wildcards, config) is None:
        return "独抱 waits on a single 坎张 or 单钓 tile, and this hand does not"
    return None
