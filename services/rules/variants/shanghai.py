"""上海敲麻 (``seeds/003``).

144 tiles with flowers. No win without 听 first, no change of hand after it. 一炮多响;
抢杠 on 上杠. The winner deals; a drawn hand keeps the dealer.
"""

from services.rules import shanghai_counters
from services.rules.penalties import ShanghaiEscape
from services.rules.scoring import shanghai
from services.rules.tiles import ALL_KINDS
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


VARIANT = Variant(
    config=SHANGHAI,
    scoring=Scoring(shanghai.DEFAULT, shanghai.score_with),
    wildcards=NoWildcards(),
    dealers=WinnerDealsDrawKeeps(),
    wall_break=side_and_stacks,
    counters=ShanghaiCounters(),
    escape=ShanghaiEscape(),
)
