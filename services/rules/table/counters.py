"""What a hand adds to the table's counters: 荒番, level scores, 局分, each the variant's hook."""

from __future__ import annotations

from services.rules import levels
from services.rules.table.state import HandState
from services.rules.variants import Variant
from services.rules.variants.base import NO_CHANGE, Seats

__all__ = ["NO_CHANGE", "huangfan_after", "huangfan_at_start", "hand_payments", "level_scores"]


def huangfan_at_start(variant: Variant, count: int, dice: tuple[int, ...]) -> int:
    """上海: 骰子荒番 adds to the count, and makes this very hand a 荒番局."""
    return variant.counters.huangfan_at_start(count, dice)


def huangfan_after(variant: Variant, count: int, won: bool) -> int:
    return variant.counters.huangfan_after(count, won)


def level_scores(variant: Variant, winners: list[int], escaped: list[int]) -> Seats:
    """等级分 on every variant (decisions 12, 17, as ``003``): +3 to each winner, −1 to each
    other seat, nothing on a drawn hand; 有人逃跑的情况下，逃跑的扣3分，其他人不得分."""
    if not variant.config.level_score:
        return NO_CHANGE
    if escaped:
        values = [levels.LEAVE_LEVEL if s in escaped else 0 for s in range(4)]
        return (values[0], values[1], values[2], values[3])
    return levels.level_deltas(winners)


def hand_payments(variant: Variant, hand: HandState) -> Seats:
    """局分 (塘沽: kongs, an announced 独抱, each 上大台), what the hand itself pays at its end,
    won or drawn, apart from the wins (decision 8): the variant's hook."""
    return variant.hand_payments(hand)
