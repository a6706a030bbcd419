"""The frozen configuration of a variant: the data the engine's predicates take explicitly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from services.rules.penalties import NO_ESCAPE_PENALTY, EscapeRules
from services.rules.tiles import Tile
from services.rules.variants.timing import Timing

ClaimKind = Literal["win", "ready_chi", "ready_pong", "kong", "pong", "chi"]
WildcardKind = Literal["none", "bao", "hun"]
ReadyMode = Literal["plain", "open", "hidden", "dubao"]
ReadyRule = Literal["required", "optional"]
KadangRule = Literal["none", "any_reading", "single_wait"]
DealerRule = Literal[
    "random_keep_on_draw",  # 牡丹江: a random dealer each hand, kept on 荒庄
    "keep_on_win_or_draw_else_winner",  # 哈尔滨 连庄
    "winner_deals_draw_passes",  # 山东
    "winner_deals_draw_keeps",  # 上海
    "dealer_win_keeps_else_next",  # 塘沽
]


@dataclass(frozen=True)
class VariantConfig:
    """Everything the engine needs to know about a variant, as data.

    ``claim_classes`` lists claim kinds from the highest priority class to the lowest; kinds
    in one tuple are equal, and ties go to the seat nearest the discarder.
    """

    id: str
    name: str
    kinds: tuple[Tile, ...]
    flowers: bool
    wildcard: WildcardKind
    claim_classes: tuple[tuple[ClaimKind, ...], ...]
    multiple_winners: bool  # 一炮多响
    ready_rule: ReadyRule  # must a seat declare 听 before it can win
    ready_claim_kinds: tuple[Literal["chi", "pong"], ...] = ()  # 吃听 from any seat
    kadang: KadangRule = "none"
    seven_pairs: bool = False
    dealer_rule: DealerRule = "winner_deals_draw_keeps"
    dead_wall: int = 0  # tiles at the end of the wall never drawn (besides the 宝)
    last_draws_auto: int = 0  # 牡丹江/哈尔滨: the last N tiles are drawn for 自摸 only
    min_concealed_to_claim: int = 0  # 哈尔滨: no 吃碰杠 when only 4 concealed tiles remain
    # after 听: "never"; "own_turn_if_still_ready" (暗杠/补杠 only, decision 4: 上海, 山东);
    # "if_still_ready" (also 明杠 on a discard, 哈尔滨)
    kong_after_ready: Literal["never", "own_turn_if_still_ready", "if_still_ready"] = "never"
    robbable_added_kong: bool = False  # 抢杠 on an 补杠 / 上杠
    concealed_kong_shown_when_open: bool = False  # 牡丹江: 开门后暗杠也要亮明
    # how 听 may be declared (山东: 明楼 open / 暗楼 hidden; 塘沽 also 独抱)
    ready_modes: tuple[ReadyMode, ...] = ("plain",)
    # 听 kept from the other seats until the hand ends: 山东 暗楼; 塘沽 announces only 独抱
    # (只有独抱需提前报听), its plain 听 showing only in how the system then plays the seat
    silent_ready_modes: tuple[ReadyMode, ...] = ()
    honour_kongs: bool = False  # 塘沽 风头杠
    dice_count: int = 2  # 两次掷骰 variants roll four dice
    timing: Timing = Timing()  # how long a table waits, unless the table overrides it
    escape: EscapeRules = NO_ESCAPE_PENALTY  # 逃跑处罚 (decision 16)
    level_score: bool = True  # 等级分 (decision 17): every variant scores it as 003 does
    tags: frozenset[str] = field(default_factory=frozenset)
