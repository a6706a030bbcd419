"""山东麻将 scoring (``seeds/002``, README decisions 8 and 11): ``(底 + 花) × 番``.

- 番 of the patterns add up (``002``: 各牌型番数可以叠加); 推倒和 (1) counts only when no other
  pattern does. The reading (sets and pair, or 七对) worth most 番 is taken.
- 花 is the winner's: flower tiles and melds (see ``shandong_patterns.hua``).
- 混一色 needs one suit *and* at least one honour; a hand of honours alone is neither 混一色
  nor 清一色 (``002`` has no 字一色).
- 将一色 (由2、5、8将牌组成): every tile of the hand, melds included, is a 2, 5 or 8 of a suit.
- 地和: a non-dealer win with ``first_draw`` set (the caller sets it during the first
  go-round while no seat has made a 吃, 碰 or 杠, an 暗杠 included), on a draw or a discard;
  so a win on one's own kong replacement is 杠上开花, never 地和 (decision 8). 天和: the dealer's self-drawn
  opening hand. 杠上开花 is self-drawn only (a replacement tile is never a discard).
- 七对 accepts four of a kind as two pairs (option ``quad_as_two_pairs``).
- Payment: 点炮 by the discarder alone, 自摸 by each other seat. One seat is liable for what
  all three would pay on a 自摸 (3 × the amount) in this order: 承包 (a seat fed three or more of
  the winner's 吃/碰/杠, ``from_seat``; takes precedence, 承包优先), 抢杠 (the robbed seat, given
  as ``discarder``), 杠爆 (``kong_fed_by`` on a self-drawn win after a kong).
- 明楼 (decision 11): a 明楼 winner's amount is doubled; a 明楼 seat wins only by 自摸
  (``ScoringError`` otherwise); a 明楼 seat pays double when it is the discarder (点炮, or the
  robbed seat of 抢杠), also when it is liable; a 自摸 by another seat costs it the normal amount.
- 荒庄: ×2 per consecutive 荒庄 before this hand (``drawn_streak``), at most ×32.
- Escape (逃跑): ``(底 + 花) × 10`` with the leaver's own 花.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from services.rules.hand import readings
from services.rules.melds import Meld
from services.rules.scoring.base import ScoringError, Settlement, WinContext
from services.rules.scoring.shandong_patterns import (
    FALLBACK,
    PATTERNS,
    HuaValues,
    ShandongHand,
    hua,
    is_flower_free,
)
from services.rules.shapes import is_seven_pairs
from services.rules.tiles import NUM_KINDS, counts_of

SEATS = 4
HAND_SIZE = 14
CHENGBAO_MELDS = 3  # 给吃/碰/杠了3口


@dataclass(frozen=True)
class ShandongScoring:
    """Every factor of 山东 scoring."""

    base: int = 5  # 底
    tui_dao_he: int = 1
    hun_yi_se: int = 2
    yi_tiao_long: int = 2
    gang_shang_kai_hua: int = 2
    peng_peng_he: int = 2
    qi_dui: int = 2
    di_he: int = 5
    qing_yi_se: int = 5
    jiang_yi_se: int = 5
    tian_he: int = 6
    hua: HuaValues = field(default_factory=HuaValues)
    open_win_multiplier: int = 2  # 明楼和牌，所赢的番数乘以2
    open_pay_multiplier: int = 2  # 明楼者点炮，也需要双倍付出
    open_self_drawn_only: bool = True  # 明楼 只能自摸和牌
    drawn_factor: int = 2  # per consecutive 荒庄
    drawn_factor_cap: int = 32  # 翻至32倍
    escape_multiplier: int = 10  # 逃跑扣除分数=（底+花）*10
    chengbao_melds: int = CHENGBAO_MELDS
    quad_as_two_pairs: bool = True


DEFAULT = ShandongScoring()


def score(ctx: WinContext) -> Settlement:
    return score_with(ctx, DEFAULT)


def score_with(ctx: WinContext, config: ShandongScoring) -> Settlement:
    """Settle one winner's win; several winners on one discard are settled one call each."""
    _check(ctx, config)
    names, fan = best_patterns(ctx, config)
    flowers_hua = hua(ctx.flowers[ctx.seat], ctx.melds, config.hua)
    open_factor = config.open_win_multiplier if ctx.open_declared[ctx.seat] else 1
    drawn = drawn_factor(ctx.drawn_streak, config)
    amount = (config.base + flowers_hua) * fan * open_factor * drawn
    liable = liable_seat(ctx, config)
    payments = _payments(ctx, config, amount, liable)
    details = {
        "base": config.base,
        "hua": flowers_hua,
        "open_factor": open_factor,
        "drawn_factor": drawn,
        "amount": amount,
    }
    if liable is not None:
        details["liable_seat"] = liable
    return Settlement(names, fan, payments, details)


def best_patterns(ctx: WinContext, config: ShandongScoring) -> tuple[tuple[str, ...], int]:
    """The patterns and summed 番 of the reading worth most; 推倒和 when nothing else holds."""
    best: tuple[tuple[str, ...], int] = ((), -1)
    for hand in _hands(ctx, config):
        held = [p for p in PATTERNS if p.times(hand)] or [FALLBACK]
        names = tuple(p.name for p in held)
        fan = sum(p.worth(config) for p in held)
        if fan > best[1]:
            best = (names, fan)
    return best


def drawn_factor(drawn_streak: int, config: ShandongScoring = DEFAULT) -> int:
    """荒庄 factor: ×2 per consecutive 荒庄 before this hand, capped at ×32."""
    if drawn_streak < 0:
        raise ScoringError(f"a 荒庄 streak is never negative, got {drawn_streak}")
    # the cap bounds the exponent too, so a long streak never builds a huge int
    factor = 1
    for _ in range(drawn_streak):
        factor = min(factor * config.drawn_factor, config.drawn_factor_cap)
        if factor == config.drawn_factor_cap:
            break
    return factor


def chengbao_seat(ctx: WinContext, config: ShandongScoring = DEFAULT) -> int | None:
    """承包: the seat that fed three or more of the winner's melds, if any."""
    fed = Counter(
        m.from_seat for m in ctx.melds if m.from_seat is not None and m.from_seat != ctx.seat
    )
    for seat, count in fed.items():
        if count >= config.chengbao_melds:
            return seat
    return None


def liable_seat(ctx: WinContext, config: ShandongScoring = DEFAULT) -> int | None:
    """The one seat that pays for all: 承包 first, then 抢杠, then 杠爆."""
    contractor = chengbao_seat(ctx, config)
    if contractor is not None:
        return contractor
    if ctx.robbed_kong:
        return ctx.discarder
    if ctx.kong_fed_by is not None and ctx.after_kong and ctx.self_drawn:
        return ctx.kong_fed_by
    return None


def escape_penalty(
    flowers: int, melds: tuple[Meld, ...] = (), config: ShandongScoring = DEFAULT
) -> int:
    """逃跑扣除分数 = (底 + 花) × 10, with the leaving seat's own 花."""
    return (config.base + hua(flowers, melds, config.hua)) * config.escape_multiplier


def _payments(
    ctx: WinContext, config: ShandongScoring, amount: int, liable: int | None
) -> tuple[int, int, int, int]:
    owed = [0] * SEATS
    if liable is not None:
        owed[liable] = amount * (SEATS - 1)
    elif ctx.self_drawn:
        for seat in range(SEATS):
            if seat != ctx.seat:
                owed[seat] = amount
    else:
        assert ctx.discarder is not None  # checked in _check
        owed[ctx.discarder] = amount
    for seat in range(SEATS):
        if seat == ctx.discarder and ctx.open_declared[seat] and not ctx.self_drawn:
            owed[seat] *= config.open_pay_multiplier
    owed[ctx.seat] = -sum(owed)
    return (-owed[0], -owed[1], -owed[2], -owed[3])


def _hands(ctx: WinContext, config: ShandongScoring) -> list[ShandongHand]:
    concealed = (*ctx.concealed, ctx.win_tile)
    tiles = concealed + tuple(t for m in ctx.melds for t in m.tiles)
    counts = counts_of(concealed, NUM_KINDS)
    hands = [ShandongHand(ctx, tiles, r) for r in readings(counts)]
    if not ctx.melds and is_seven_pairs(counts, 0, config.quad_as_two_pairs):
        hands.append(ShandongHand(ctx, tiles, None))
    if not hands:
        raise ScoringError("the hand is no win: neither four sets and a pair nor 七对")
    return hands


def _check(ctx: WinContext, config: ShandongScoring) -> None:
    if not 0 <= ctx.seat < SEATS:
        raise ScoringError(f"seats are 0–3, got winner {ctx.seat}")
    if not ctx.self_drawn and ctx.discarder is None:
        raise ScoringError("a win on a discard (or a robbed kong) needs the discarder")
    if ctx.discarder is not None and not 0 <= ctx.discarder < SEATS:
        raise ScoringError(f"seats are 0–3, got discarder {ctx.discarder}")
    if ctx.discarder == ctx.seat:
        raise ScoringError("the winner cannot have discarded the winning tile")
    if ctx.open_declared[ctx.seat] and config.open_self_drawn_only and not ctx.self_drawn:
        raise ScoringError("a 明楼 seat wins only by 自摸")
    if not is_flower_free((*ctx.concealed, ctx.win_tile)):
        raise ScoringError("flowers are replaced (补花) and never part of a winning hand")
    size = len(ctx.concealed) + 1 + 3 * len(ctx.melds)
    if size != HAND_SIZE:
        raise ScoringError(f"a winning hand holds 14 tiles (a kong counting 3), got {size}")
