"""塘沽麻将 additions (``seeds/004``), each a small named unit over one reading of a win.

A ``TangguHand`` is one way of reading the winner's hand: which 混 stand for which tiles (a
``hand.Reading``: sets and a pair, a group of only 混 having ``tiles == ()``), or 七小对
(``reading`` None). The scorer evaluates every reading and keeps the best for the winner.

- 坎张: in the reading the winning tile (not a 混) is the middle of a run of two natural tiles
  around it. 单钓: the winning tile (not a 混) is in the pair, with a natural copy or a 混.
- 混钓: the pair is a 混 and the winning tile, i.e. the hand waited on a lone 混 (a drawn 混
  pairing a held 混 counts too).
- 独抱 is announced (报听) and checked by the table then; it is paid whether or not the seat wins,
  so it is no part of a win's value (``tanggu.hand_scores``).
- 捉五: 坎张 or 单钓 (natural pair) on a natural 五万; 004 names 五万 only (option
  ``zhuo_wu_tile``); a drawn 混 read as 五万 is no 捉五.
- 龙: 123, 456 and 789 of one suit as runs (吃 included); a group of three 混 can fill a missing
  run, and 混 inside a run fill its gaps.
- 缺门: every missing suit of m/p/s; natural tiles and melds show their suit, a 混 shows the
  suit of the tile it stands for, and a group of only 混 stands for a suit already shown (the
  best for the winner) or, when none is, for one suit.
- 素和: no 混 anywhere in the hand, melds included.
- 门清: no tile claimed from another seat (no 吃, 碰, 明杠 or 补杠); an 暗杠 keeps it, and so does
  a 风头杠, which the table lays down as a meld without a claimed tile (中发白 as a ``kong`` of
  three tiles, 东南西北 as a ``concealed_kong``): it is declared from the seat's own hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from services.rules.hand import Group, Reading
from services.rules.melds import Meld
from services.rules.scoring.base import WinContext
from services.rules.scoring.patterns import Pattern, pattern
from services.rules.tiles import Tile

if TYPE_CHECKING:
    from services.rules.scoring.tanggu import TangguScoring

SUITS = (0, 1, 2)  # m p s, as tile // 9
JIANG_RANKS = frozenset({1, 4, 7})  # 0-based ranks of 2, 5 and 8
WU_WAN: Tile = 4  # 5m


@dataclass(frozen=True)
class TangguHand:
    """One reading of a win. ``natural`` holds the concealed and winning tiles that are no 混."""

    ctx: WinContext
    reading: Reading | None
    natural: tuple[Tile, ...]
    wild: int  # 混 among the concealed tiles and the winning tile
    win_wild: bool  # the winning tile is a 混
    zhuo_wu_tile: Tile = WU_WAN

    @property
    def meld_tiles(self) -> tuple[Tile, ...]:
        return tuple(t for m in self.ctx.melds for t in m.tiles)

    def groups(self, kind: str) -> list[Group]:
        return [g for g in self.reading or () if g.kind == kind]

    @property
    def pair(self) -> Group | None:
        pairs = self.groups("pair")
        return pairs[0] if pairs else None


def ping_he(h: TangguHand) -> bool:
    """平和: every win; the additions are added to it."""
    return True


def su_he(h: TangguHand) -> bool:
    """素和: the hand holds no 混."""
    return h.wild == 0 and not any(t in h.ctx.wildcards for t in h.meld_tiles)


def zi_mo(h: TangguHand) -> bool:
    """自摸: the winner drew the winning tile."""
    return h.ctx.self_drawn


def hun_diao(h: TangguHand) -> bool:
    """混钓: the pair is a 混 and the winning tile (单钓 with a 混 as the 将)."""
    pair = h.pair
    if pair is None:
        return False
    if h.win_wild:
        return pair.wild == 2
    return pair.wild == 1 and pair.tiles[0] == h.ctx.win_tile


def kan_zhang(h: TangguHand) -> bool:
    """坎张: the winning tile sits between two natural tiles of a run."""
    if h.win_wild:
        return False
    return any(g.wild == 0 and g.tiles[1] == h.ctx.win_tile for g in h.groups("run"))


def dan_diao(h: TangguHand) -> bool:
    """单钓: the winning tile completes the pair (with a natural copy or a 混)."""
    pair = h.pair
    return not h.win_wild and pair is not None and pair.wild < 2 and pair.tiles[0] == h.ctx.win_tile


def zhuo_wu(h: TangguHand) -> bool:
    """捉五: a 坎张 or a 单钓 (natural pair) on 五万."""
    if h.win_wild or h.ctx.win_tile != h.zhuo_wu_tile:
        return False
    pair = h.pair
    natural_pair = pair is not None and pair.wild == 0 and pair.tiles[0] == h.zhuo_wu_tile
    return kan_zhang(h) or natural_pair


def long(h: TangguHand) -> bool:
    """龙: 1 to 9 of one suit as three runs, 混 filling any gaps."""
    if h.reading is None:
        return False
    starts = [g.tiles[0] for g in h.groups("run")] + [
        m.tile for m in h.ctx.melds if m.kind == "chi"
    ]
    free = sum(1 for g in h.reading if g.kind != "pair" and not g.tiles)
    for suit in SUITS:
        missing = sum(1 for base in (0, 3, 6) if suit * 9 + base not in starts)
        if missing <= free:
            return True
    return False


def dui_dui_he(h: TangguHand) -> bool:
    """对对和: every set a triplet or a kong."""
    return (
        h.reading is not None and not h.groups("run") and all(m.kind != "chi" for m in h.ctx.melds)
    )


def qi_xiao_dui(h: TangguHand) -> bool:
    """七小对: seven pairs, a 混 pairing any suited tile."""
    return h.reading is None


def men_qing(h: TangguHand) -> bool:
    """门清: no tile claimed from another seat; 暗杠 and 风头杠 keep the hand closed."""
    # judged by the meld's kind, which every caller gives, not by ``claimed``, which one may omit
    return all(m.kind == "concealed_kong" or _is_dragon_fengtou(m) for m in h.ctx.melds)


def _is_dragon_fengtou(m: Meld) -> bool:
    """中发白 风头杠: laid down as a ``kong`` of three different tiles, claimed from nobody."""
    return m.kind == "kong" and len(set(m.tiles)) == 3


def missing_suits(h: TangguHand) -> int:
    """缺门: how many of m, p, s the hand lacks, each 混 counted as the tile it stands for."""
    # a group holding a 混 and a natural tile reads as that tile's suit, so natural tiles suffice
    shown = {t // 9 for t in h.natural + h.meld_tiles if t < 27}
    if not shown and _has_free_wild(h):
        return len(SUITS) - 1
    return len(SUITS) - len(shown)


def _has_free_wild(h: TangguHand) -> bool:
    """Some 混 stands for a tile no natural tile fixes: a group of only 混, or a lone 混 pair."""
    if h.reading is None:
        return h.wild > 0
    return any(not g.tiles for g in h.reading)


def pair_is_258(h: TangguHand) -> bool:
    """二五八将: the pair is a 2, 5 or 8 of a suit (a pair of 混 can be); 七小对 has no 将."""
    pair = h.pair
    if h.reading is None or pair is None or not pair.tiles:
        return True
    t = pair.tiles[0]
    return t < 27 and t % 9 in JIANG_RANKS


# each worth the points its field of ``TangguScoring`` holds, each time it holds; they add up
PATTERNS: tuple[Pattern[TangguHand, TangguScoring], ...] = (
    pattern(ping_he, lambda c: c.ping_he),
    pattern(su_he, lambda c: c.su_he),
    pattern(zi_mo, lambda c: c.zi_mo),
    pattern(hun_diao, lambda c: c.hun_diao),
    pattern(long, lambda c: c.long),
    pattern(zhuo_wu, lambda c: c.zhuo_wu),
    pattern(dui_dui_he, lambda c: c.dui_dui_he),
    pattern(qi_xiao_dui, lambda c: c.qi_xiao_dui),
    pattern(men_qing, lambda c: c.men_qing),
    pattern(missing_suits, lambda c: c.que_men),
)
