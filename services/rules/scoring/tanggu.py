"""塘沽麻将 scoring (``seeds/004``, README decisions 8–10): an additive table.

- A win is worth 2 (平和) plus every addition that applies (``tanggu_patterns``): 素和 +2,
  自摸 +2, 混钓 +2, 龙 +4, 捉五 +2, 对对和 +4, 七小对 +4, 缺门 +2 per missing suit, 门清 +2. The
  whole is doubled when won on a kong replacement (``after_kong``: 先开杠然后用系统发的牌又形成和牌时
  分数翻番).
- The reading (which tile each 混 stands for; sets or 七小对) best for the winner is taken.
- 自摸: each other seat pays the value; 放炮 (and a robbed kong, which 004 does not name): the
  discarder alone.
- A 相公 seat cannot win (``ScoringError``), nor can anyone win on a discarded 混.
- 乱将 by default; ``pair_258_only`` allows only a 2, 5 or 8 as the pair (七小对 has no 将).
- 局分 (``hand_scores``), paid at the end of every hand, won or drawn (每个人都要计分; decision 8),
  to a seat by each other seat: its kongs (明杠 2, 暗杠 4; 风头杠: 中发白 as a 明杠, 东南西北 as an
  暗杠), 2 for an announced 独抱 (不论"和"牌，其他玩家均-2) and 5 for each 上大台 declared (不成功否
  均每次+5, at most 2). Being paid whether or not the seat wins, 独抱 and 上大台 are no part of a
  win's value, so a winner is paid them once. A 风头杠 laid down as a meld (中发白 a ``kong`` of
  three tiles, 东南西北 a ``concealed_kong``) is counted by its kind; ``special_kongs`` is for
  callers that keep them apart from the melds.
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
    PATTERNS,
    WU_WAN,
    TangguHand,
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


def score(ctx: WinContext) -> Settlement:
    return score_with(ctx, DEFAULT)


def score_with(ctx: WinContext, config: TangguScoring) -> Settlement:
    """Settle one win; the hand's 局分 (kongs, 独抱, 上大台) are settled apart by ``hand_scores``."""
    _check(ctx)
    best = max((_value(h, config) for h in _hands(ctx, config)), key=lambda v: v.value)
    payments = _payments(ctx, best)
    details = {"value": best.value, "doubled": int(ctx.after_kong)}
    return Settlement(best.names, best.value, payments, details)


def hand_scores(
    melds_by_seat: Sequence[Sequence[Meld]],
    du_bao: Sequence[bool] = (False,) * SEATS,
    shang_da_tai: Sequence[int] = (0,) * SEATS,
    special_kongs: Sequence[tuple[int, FengtouKong]] = (),
    config: TangguScoring = DEFAULT,
) -> tuple[int, int, int, int]:
    """局分 of a hand, won or drawn: what each seat collects from each other seat for its kongs,
    its announced 独抱 and each 上大台 it declared, less what it pays the others for theirs."""
    owed = _kong_points(melds_by_seat, special_kongs, config)
    for seat in range(SEATS):
        if not 0 <= shang_da_tai[seat] <= config.max_shang_da_tai:
            raise ScoringError(
                f"上大台 is declared at most {config.max_shang_da_tai} times, "
                f"got {shang_da_tai[seat]} for seat {seat}"
            )
        owed[seat] += config.du_bao * du_bao[seat] + config.shang_da_tai * shang_da_tai[seat]
    return _from_each_other_seat(owed)


def kong_scores(
    melds_by_seat: Sequence[Sequence[Meld]],
    special_kongs: Sequence[tuple[int, FengtouKong]] = (),
    config: TangguScoring = DEFAULT,
) -> tuple[int, int, int, int]:
    """Kong 局分 alone: each konger collects its kongs' points from each other seat."""
    return _from_each_other_seat(_kong_points(melds_by_seat, special_kongs, config))


def _kong_points(
    melds_by_seat: Sequence[Sequence[Meld]],
    special_kongs: Sequence[tuple[int, FengtouKong]],
    config: TangguScoring,
) -> list[int]:
    """What each seat collects from each other seat for its kongs."""
    owed = [0] * SEATS
    for seat, melds in enumerate(melds_by_seat):
        for m in melds:
            if m.kind in ("kong", "added_kong"):
                owed[seat] += config.exposed_kong
            elif m.kind == "concealed_kong":
                owed[seat] += config.concealed_kong
    for seat, kind in special_kongs:
        owed[seat] += config.exposed_kong if kind == "dragons" else config.concealed_kong
    return owed


def _from_each_other_seat(owed: Sequence[int]) -> tuple[int, int, int, int]:
    """A seat gains what it is owed from three seats and pays everyone else's dues."""
    total = sum(owed)
    values = [owed[s] * (SEATS - 1) - (total - owed[s]) for s in range(SEATS)]
    return (values[0], values[1], values[2], values[3])


def _value(h: TangguHand, config: TangguScoring) -> _Valued:
    names: list[str] = []
    value = 0
    for held in PATTERNS:
        times = held.times(h)
        names.extend([held.name] * times)
        value += held.worth(config) * times
    if h.ctx.after_kong:
        value *= config.after_kong_multiplier
    return _Valued(tuple(names), value)


def _payments(ctx: WinContext, best: _Valued) -> tuple[int, int, int, int]:
    owed = [0] * SEATS
    for seat in range(SEATS):
        if seat != ctx.seat and (ctx.self_drawn or seat == ctx.discarder):
            owed[seat] = best.value
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


def _check(ctx: WinContext) -> None:
    if not 0 <= ctx.seat < SEATS:
        raise ScoringError(f"seats are 0–3, got winner {ctx.seat}")
    if ctx.xianggong[ctx.seat]:
        raise ScoringError("a 相公 seat (it discarded a 混) cannot win this hand")
    if not ctx.self_drawn and ctx.discarder is None:
        raise ScoringError("a win on a discard (放炮) needs the discarder")
    if ctx.discarder is not None and not 0 <= ctx.discarder < SEATS:
        raise ScoringError(f"seats are 0–3, got discarder {ctx.discarder}")
    if ctx.discarder == ctx.seat:
        raise ScoringError("the winner cannot have discarded the winning tile")
    if not ctx.self_drawn and (ctx.win_tile in ctx.wildcards or ctx.win_tile_is_wild):
        raise ScoringError("a discarded 混 can be claimed by nobody")
    size = len(ctx.concealed) + 1
    if size % 3 != 2 or (size - 2) // 3 + len(ctx.melds) > SETS:
        raise ScoringError(
            f"{size} concealed tiles with {len(ctx.melds)} melds are no winning hand's size"
        )
