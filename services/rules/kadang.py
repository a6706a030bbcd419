"""卡当 (the winning tile in the middle of a run), 对倒, 卡当宝 and 宝中宝.

Decision 5: 牡丹江 counts a win as 卡当 when *some* winning reading puts the winning tile in the
middle of a run (``11s88m789m222p345s`` wins on 1s and 8m; 8m is 卡当). 哈尔滨 needs more: the
hand waits on exactly one tile, and that tile sits mid-run (``67789m`` waits on 5m and 8m, so 8m is
not 卡当; nor is ``78889m``). A variant whose ``kadang`` rule is ``"none"`` has no 卡当.

Decision 7: a 宝 drawn by a ready seat is wild and may be read as any tile, the 卡当 tile
included, so 摸宝 is 卡当宝 whenever one of the hand's waits is a 卡当 win. 宝中宝: the 宝 is
itself such a 卡当 wait, and the seat draws it.

Every function takes the seat's concealed tiles *before* the winning tile (3n+1 of them), as
counts or as tiles; the melds do not matter to 卡当 except that a kind held four times is no wait.
"""

from __future__ import annotations

from collections.abc import Sequence

from services.rules.hand import middle_of_run, readings
from services.rules.melds import Meld
from services.rules.ready import as_counts, hand_waits
from services.rules.shapes import is_complete
from services.rules.tiles import Tile
from services.rules.variants.base import VariantConfig


def mid_run_on_some_reading(concealed: Sequence[int], win_tile: Tile) -> bool:
    """Some winning reading of the hand plus ``win_tile`` puts it in the middle of a run."""
    counts = as_counts(concealed)
    if not _has_both_neighbours(counts, win_tile):
        return False  # cheap test first: a middle tile needs the tile on either side
    counts[win_tile] += 1
    return any(middle_of_run(r, win_tile) for r in readings(counts))


def _has_both_neighbours(counts: Sequence[int], t: Tile) -> bool:
    return t < 27 and 0 < t % 9 < 8 and counts[t - 1] > 0 and counts[t + 1] > 0


def is_kadang(
    config: VariantConfig, concealed: Sequence[int], win_tile: Tile, melds: Sequence[Meld] = ()
) -> bool:
    """卡当: the win on ``win_tile`` counts as 卡当 under the variant's rule (decision 5)."""
    if config.kadang == "none":
        return False
    if not mid_run_on_some_reading(concealed, win_tile):
        return False
    if config.kadang == "single_wait":
        return hand_waits(config, concealed, melds) == [win_tile]
    return True


def kadang_waits(
    config: VariantConfig, concealed: Sequence[int], melds: Sequence[Meld] = ()
) -> list[Tile]:
    """The waits on which a win would be 卡当, in mpsz order."""
    if config.kadang == "none":
        return []
    found = hand_waits(config, concealed, melds)
    if config.kadang == "single_wait" and len(found) != 1:
        return []
    return [w for w in found if mid_run_on_some_reading(concealed, w)]


def wins_on_drawn_bao(
    config: VariantConfig, concealed: Sequence[int], melds: Sequence[Meld] = ()
) -> bool:
    """摸宝: a drawn 宝 reads as any tile (红中 too, decision 7), so any wait at all wins with it.

    Asked of the waits rather than of ``shapes.is_complete(counts, 1)``, whose wildcard (Tanggu's
    混) is never an honour.
    """
    return bool(hand_waits(config, concealed, melds))


def is_kadang_bao(
    config: VariantConfig, concealed: Sequence[int], melds: Sequence[Meld] = ()
) -> bool:
    """卡当宝: a drawn 宝 can be read as a 卡当 tile of this hand (decision 7)."""
    return bool(kadang_waits(config, concealed, melds))


def is_bao_zhong_bao(
    config: VariantConfig, concealed: Sequence[int], bao: Tile, melds: Sequence[Meld] = ()
) -> bool:
    """宝中宝: the 宝 is itself a 卡当 wait of this hand, so drawing it is 宝中宝 (decision 7)."""
    return bao in kadang_waits(config, concealed, melds)


def duidao_waits(concealed: Sequence[int]) -> list[Tile]:
    """对倒: the waits that turn one of two pairs into a 刻 while the other stays the pair."""
    counts = as_counts(concealed)
    found: list[Tile] = []
    for t, c in enumerate(counts):
        if not 2 <= c <= 3:
            continue  # a fifth copy cannot be the winning tile
        counts[t] -= 2  # this pair becomes the 刻 with the winning tile
        if is_complete(counts):  # the rest is sets and the other pair
            found.append(t)
        counts[t] += 2
    return found


def is_duidao(concealed: Sequence[int], win_tile: Tile) -> bool:
    """对倒: winning on ``win_tile`` can read as completing one of two pairs into a 刻."""
    return win_tile in duidao_waits(concealed)
