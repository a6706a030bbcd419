"""山东麻将 (``seeds/002``).

144 tiles with eight flowers, 补花 from the tail. 听 is optional: 明楼 (hand shown, 自摸 only,
doubled) or 暗楼. 一炮多响. 七对 counts. The last 6 stacks (12 tiles) are never drawn.
"""

from services.rules.penalties import ShandongEscape
from services.rules.tiles import ALL_KINDS
from services.rules.variants.base import VariantConfig

SHANDONG = VariantConfig(
    id="shandong",
    name="山东麻将",
    kinds=ALL_KINDS,
    flowers=True,
    wildcard="none",
    claim_classes=(("win",), ("kong", "pong"), ("chi",)),
    multiple_winners=True,
    ready_rule="optional",
    seven_pairs=True,
    dealer_rule="winner_deals_draw_passes",
    dead_wall=12,
    kong_after_ready="own_turn_if_still_ready",
    robbable_added_kong=True,
    escape=ShandongEscape(),
    dice_count=4,
    ready_modes=("open", "hidden"),
    silent_ready_modes=("hidden",),
)
