"""塘沽麻将 (``seeds/004``).

136 tiles, no flowers. Seven 混 (wild for any suited tile) shown to all; a seat that discards a
混 becomes 相公 and cannot win. 乱将 by default. The last 34 tiles are never drawn. 七小对
counts. The dealer stays on a dealer win, else the next seat deals.
"""

from services.rules.scoring import tanggu
from services.rules.table.state import HandState
from services.rules.tiles import ALL_KINDS
from services.rules.variants.base import Scoring, Seats, Variant, VariantConfig
from services.rules.variants.breaks import side_and_stacks
from services.rules.variants.dealers import DealerWinKeepsElseNext
from services.rules.variants.tanggu_play import MAX_WILD_PAIR_RAISES, dubao_refusal
from services.rules.variants.wildcards import Hun

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
    dead_wall=34,
    dice_count=4,
    ready_modes=("plain", "dubao"),
    honour_kongs=True,
    silent_ready_modes=("plain",),
    system_plays_after_ready=True,
    wild_pair_raises=MAX_WILD_PAIR_RAISES,
)


def hand_payments(hand: HandState) -> Seats:
    """局分 (kongs, an announced 独抱, each 上大台), paid at the end of every hand, won or drawn,
    to each seat by every other seat (decision 8)."""
    return tanggu.hand_scores(
        tuple(s.melds for s in hand.seats),
        du_bao=tuple(s.ready == "dubao" for s in hand.seats),
        shang_da_tai=tuple(len(s.set_aside) for s in hand.seats),
    )


VARIANT = Variant(
    config=TANGGU,
    scoring=Scoring(tanggu.DEFAULT, tanggu.score_with),
    wildcards=Hun(),
    dealers=DealerWinKeepsElseNext(),
    wall_break=side_and_stacks,
    hand_payments=hand_payments,
    declared_wait=dubao_refusal,
)
