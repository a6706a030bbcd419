"""上海敲麻 scoring (``seeds/003``, README decision 8): points ``花 × 2^番``.

- 花 = 1 底花 + flower tiles + the 花 of the winner's sets (``003``'s table): a wind 碰 1, a
  concealed wind triplet (风暗刻) 1, a dragon set (字牌) 1 once per set, 明杠/上杠 1, 暗杠 2, a wind
  明杠/上杠 2, a wind 暗杠 3. A dragon kong is a dragon set *and* a kong, so 2 exposed and 3
  concealed, as the winds' kongs are (option ``dragon_kong_adds_set``).
  A triplet completed by the winning discard is worth what a 碰 or an 暗刻 is; both are 1.
- 番: 荒番局, 大吊车 (four 吃/碰/杠, 暗杠 included), 杠开 (a win on the tile after a kong or a
  flower), 门清 (no 吃, 碰, 明杠 or 上杠; an 暗杠 keeps it): 1 each; a hand can hold several.
- Every other seat pays the points times ``base_stake``, on 冲牌 and 抢杠 as on 自摸 (``003``:
  其他人相应地扣分); ``discarder_pays_alone`` makes only the discarder (the robbed seat on 抢杠)
  pay. No win without 听: a winner not marked ``ready`` is refused (option ``require_ready``).
- Level score (+3 the winner, −1 each other seat) is in ``details`` as ``level_0``…``level_3``;
  with several winners on one discard use ``levels.level_deltas`` for the hand.
- Escape (逃跑处罚): the leaver loses 60 × 底注 (disconnected over 3 minutes, or 5 timeouts) or
  66 × 底注 (closing the game), each other seat gains 20 × 底注; the rest goes to nobody, so
  those payments do not sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from services.rules.levels import level_deltas
from services.rules.melds import Meld
from services.rules.scoring.base import ScoringError, Settlement, WinContext
from services.rules.scoring.patterns import Pattern, pattern
from services.rules.shapes import is_complete
from services.rules.tiles import DRAGONS, NUM_KINDS, WINDS, Tile, counts_of, is_flower

SEATS = 4
HAND_SIZE = 14
EscapeReason = Literal["disconnected", "timeouts", "quit"]


@dataclass(frozen=True)
class ShanghaiScoring:
    """Every factor of 上海敲麻 scoring."""

    bottom_hua: int = 1  # 底花
    flower: int = 1
    wind_pong: int = 1  # 风向碰
    wind_concealed_triplet: int = 1  # 风暗刻
    dragon_set: int = 1  # 字牌
    exposed_kong: int = 1  # 明杠 (上杠)
    concealed_kong: int = 2
    wind_exposed_kong: int = 2
    wind_concealed_kong: int = 3
    dragon_kong_adds_set: bool = True
    fan_base: int = 2  # points = 花 × fan_base ** 番
    huangfan: int = 1  # 荒番局
    da_diao_che: int = 1  # 大吊车
    da_diao_che_melds: int = 4
    gang_kai: int = 1  # 杠开
    men_qing: int = 1  # 门清
    discarder_pays_alone: bool = False
    require_ready: bool = True  # 不听不胡
    escape_disconnected: int = 60  # × 底注
    escape_timeouts: int = 60
    escape_quit: int = 66
    escape_compensation: int = 20


DEFAULT = ShanghaiScoring()


def score(ctx: WinContext) -> Settlement:
    return score_with(ctx, DEFAULT)


def score_with(ctx: WinContext, config: ShanghaiScoring) -> Settlement:
    """Settle one winner's win; several winners on one discard are settled one call each."""
    _check(ctx, config)
    names, fan = fan_patterns(ctx, config)
    total_hua = hua(ctx, config)
    points = total_hua * config.fan_base**fan
    payments = _payments(ctx, config, points * ctx.base_stake)
    details = {"hua": total_hua, "points": points}
    for seat, delta in enumerate(level_deltas(winners=[ctx.seat])):
        details[f"level_{seat}"] = delta
    return Settlement(names, fan, payments, details)


# 番 patterns: each answers whether a win holds it


@dataclass(frozen=True)
class ShanghaiWin:
    """What the 番 patterns look at: the win, and the scoring config's thresholds."""

    ctx: WinContext
    config: ShanghaiScoring = DEFAULT


def huang_fan_ju(w: ShanghaiWin) -> bool:
    """荒番局: the hand is played while the 荒番 count is above 0."""
    return w.ctx.huangfan_hand


def da_diao_che(w: ShanghaiWin) -> bool:
    """大吊车: four 吃, 碰 or 杠 (暗杠 included) laid down."""
    return len(w.ctx.melds) >= w.config.da_diao_che_melds


def gang_kai(w: ShanghaiWin) -> bool:
    """杠开: self-drawn on the replacement after a kong or a flower."""
    return w.ctx.after_kong and w.ctx.self_drawn


def men_qing(w: ShanghaiWin) -> bool:
    """门清: no 吃, 碰, 明杠 or 上杠; an 暗杠 keeps the hand closed."""
    return all(m.kind == "concealed_kong" for m in w.ctx.melds)


# each worth the 番 its field of ``ShanghaiScoring`` holds; the 番 of the patterns a win holds add up
PATTERNS: tuple[Pattern[ShanghaiWin, ShanghaiScoring], ...] = (
    pattern(huang_fan_ju, lambda c: c.huangfan),
    pattern(da_diao_che, lambda c: c.da_diao_che),
    pattern(gang_kai, lambda c: c.gang_kai),
    pattern(men_qing, lambda c: c.men_qing),
)


def fan_patterns(ctx: WinContext, config: ShanghaiScoring = DEFAULT) -> tuple[tuple[str, ...], int]:
    """The 番 patterns a win holds, and their sum."""
    win = ShanghaiWin(ctx, config)
    held = [p for p in PATTERNS if p.times(win)]
    return tuple(p.name for p in held), sum(p.worth(config) for p in held)


# 花


def meld_hua(meld: Meld, config: ShanghaiScoring = DEFAULT) -> int:
    """花 of one laid-down set; a 吃 and a suited 碰 have none."""
    wind, dragon = meld.tile in WINDS, meld.tile in DRAGONS
    if meld.kind == "pong":
        return config.wind_pong if wind else config.dragon_set if dragon else 0
    if meld.kind == "chi":
        return 0
    concealed = meld.kind == "concealed_kong"
    if wind:
        return config.wind_concealed_kong if concealed else config.wind_exposed_kong
    kong = config.concealed_kong if concealed else config.exposed_kong
    return kong + (config.dragon_set if dragon and config.dragon_kong_adds_set else 0)


def concealed_honour_hua(tiles: Sequence[Tile], config: ShanghaiScoring = DEFAULT) -> int:
    """花 of honour triplets in the hand: 风暗刻 and 字牌, once per set."""
    counts = counts_of(tiles, NUM_KINDS)
    winds = sum(1 for t in WINDS if counts[t] >= 3)
    dragons = sum(1 for t in DRAGONS if counts[t] >= 3)
    return winds * config.wind_concealed_triplet + dragons * config.dragon_set


def hua(ctx: WinContext, config: ShanghaiScoring = DEFAULT) -> int:
    """The winner's 花: 底花, flowers, laid-down sets and concealed honour triplets."""
    concealed = (*ctx.concealed, ctx.win_tile)
    return (
        config.bottom_hua
        + ctx.flowers[ctx.seat] * config.flower
        + sum(meld_hua(m, config) for m in ctx.melds)
        + concealed_honour_hua(concealed, config)
    )


def escape_penalties(
    leaver: int, reason: EscapeReason, base_stake: int = 1, config: ShanghaiScoring = DEFAULT
) -> tuple[int, int, int, int]:
    """逃跑处罚: the leaver's loss and each other seat's compensation, in points."""
    if not 0 <= leaver < SEATS:
        raise ValueError(f"seats are 0–3, got {leaver}")
    loss = {
        "disconnected": config.escape_disconnected,
        "timeouts": config.escape_timeouts,
        "quit": config.escape_quit,
    }[reason]
    values = [
        -loss * base_stake if s == leaver else config.escape_compensation * base_stake
        for s in range(SEATS)
    ]
    return (values[0], values[1], values[2], values[3])


def _payments(ctx: WinContext, config: ShanghaiScoring, amount: int) -> tuple[int, int, int, int]:
    owed = [0] * SEATS
    if config.discarder_pays_alone and ctx.discarder is not None:
        owed[ctx.discarder] = amount
    else:
        owed = [0 if s == ctx.seat else amount for s in range(SEATS)]
    owed[ctx.seat] = -sum(owed)
    return (-owed[0], -owed[1], -owed[2], -owed[3])


def _check(ctx: WinContext, config: ShanghaiScoring) -> None:
    if not 0 <= ctx.seat < SEATS:
        raise ScoringError(f"seats are 0–3, got winner {ctx.seat}")
    if not ctx.self_drawn and ctx.discarder is None:
        raise ScoringError("a win on a discard (冲牌) or a robbed kong (抢杠) needs the discarder")
    if ctx.discarder is not None and not 0 <= ctx.discarder < SEATS:
        raise ScoringError(f"seats are 0–3, got discarder {ctx.discarder}")
    if ctx.discarder == ctx.seat:
        raise ScoringError("the winner cannot have discarded the winning tile")
    if config.require_ready and not ctx.ready[ctx.seat]:
        raise ScoringError("上海敲麻: no win without 听 first (不听不胡)")
    concealed = (*ctx.concealed, ctx.win_tile)
    if any(is_flower(t) for t in concealed):
        raise ScoringError("flowers are replaced (补花) and never part of a winning hand")
    size = len(concealed) + 3 * len(ctx.melds)
    if size != HAND_SIZE:
        raise ScoringError(f"a winning hand holds 14 tiles (a kong counting 3), got {size}")
    if not is_complete(counts_of(concealed, NUM_KINDS)):
        raise ScoringError("the hand is no win: 上海敲麻 wins only as four sets and a pair")
