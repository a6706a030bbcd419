"""上海敲麻 (``seeds/003``).

144 tiles with flowers. No win without 听 first, no change of hand after it. 一炮多响;
抢杠 on 上杠. The winner deals; a drawn hand keeps the dealer.
"""

from services.rules.penalties import ShanghaiEscape
from services.rules.tiles import ALL_KINDS
from services.rules.variants.base import VariantConfig

SHANGHAI = VariantConfig(
    id="shanghai",
    name="上海敲麻",
    kinds=ALL_KINDS,
    flowers=True,
    wildcard="none",
    claim_classes=(("win",), ("kong", "pong"), ("chi",)),
    multiple_winners=True,
    ready_rule="required",
    dealer_rule="winner_deals_draw_keeps",
    kong_after_ready="own_turn_if_still_ready",
    robbable_added_kong=True,
    escape=ShanghaiEscape(),
)
