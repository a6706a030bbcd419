"""上海敲麻 (``seeds/003``).

144 tiles with flowers. No win without 听 first, no change of hand after it. 一炮多响;
抢杠 on 上杠. The winner deals; a drawn hand keeps the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.penalties import EscapeCause, Penalty, SeatConduct
from services.rules.scoring import shanghai
from services.rules.tiles import ALL_KINDS
from services.rules.variants import shanghai_counters
from services.rules.variants.base import Scoring, Variant, VariantConfig
from services.rules.variants.breaks import side_and_stacks
from services.rules.variants.dealers import WinnerDealsDrawKeeps
from services.rules.variants.wildcards import NoWildcards

SHANGHAI = VariantConfig(
    id="shanghai",
    name="上海敲麻",
    kinds=ALL_KINDS,
    flowers=True,
    wildcard="none",
    claim_classes=(("win",), ("kong", "pong"), ("chi",)),
    multiple_winners=True,
    ready_rule="required",
    kong_after_ready="own_turn_if_still_ready",
    robbable_added_kong=True,
)


class ShanghaiCounters:
    """荒番: dice 荒番 at the start, +1 per drawn hand, −1 per won hand (``003``)."""

    def huangfan_at_start(self, count: int, dice: tuple[int, ...]) -> int:
        """骰子荒番 adds to the count, and makes this very hand a 荒番局."""
        if len(dice) < 2:
            return count
        return count + shanghai_counters.dice_huangfan(dice[0], dice[1])

    def huangfan_after(self, count: int, won: bool) -> int:
        return shanghai_counters.count_after_hand(count, won)


@dataclass(frozen=True)
class ShanghaiEscape:
    """上海敲麻 逃跑处罚 (``003``): 断线超过3分钟 or 超时5次（即系统代打牌5次） cost 60 × 底注,
    主动逃跑 66 × 底注; each other seat gets 20 × 底注 as compensation."""

    timeouts: int = 5

    def due(self, conduct: SeatConduct) -> Penalty | None:
        if conduct.left:
            cause: EscapeCause = "left"
            rule, reason = "003 逃跑处罚③ 主动逃跑: 66×底注, 其他玩家各得20×底注", "quit"
        elif conduct.dropped_past_grace:
            cause = "dropped"
            rule, reason = (
                "003 逃跑处罚① 断线超过3分钟: 60×底注, 其他玩家各得20×底注",
                "disconnected",
            )
        elif conduct.system_moves >= self.timeouts:
            cause = "timeouts"
            rule, reason = "003 逃跑处罚② 超时5次: 60×底注, 其他玩家各得20×底注", "timeouts"
        else:
            return None
        amounts = shanghai.escape_penalties(
            conduct.seat,
            reason,  # type: ignore[arg-type]  # one of the three EscapeReason literals
            conduct.base_stake,
        )
        return Penalty(cause, rule, amounts)


VARIANT = Variant(
    config=SHANGHAI,
    scoring=Scoring(shanghai.DEFAULT, shanghai.score_with),
    wildcards=NoWildcards(),
    dealers=WinnerDealsDrawKeeps(),
    wall_break=side_and_stacks,
    counters=ShanghaiCounters(),
    escape=ShanghaiEscape(),
)
