"""塘沽麻将 (``seeds/004``).

136 tiles, no flowers. Seven 混 (wild for any suited tile) shown to all; a seat that discards a
混 becomes 相公 and cannot win. 乱将 by default. The last 34 tiles are never drawn. 七小对
counts. The dealer stays on a dealer win, else the next seat deals.
"""

from services.rules.tiles import ALL_KINDS
from services.rules.variants.base import VariantConfig

TANGGU = VariantConfig(
    id="tanggu",
    name="塘沽麻将",
    kinds=ALL_KINDS,
    flowers=False,
    wildcard="hun",
    claim_classes=(("win",), ("kong", "pong"), ("chi",)),
    multiple_winners=False,
    ready_rule="optional",
    seven_pairs=True,
    dealer_rule="dealer_win_keeps_else_next",
    dead_wall=34,
    dice_count=4,
    ready_modes=("plain", "dubao"),
    honour_kongs=True,
    silent_ready_modes=("plain",),
)
