"""Settlement of 牡丹江 and 哈尔滨 wins (the 宝 variants), per decision 8.

A win is worth ``base_fan`` doubled by each pattern it holds: 自摸, 摸宝, 卡当 (stacking: 自摸 +
摸宝 + 卡当 is 卡当宝, 8 番) and 宝中宝 once more (16 番). 平胡 (a win on a discard) and 卡当宝
name a win but add no factor of their own. Every other seat pays the winner that 番 times the
stake, doubled when the dealer wins or pays. 出冲 — the discarder had not declared 听 — makes
the discarder pay three shares and the other two pay two (our reading of `000`'s
算放炮者3番，另外两家番数x2). Every number is a field of ``BaoScoring``.

The winner must have declared 听 (只有在听牌状态下才可和牌). A 宝 is wild only when the ready
winner draws it (decision 7); a discarded 宝 is an ordinary tile.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.kadang import is_bao_zhong_bao, is_kadang, kadang_waits, wins_on_drawn_bao
from services.rules.ready import as_counts
from services.rules.scoring.base import ScoringError, Settlement, WinContext
from services.rules.scoring.patterns import Pattern, pattern
from services.rules.shapes import is_complete
from services.rules.variants import VariantConfig
from services.rules.variants.versions import variant_in


@dataclass(frozen=True)
class BaoScoring:
    """The factors of a 宝-variant settlement; the defaults are decision 8.

    - ``base_fan``: what any win is worth before doubling (1 番).
    - ``self_drawn_factor``: 自摸 multiplies the 番 by this (×2).
    - ``bao_factor``: 摸宝, winning with a drawn 宝 as a wildcard (×2).
    - ``kadang_factor``: 卡当, the winning tile mid-run (×2); with 自摸 and 摸宝 this is 卡当宝.
    - ``bao_zhong_bao_factor``: 宝中宝, the 卡当 tile is the 宝 itself (×2 on top of 卡当宝).
    - ``dealer_factor``: a share is multiplied by this when the dealer wins or pays (×2).
    - ``chuchong_discarder_factor``: 出冲, the discarder (not 听) pays this many shares (3).
    - ``chuchong_others_factor``: on 出冲 the two other losers pay this many shares (2).
    - ``require_ready``: only a seat that declared 听 may win (True in both documents).
    """

    base_fan: int = 1
    self_drawn_factor: int = 2
    bao_factor: int = 2
    kadang_factor: int = 2
    bao_zhong_bao_factor: int = 2
    dealer_factor: int = 2
    chuchong_discarder_factor: int = 3
    chuchong_others_factor: int = 2
    require_ready: bool = True


BAO_SCORING = BaoScoring()


@dataclass(frozen=True)
class WinFacts:
    """What the patterns look at, worked out once from the context."""

    self_drawn: bool
    drew_bao: bool  # a ready winner drew the 宝, so it is wild
    kadang: bool  # on the tile itself, or on a reading of the wild 宝
    bao_is_kadang_wait: bool


def pinghu(win: WinFacts) -> bool:
    """平胡: the last tile came from another seat's discard."""
    return not win.self_drawn


def zimo(win: WinFacts) -> bool:
    """自摸: the winner drew the last tile."""
    return win.self_drawn


def mobao(win: WinFacts) -> bool:
    """摸宝: a seat that is 听 drew the 宝 and won with it as a wildcard."""
    return win.drew_bao


def kadang(win: WinFacts) -> bool:
    """卡当: the winning tile (or the 宝 read as it) sits in the middle of a run, per the variant."""
    return win.kadang


def kadang_bao(win: WinFacts) -> bool:
    """卡当宝: 摸宝 read as the 卡当 tile; the name of 自摸 + 摸宝 + 卡当, no factor of its own."""
    return win.drew_bao and win.kadang


def bao_zhong_bao(win: WinFacts) -> bool:
    """宝中宝: the 卡当 tile the seat waits on is the 宝 itself, and the seat drew it."""
    return win.drew_bao and win.bao_is_kadang_wait


# each pattern's worth is the factor it multiplies the 番 by
PATTERNS: tuple[Pattern[WinFacts, BaoScoring], ...] = (
    pattern(pinghu, lambda c: 1),
    pattern(zimo, lambda c: c.self_drawn_factor),
    pattern(mobao, lambda c: c.bao_factor),
    pattern(kadang, lambda c: c.kadang_factor),
    pattern(kadang_bao, lambda c: 1),
    pattern(bao_zhong_bao, lambda c: c.bao_zhong_bao_factor),
)


def score(ctx: WinContext, config: BaoScoring = BAO_SCORING) -> Settlement:
    """The settlement of one 牡丹江 or 哈尔滨 win; ScoringError when it is no legal win."""
    _check_seats(ctx, config)
    win = win_facts(ctx)
    held = [p for p in PATTERNS if p.times(win)]
    fan = config.base_fan
    for held_pattern in held:
        fan *= held_pattern.worth(config)
    payments = _payments(ctx, fan, config)
    details = {"fan": fan, "chuchong": int(_is_chuchong(ctx))}
    return Settlement(tuple(p.name for p in held), fan, payments, details)


def win_facts(ctx: WinContext) -> WinFacts:
    """Check the hand wins and read off its facts; the 宝 counts only as the ready winner's draw."""
    variant = _variant(ctx)
    counts = as_counts(ctx.concealed)
    size = sum(counts) + 3 * len(ctx.melds)
    if size != 13:
        raise ScoringError(
            f"the hand holds {size} tiles besides the winning tile (kongs count 3); a win needs 13"
        )
    drew_bao = ctx.self_drawn and ctx.bao is not None and ctx.win_tile == ctx.bao
    if ctx.win_tile_is_wild and not drew_bao:
        raise ScoringError("the winning tile is marked wild, but only a self-drawn 宝 is wild here")
    counts[ctx.win_tile] += 1
    natural = is_complete(counts)
    counts[ctx.win_tile] -= 1
    if not natural and not (drew_bao and wins_on_drawn_bao(variant, counts, ctx.melds)):
        raise ScoringError("the hand with the winning tile is not four sets and a pair")
    if drew_bao:
        kd = bool(kadang_waits(variant, counts, ctx.melds))
        bzb = is_bao_zhong_bao(variant, counts, ctx.win_tile, ctx.melds)
    else:
        kd = is_kadang(variant, counts, ctx.win_tile, ctx.melds)
        bzb = False
    return WinFacts(ctx.self_drawn, drew_bao, kd, bzb)


def _variant(ctx: WinContext) -> VariantConfig:
    """The winner's variant as the table's rules version has it (a version may change 卡当)."""
    return variant_in(ctx.rules_version, ctx.variant).config


def _check_seats(ctx: WinContext, config: BaoScoring) -> None:
    if not _variant(ctx).drawn_bao_is_wild:
        raise ScoringError(f"the 宝 scorer settles the variants with a 宝, not {ctx.variant!r}")
    for label, seat in (("seat", ctx.seat), ("dealer", ctx.dealer)):
        if not 0 <= seat <= 3:
            raise ScoringError(f"{label} {seat} is not a seat 0-3")
    if ctx.self_drawn and ctx.discarder is not None:
        raise ScoringError("a self-drawn win has no discarder")
    if not ctx.self_drawn:
        if ctx.discarder is None:
            raise ScoringError("a win on a discard needs the discarder's seat")
        if not 0 <= ctx.discarder <= 3 or ctx.discarder == ctx.seat:
            raise ScoringError(f"discarder {ctx.discarder} is not another seat 0-3")
    if config.require_ready and not ctx.ready[ctx.seat]:
        raise ScoringError("the winner had not declared 听; only a ready seat may win")


def _is_chuchong(ctx: WinContext) -> bool:
    """出冲: won on the discard of a seat that had not declared 听."""
    return ctx.discarder is not None and not ctx.ready[ctx.discarder]


def _payments(ctx: WinContext, fan: int, config: BaoScoring) -> tuple[int, int, int, int]:
    """Every loser pays the winner its share; the dealer doubles, 出冲 reweights."""
    payments = [0, 0, 0, 0]
    chuchong = _is_chuchong(ctx)
    for loser in range(4):
        if loser == ctx.seat:
            continue
        share = fan * ctx.base_stake
        if ctx.dealer in (ctx.seat, loser):
            share *= config.dealer_factor
        if chuchong:
            share *= (
                config.chuchong_discarder_factor
                if loser == ctx.discarder
                else config.chuchong_others_factor
            )
        payments[loser] -= share
        payments[ctx.seat] += share
    return payments[0], payments[1], payments[2], payments[3]
