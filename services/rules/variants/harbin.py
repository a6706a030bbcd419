"""哈尔滨麻将 (``seeds/001``).

112 tiles. Like 牡丹江 but: priority 胡 > 杠 > 吃听 > 碰 > 吃; 吃听 by 吃 only; 卡当 only on a
single wait; three 红中 stand in for the 刻 and two pairs allow 对倒; a kong after 听 when the hand
could still declare 听 after it; no 吃碰杠 once only 4 concealed tiles remain; an 暗杠 stays face
down until the hand ends, open or not (碰或杠牌后必须亮明暗杠除外); the dealer stays on a win or
荒庄 (连庄), else the winner deals. Kong replacements come from the last stack.
"""

from services.rules.ready import ReadyRules
from services.rules.scoring import bao
from services.rules.tiles import RED_DRAGON, SUITED_KINDS
from services.rules.variants.base import Scoring, Variant, VariantConfig
from services.rules.variants.breaks import side_and_stacks
from services.rules.variants.dealers import DealerKeepsOnWinOrDraw
from services.rules.variants.wildcards import Bao

HARBIN = VariantConfig(
    id="harbin",
    name="哈尔滨麻将",
    kinds=SUITED_KINDS + (RED_DRAGON,),
    flowers=False,
    wildcard="bao",
    claim_classes=(("win",), ("kong",), ("ready_chi",), ("pong",), ("chi",)),
    multiple_winners=False,
    ready_rule="required",
    ready_claim_kinds=("chi",),
    # 有3个以上的红中 stand in for the 刻; 对倒: two pairs, either made the 刻 by the winning tile
    ready_conditions=ReadyRules(red_dragons_as_triplet=3, pairs_as_triplet=True),
    kadang="single_wait",
    last_draws_auto=4,
    min_concealed_to_claim=5,
    kong_after_ready="if_still_ready",
    dice_count=4,
)

VARIANT = Variant(
    config=HARBIN,
    scoring=Scoring(bao.BAO_SCORING, bao.score),
    wildcards=Bao(),
    dealers=DealerKeepsOnWinOrDraw(),
    wall_break=side_and_stacks,
)
