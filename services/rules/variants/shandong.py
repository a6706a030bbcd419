"""山东麻将 (``seeds/002``).

144 tiles with eight flowers, 补花 from the tail. 听 is optional: 明楼 (hand shown, 自摸 only,
doubled) or 暗楼. 一炮多响. 七对 counts. The last 6 stacks (12 tiles) are never drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.rules.penalties import Penalty, SeatConduct
from services.rules.scoring import shandong
from services.rules.tiles import ALL_KINDS, Tile
from services.rules.variants.base import Scoring, Variant, VariantConfig
from services.rules.variants.breaks import side_and_stacks
from services.rules.variants.dealers import WinnerDealsDrawPasses
from services.rules.variants.shandong_dice import draw_order, wall_break
from services.rules.variants.wildcards import NoWildcards

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
    dead_wall=12,
    dead_wall_in_stacks=True,
    kong_after_ready="own_turn_if_still_ready",
    robbable_added_kong=True,
    dice_count=4,
    ready_modes=("open", "hidden"),
    silent_ready_modes=("hidden",),
)


def two_roll_break(wall: tuple[Tile, ...], dice: tuple[int, ...], dealer: int) -> tuple[Tile, ...]:
    """两次掷骰: the break counted as ``002`` describes (``shandong_dice``)."""
    if len(dice) != 4:
        return side_and_stacks(wall, dice, dealer)
    brk = wall_break(dealer, (dice[0], dice[1]), (dice[2], dice[3]))
    return tuple(draw_order(wall, brk))


@dataclass(frozen=True)
class ShandongEscape:
    """山东麻将 (``002``): 逃跑扣除分数 = (底 + 花) × 10, 花 the leaver's own; nobody receives it."""

    def due(self, conduct: SeatConduct) -> Penalty | None:
        if not conduct.left:
            return None
        loss = shandong.escape_penalty(conduct.flowers, conduct.melds)
        amounts = [-loss if s == conduct.seat else 0 for s in range(4)]
        return Penalty(
            "left",
            "002 逃跑扣除分数=（底+花）*10",
            (amounts[0], amounts[1], amounts[2], amounts[3]),
        )


VARIANT = Variant(
    config=SHANDONG,
    scoring=Scoring(shandong.DEFAULT, shandong.score_with),
    wildcards=NoWildcards(),
    dealers=WinnerDealsDrawPasses(),
    wall_break=two_roll_break,
    escape=ShandongEscape(),
)
