"""牡丹江麻将 (``seeds/000``).

112 tiles (万饼条 and four 红中, decision 1). The 宝 is set aside face down after the deal and
seen only by seats that are 听; it is wild only when a ready seat draws it. 听 is required to
win; 吃听 claims by 吃 or 碰 from any seat. 卡当 counts on any winning reading. A random dealer
each hand, kept on 荒庄. The dealer always takes first from the wall in front of the opposite seat,
the one throw counting only the stacks along it (庄家根据摇出筛子的点数从对家的牌蹲中先拿牌,
decision 15). The last four tiles (宝 excluded) are drawn for 自摸 only.
"""

from services.rules.ready import ReadyRules
from services.rules.scoring import bao
from services.rules.tiles import RED_DRAGON, SUITED_KINDS
from services.rules.variants.base import Scoring, Variant, VariantConfig
from services.rules.variants.breaks import opposite_wall
from services.rules.variants.dealers import RandomDealerKeptOnDraw
from services.rules.variants.wildcards import Bao

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
    # 一对红中可以代替刻牌: two 红中 stand in for the 刻
    ready_conditions=ReadyRules(red_dragons_as_triplet=2, pairs_as_triplet=False),
    kadang="any_reading",
    last_draws_auto=4,
    kong_after_ready="never",
    concealed_kong_shown_when_open=True,
)

VARIANT = Variant(
    config=MUDANJIANG,
    scoring=Scoring(bao.BAO_SCORING, bao.score),
    wildcards=Bao(),
    dealers=RandomDealerKeptOnDraw(),
    wall_break=opposite_wall,
)
