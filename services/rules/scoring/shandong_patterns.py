"""山东麻将 patterns (番) and 花 (``seeds/002``), each a small named unit.

A pattern looks at a ``ShandongHand``: every tile of the winning hand, the winner's melds and
one way of reading the concealed tiles (a split into sets and a pair, or 七对). The scorer tries
every reading and keeps the one worth most 番.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from services.rules.hand import Reading
from services.rules.melds import Meld
from services.rules.scoring.base import WinContext
from services.rules.scoring.patterns import Pattern, pattern
from services.rules.tiles import DRAGONS, WINDS, Tile, is_flower

if TYPE_CHECKING:
    from services.rules.scoring.shandong import ShandongScoring

JIANG_RANKS = frozenset({1, 4, 7})  # 0-based ranks of 2, 5 and 8


@dataclass(frozen=True)
class ShandongHand:
    """One reading of a win: ``reading`` is None when the hand is read as 七对."""

    ctx: WinContext
    tiles: tuple[Tile, ...]  # concealed, winning tile and every meld tile
    reading: Reading | None

    @property
    def seven_pairs(self) -> bool:
        return self.reading is None


def _suits(tiles: tuple[Tile, ...]) -> set[int]:
    return {t // 9 for t in tiles if t < 27}


def _has_honour(tiles: tuple[Tile, ...]) -> bool:
    return any(27 <= t < 34 for t in tiles)


def hun_yi_se(h: ShandongHand) -> bool:
    """混一色: one suit's number tiles together with honours."""
    return len(_suits(h.tiles)) == 1 and _has_honour(h.tiles)


def qing_yi_se(h: ShandongHand) -> bool:
    """清一色: number tiles of one suit only."""
    return len(_suits(h.tiles)) == 1 and not _has_honour(h.tiles)


def jiang_yi_se(h: ShandongHand) -> bool:
    """将一色: every tile a 2, 5 or 8 of a suit (the 将 tiles), melds included."""
    return all(t < 27 and t % 9 in JIANG_RANKS for t in h.tiles)


def _runs(h: ShandongHand) -> list[Tile]:
    """The first tile of every run: in the reading and among the 吃."""
    assert h.reading is not None
    starts = [g.tiles[0] for g in h.reading if g.kind == "run"]
    return starts + [m.tile for m in h.ctx.melds if m.kind == "chi"]


def yi_tiao_long(h: ShandongHand) -> bool:
    """一条龙: 123, 456 and 789 of one suit as three runs."""
    if h.reading is None:
        return False
    starts = set(_runs(h))
    return any({base, base + 3, base + 6} <= starts for base in (0, 9, 18))


def peng_peng_he(h: ShandongHand) -> bool:
    """碰碰和: four triplets or kongs and the pair."""
    return h.reading is not None and not _runs(h)


def qi_dui(h: ShandongHand) -> bool:
    """七对: seven pairs."""
    return h.seven_pairs


def gang_shang_kai_hua(h: ShandongHand) -> bool:
    """杠上开花: self-drawn on the replacement after a kong or a flower."""
    return h.ctx.after_kong and h.ctx.self_drawn


def di_he(h: ShandongHand) -> bool:
    """地和: a non-dealer wins in the first go-round, before any 吃, 碰 or 杠."""
    return h.ctx.first_draw and h.ctx.seat != h.ctx.dealer


def tian_he(h: ShandongHand) -> bool:
    """天和: the dealer wins on the opening fourteen."""
    return h.ctx.first_draw and h.ctx.seat == h.ctx.dealer and h.ctx.self_drawn


def tui_dao_he(h: ShandongHand) -> bool:
    """推倒和: the win itself, counted only when no other pattern holds."""
    return True


# each worth the 番 its field of ``ShandongScoring`` holds; the 番 of the patterns a win holds add up
PATTERNS: tuple[Pattern[ShandongHand, ShandongScoring], ...] = (
    pattern(hun_yi_se, lambda c: c.hun_yi_se),
    pattern(yi_tiao_long, lambda c: c.yi_tiao_long),
    pattern(gang_shang_kai_hua, lambda c: c.gang_shang_kai_hua),
    pattern(peng_peng_he, lambda c: c.peng_peng_he),
    pattern(qi_dui, lambda c: c.qi_dui),
    pattern(di_he, lambda c: c.di_he),
    pattern(qing_yi_se, lambda c: c.qing_yi_se),
    pattern(jiang_yi_se, lambda c: c.jiang_yi_se),
    pattern(tian_he, lambda c: c.tian_he),
)
FALLBACK: Pattern[ShandongHand, ShandongScoring] = pattern(tui_dao_he, lambda c: c.tui_dao_he)


@dataclass(frozen=True)
class HuaValues:
    """花 per source (``002``: 花的具体对应数)."""

    flower: int = 1
    wind_pong: int = 1
    dragon_pong: int = 1
    honour_exposed_kong: int = 2  # 明杠 and 补杠
    honour_concealed_kong: int = 3
    suit_exposed_kong: int = 1
    suit_concealed_kong: int = 2


def meld_hua(meld: Meld, values: HuaValues) -> int:
    """花 of one meld; a 吃 and a suited 碰 have none."""
    honour = 27 <= meld.tile < 34
    if meld.kind == "pong":
        if meld.tile in WINDS:
            return values.wind_pong
        return values.dragon_pong if meld.tile in DRAGONS else 0
    if meld.kind in ("kong", "added_kong"):
        return values.honour_exposed_kong if honour else values.suit_exposed_kong
    if meld.kind == "concealed_kong":
        return values.honour_concealed_kong if honour else values.suit_concealed_kong
    return 0


def hua(flowers: int, melds: tuple[Meld, ...], values: HuaValues) -> int:
    """花 of a seat: its flower tiles and its melds.

    Concealed triplets are no 碰 and carry no 花, so the triplet a winning tile completes
    (和牌后形成的刻牌不算花) never counts.
    """
    if flowers < 0:
        raise ValueError(f"a flower count is never negative, got {flowers}")
    return flowers * values.flower + sum(meld_hua(m, values) for m in melds)


def is_flower_free(tiles: tuple[Tile, ...]) -> bool:
    return not any(is_flower(t) for t in tiles)
