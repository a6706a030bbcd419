"""塘沽麻将 scoring (``seeds/004``, README decisions 8–10): an additive table.

- A win is worth 2 (平和) plus every addition that applies (``tanggu_patterns``): 素和 +2,
  自摸 +2, 混钓 +2, 上大台 +5 per declaration (at most 2; successful or not, 不成功否均每次+5),
  龙 +4, 捉五 +2, 对对和 +4, 七小对 +4, 缺门 +2 per missing suit, 门清 +2. The whole is doubled
  when won on a kong replacement (``after_kong``: 先开杠然后用系统发的牌又形成和牌时分数翻番).
- The reading (which tile each 混 stands for; sets or 七小对) best for the winner is taken.
- 自摸: each other seat pays the value; 放炮 (and a robbed kong, which 004 does not name): the
  discarder alone. 独抱 (declared, won on a 坎张 or 单钓) costs each other seat 2 more, however the
  win came; it is not doubled by a kong replacement.
- A 相公 seat cannot win (``ScoringError``), nor can anyone win on a discarded 混.
- 乱将 by default; ``pair_258_only`` allows only a 2, 5 or 8 as the pair (七小对 has no 将).
- Kong 局分 (明杠 2, 暗杠 4; 风头杠: 中发白 as a 明杠, 东南西北 as an 暗杠) are paid to each
  konger by each other seat at the end of a won hand: ``kong_scores``, apart from ``score``
  since they belong to the hand, not to the win. A 风头杠 laid down as a meld (中发白 a ``kong``
  of three tiles, 东南西北 a ``concealed_kong``) is counted by its kind; ``special_kongs`` is
  for callers that keep them apart from the melds.
- The hand size: the concealed tiles and the winning tile form 3n+2 and n + melds = 4 (a
  风头杠 meld is one of the four sets); callers keeping 风头杠 apart may pass fewer melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from services.rules.hand import Reading, readings
from services.rules.melds import Meld
from services.rules.scoring.base import ScoringError, Settlement, WinContext
from services.rules.scoring.tanggu_patterns import (
    ADDITIONS,
    WU_WAN,
    TangguHand,
    du_bao,
    missing_suits,
    pair_is_258,
)
from services.rules.shapes import is_seven_pairs
from services.rules.tiles import NUM_KINDS, Tile, counts_of

SEATS = 4
SETS = 4
FengtouKong = Literal["dragons", "winds"]  # 风头杠: 中发白 / 东南西北


@dataclass(frozen=True)
class TangguScoring:
    """Every value of 塘沽 scoring."""

    ping_he: int = 2  # 平和
    su_he: int = 2
    zi_mo: int = 2
    hun_diao: int = 2
    shang_da_tai: int = 5  # each
    max_shang_da_tai: int = 2
    long: int = 4
    zhuo_wu: int = 2
    dui_dui_he: int = 4
    qi_xiao_dui: int = 4
    que_men: int = 2  # per missing suit
    men_qing: int = 2
    du_bao: int = 2  # from each other seat
    after_kong_multiplier: int = 2
    exposed_kong: int = 2  # 局分
    concealed_kong: int = 4
    pair_258_only: bool = False  # 二五八将
    zhuo_wu_tile: Tile = WU_WAN
    quad_as_two_pairs: bool = True


DEFAULT = TangguScoring()


@dataclass(frozen=True)
class _Valued:
    names: tuple[str, ...]
    value: int
    du_bao: bool


def score(ctx: WinContext) -> Settlement:
    return score_with(ctx, DEFAULT)


def score_with(ctx: WinContext, config: TangguScoring) -> Settlement:
    """Settle one win; kong 局分 are settled apart by ``kong_scores``."""
    _check(ctx, config)
    best = max(
        (_value(h, config) for h in _hands(ctx, config)), key=lambda v: _gain(ctx, config, v)
    )
    payments = _payments(ctx, config, best)
    details = {
        "value": best.value,
        "doubled": int(ctx.after_kong),
        "du_bao": config.du_bao if best.du_bao else 0,
    }
    names = best.names + (("独抱",) if best.du_bao else ())
    return Settlement(names, best.value, payments, details)


def kong_scores(
    melds_by_seat: Sequence[Sequence[Meld]],
    special_kongs: Sequence[tuple[int, FengtouKong]] = (),
    config: TangguScoring = DEFAULT,
) -> tuple[int, int, int, int]:
    """Kong 局分 of a won hand: each konger collects its kongs' points from each other seat."""
    owed = [0] * SEATS  # what each seat collects from each other seat
    for seat, melds in enumerate(melds_by_seat):
        for m in melds:
            if m.kind in ("kong", "added_kong"):
                owed[seat] += config.exposed_kong
            elif m.kind == "concealed_kong":
                owed[seat] += config.concealed_kong
    for seat, kind in special_kongs:
        owed[seat] += config.exposed_kong if kind == "dragons" else config.concealed_kong
    total = sum(owed)
    # a seat gains its kongs from three seats and pays everyone else's kongs
    values = [owed[s] * (SEATS - 1) - (total - owed[s]) for s in range(SEATS)]
    return (values[0], values[1], values[2], values[3])


def _value(h: TangguHand, config: TangguScoring) -> _Valued:
    names = ["平和"]
    value = config.ping_he
    for name, holds, field_name in ADDITIONS:
        if holds(h):
            names.append(name)
            value += _points(config, field_name)
    names.extend(["上大台"] * h.ctx.shang_da_tai)
    value += config.shang_da_tai * h.ctx.shang_da_tai
    missing = missing_suits(h)
    names.extend(["缺门"] * missing)
    value += config.que_men * missing
    if h.ctx.after_kong:
        value *= config.after_kong_multiplier
    return _Valued(tuple(names), value, du_bao(h))


def _gain(ctx: WinContext, config: TangguScoring, v: _Valued) -> int:
    payers = SEATS - 1 if ctx.self_drawn else 1
    return v.value * payers + (config.du_bao * (SEATS - 1) if v.du_bao else 0)


def _payments(ctx: WinContext, config: TangguScoring, best: _Valued) -> tuple[int, int, int, int]:
    owed = [0] * SEATS
    for seat in range(SEATS):
        if seat == ctx.seat:
            continue
        if ctx.self_drawn or seat == ctx.discarder:
            owed[seat] += best.value
        if best.du_bao:
            owed[seat] += config.du_bao
    owed[ctx.seat] = -sum(owed)
    return (-owed[0], -owed[1], -owed[2], -owed[3])


def _hands(ctx: WinContext, config: TangguScoring) -> list[TangguHand]:
    """Every reading of the win: sets and a pair, and 七小对 when the hand is one."""
    win_wild = ctx.win_tile in ctx.wildcards or ctx.win_tile_is_wild
    tiles = (*ctx.concealed, ctx.win_tile)
    natural = tuple(t for i, t in enumerate(tiles) if not _is_wild(ctx, t, i == len(tiles) - 1))
    wild = len(tiles) - len(natural)
    counts = counts_of(natural, NUM_KINDS)

    def hand(reading: Reading | None) -> TangguHand:
        return TangguHand(ctx, reading, natural, wild, win_wild, config.zhuo_wu_tile)

    hands = [hand(r) for r in readings(counts, wild)]
    if config.pair_258_only:
        hands = [h for h in hands if pair_is_258(h)]
    if not ctx.melds and is_seven_pairs(counts, wild, config.quad_as_two_pairs):
        hands.append(hand(None))
    if not hands:
        raise ScoringError("the hand is no win: neither four sets and a pair nor 七小对")
    return hands


def _is_wild(ctx: WinContext, t: Tile, is_win_tile: bool) -> bool:
    return t in ctx.wildcards or (is_win_tile and ctx.win_tile_is_wild)


def _points(config: TangguScoring, field_name: str) -> int:
    value = getattr(config, field_name)
    assert isinstance(value, int)
    return value


def _check(ctx: WinContext, config: TangguScoring) -> None:
    if not 0 <= ctx.seat < SEATS:
        raise ScoringError(f"seats are 0–3, got winner {ctx.seat}")
    if ctx.xianggong[ctx.seat]:
        raise ScoringError("a 相公 seat (it discarded a 混) cannot win this hand")
    if not ctx.self_drawn and ctx.discarder is None:
        raise ScoringError("a win on a discard (放炮) needs the discarder")
    if ctx.discarder == ctx.seat:
        raise ScoringError("the winner cannot have discarded the winning tile")
    if not ctx.self_drawn and (ctx.win_tile in ctx.wildcards or ctx.win_tile_is_wild):
        raise ScoringError("a discarded 混 can be claimed by nobody")
    if not 0 <= ctx.shang_da_tai <= config.max_shang_da_tai:
        raise ScoringError(
            f"上大台 is declared at most {config.max_shang_da_tai} times, got {ctx.shang_da_tai}"
        )
    size = len(ctx.concealed) + 1
    if size % 3 != 2 or (size - 2) // 3 + len(ctx.melds) > SETS:
        raise ScoringError(
            f"{size} concealed tiles with {len(ctx.melds)} melds are no winning hand's size"
        )
