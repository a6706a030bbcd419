"""牡丹江麻将 (``seeds/000``).

112 tiles (万饼条 and four 红中, decision 1). The 宝 is set aside face down after the deal and
seen only by seats that are 听; it is wild only when a ready seat draws it. 听 is required to
win; 吃听 claims by 吃 or 碰 from any seat. 卡当 counts on any winning reading. A random dealer
each hand, kept on 荒庄. The last four tiles (宝 excluded) are drawn for 自摸 only.
"""

from services.rules.tiles import RED_DRAGON, SUITED_KINDS
from services.rules.variants.base import VariantConfig

MUDANJIANG = VariantConfig(
    id="mudanjiang",
    name="牡丹江麻将",
    kinds=SUITED_KINDS + (RED_DRAGON,),
    flowers=False,
    wildcard="bao",
    claim_classes=(("win",), ("ready_chi", "ready_pong"), ("kong", "pong"), ("chi",)),
    multiple_winners=False,
    ready_rule="required",
    ready_claim_kinds=("chi", "pong"),
    kadang="any_reading",
    dealer_rule="random_keep_on_draw",
    last_draws_auto=4,
    kong_after_ready="never",
    concealed_kong_shown_when_open=True,
)
