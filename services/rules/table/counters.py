"""What a hand adds to the table's counters: 荒番, level scores, 局分."""

from __future__ import annotations

from services.rules import shanghai_counters
from services.rules.table.state import HandState
from services.rules.variants import VariantConfig

NO_CHANGE = (0, 0, 0, 0)


def huangfan_at_start(config: VariantConfig, count: int, dice: tuple[int, ...]) -> int:
    """上海: 骰子荒番 adds to the count, and makes this very hand a 荒番局."""
    if config.id != "shanghai" or len(dice) < 2:
        return count
    return count + shanghai_counters.dice_huangfan(dice[0], dice[1])


def huangfan_after(config: VariantConfig, count: int, won: bool) -> int:
    if config.id != "shanghai":
        return 0
    return shanghai_counters.count_after_hand(count, won)


def level_scores(
    config: VariantConfig, winners: list[int], escaped: list[int]
) -> tuple[int, int, int, int]:
    """等级分 on every variant (decisions 12, 17, as ``003``): +3 to each winner, −1 to each
    other seat, nothing on a drawn hand; 有人逃跑的情况下，逃跑的扣3分，其他人不得分."""
    if not config.level_score:
        return NO_CHANGE
    if escaped:
        values = [shanghai_counters.LEAVE_LEVEL if s in escaped else 0 for s in range(4)]
        return (values[0], values[1], values[2], values[3])
    return shanghai_counters.level_deltas(winners)


def hand_payments(config: VariantConfig, hand: HandState) -> tuple[int, int, int, int]:
    """塘沽: 局分 (kongs, an announced 独抱, each 上大台), paid at the end of every hand, won or
    drawn, to each seat by every other seat (decision 8)."""
    if config.id != "tanggu":
        return NO_CHANGE
    from services.rules.scoring import tanggu

    return tanggu.hand_scores(
        tuple(s.melds for s in hand.seats),
        du_bao=tuple(s.ready == "dubao" for s in hand.seats),
        shang_da_tai=tuple(len(s.set_aside) for s in hand.seats),
    )
