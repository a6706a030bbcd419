"""A variant: its frozen configuration (data) and the ``Variant`` object that carries it together
with its ready rules, its scorer and options, and the hooks where variants really differ.

Table code asks the variant (``table.variant``): it never tests a variant's id or wildcard kind.
The hooks' implementations that need table code live in the variants' own modules and in
``variants/wildcards.py``, ``variants/dealers.py`` and ``variants/breaks.py``; this module imports
no table code, so that the table's state can name the ``Variant`` type.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from services.rules.penalties import NO_ESCAPE_PENALTY, EscapeRules
from services.rules.tiles import Tile
from services.rules.variants.timing import Timing

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from events.base import DomainEvent
    from services.rules.melds import Meld
    from services.rules.ready import ReadyRules
    from services.rules.scoring.base import Settlement, WinContext
    from services.rules.table.state import HandState, SeatState

ClaimKind = Literal["win", "ready_chi", "ready_pong", "kong", "pong", "chi"]
WildcardKind = Literal["none", "bao", "hun"]
ReadyMode = Literal["plain", "open", "hidden", "dubao"]
ReadyRule = Literal["required", "optional"]
KadangRule = Literal["none", "any_reading", "single_wait"]
Seats = tuple[int, int, int, int]
NO_CHANGE: Seats = (0, 0, 0, 0)


@dataclass(frozen=True)
class VariantConfig:
    """Everything the engine's predicates need to know about a variant, as data.

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
    # the conditions on declaring 听 beyond a wait (decision 6: 牡丹江, 哈尔滨); None: a wait is enough
    ready_conditions: ReadyRules | None = None
    kadang: KadangRule = "none"
    seven_pairs: bool = False
    dead_wall: int = 0  # tiles at the end of the wall never drawn (besides the 宝)
    # 山东: the dead wall is counted in stacks, so a lone tile left on top of the tail after an
    # odd number of replacement draws is a stack of its own (``002``)
    dead_wall_in_stacks: bool = False
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
    # 塘沽: after 听 the system draws, discards and wins for the seat (系统自动为其摸牌和和牌)
    system_plays_after_ready: bool = False
    honour_kongs: bool = False  # 塘沽 风头杠
    wild_pair_raises: int = 0  # 塘沽 上大台: how often a drawn 混 may be set aside (最多2次)
    dice_count: int = 2  # 两次掷骰 variants roll four dice
    timing: Timing = Timing()  # how long a table waits, unless the table overrides it
    level_score: bool = True  # 等级分 (decision 17): every variant scores it as 003 does
    tags: frozenset[str] = field(default_factory=frozenset)

    @property
    def held_wildcards_are_wild(self) -> bool:
        """混 (塘沽): a wildcard kind is wild wherever it is held, not only as a drawn tile."""
        return self.wildcard == "hun"

    @property
    def drawn_bao_is_wild(self) -> bool:
        """宝 (牡丹江, 哈尔滨): the 宝 is wild only as the tile a ready seat draws (decision 7)."""
        return self.wildcard == "bao"


# --- the hooks --------------------------------------------------------------------------------


class WildcardRules(Protocol):
    """How a variant's wildcards are set up and what they do in play (宝, 混, or none)."""

    def setup_pending(self, hand: HandState) -> bool:
        """The wildcards are still to be set up after the deal."""

    def setup_events(self, hand: HandState) -> list[DomainEvent]:
        """The set-up step (set the 宝 aside, reveal the 混); nothing once it is done."""

    def changed(self, config: VariantConfig, hand: HandState) -> list[DomainEvent]:
        """A change the table makes by itself in play (换宝), or nothing."""

    def wins_on_draw(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        """The drawn tile wins outright for this seat, standing for any tile it waits on (摸宝)."""

    def drawn_is_wild(self, hand: HandState, seat: SeatState, tile: Tile) -> bool:
        """The tile this seat drew is a wildcard as it wins (摸宝, a drawn 混)."""

    def discard_claimable(self, hand: HandState, tile: Tile) -> bool:
        """Another seat may claim this discarded tile at all (a discarded 混 is claimed by nobody)."""

    def in_wild_pair_wait(self, concealed: tuple[Tile, ...], wildcards: frozenset[Tile]) -> bool:
        """混钓: one wildcard away, the rest is sets only; that wildcard waits to be paired."""


class DealerSuccession(Protocol):
    """Who deals (decision 13)."""

    def first_dealer(self) -> int | None:
        """The seat that deals the series' first hand; None: drawn from the hand's seed."""

    def next_dealer(self, dealer: int, winners: Sequence[int], discarder: int | None) -> int | None:
        """Who deals after a hand (no winners: 荒庄); None: drawn from the next hand's seed."""


WallBreak = Callable[[tuple[Tile, ...], tuple[int, ...], int], tuple[Tile, ...]]
"""Open the shuffled wall where the dice say: ``(wall, dice, dealer) -> wall in draw order``."""


class SeriesCounters(Protocol):
    """What a hand adds to the 荒番 count a series carries (level scores are every variant's,
    ``VariantConfig.level_score``)."""

    def huangfan_at_start(self, count: int, dice: tuple[int, ...]) -> int:
        """The 荒番 count as a hand starts with these dice."""

    def huangfan_after(self, count: int, won: bool) -> int:
        """The 荒番 count after a hand, won or drawn."""


class NoCounters:
    """A variant without 荒番."""

    def huangfan_at_start(self, count: int, dice: tuple[int, ...]) -> int:
        return count

    def huangfan_after(self, count: int, won: bool) -> int:
        return 0


HandPayments = Callable[["HandState"], Seats]
"""局分: what each seat gains or pays at the end of a hand (won or drawn), apart from the wins."""


def no_hand_payments(hand: HandState) -> Seats:
    return NO_CHANGE


# --- scoring and options ----------------------------------------------------------------------

ScoringConfig = TypeVar("ScoringConfig", bound="DataclassInstance")
Scorer = Callable[["WinContext"], "Settlement"]


@dataclass(frozen=True)
class Scoring(Generic[ScoringConfig]):
    """A variant's scorer and the table options that switch it.

    ``default`` is the scoring config (a frozen dataclass); each of its boolean fields is an
    option a table may set when it opens (塘沽 ``pair_258_only``, 上海 ``discarder_pays_alone`` …).
    The table and ``paiju rules score`` both settle through ``scorer``.
    """

    default: ScoringConfig
    score_with: Callable[[WinContext, ScoringConfig], Settlement]

    def options(self) -> dict[str, bool]:
        """The boolean switches a table of this variant may set, with their defaults."""
        values = {f.name: getattr(self.default, f.name) for f in fields(self.default)}
        return {name: value for name, value in values.items() if isinstance(value, bool)}

    def unknown_options(self, options: Mapping[str, bool]) -> list[str]:
        known = self.options()
        return sorted(name for name in options if name not in known)

    def scorer(self, options: Mapping[str, bool] | None = None) -> Scorer:
        """The scorer with these options applied (none: the documents' defaults)."""
        config = replace(self.default, **dict(options or {}))
        score_with = self.score_with
        return lambda ctx: score_with(ctx, config)


class DeclaredWait(Protocol):
    """What a declared 听 mode asks of the hand's wait: the refusal, or None (独抱)."""

    def __call__(
        self,
        mode: str,
        concealed: tuple[Tile, ...],
        melds: tuple[Meld, ...],
        wildcards: frozenset[Tile],
        config: VariantConfig,
    ) -> str | None: ...


def any_declared_wait(
    mode: str,
    concealed: tuple[Tile, ...],
    melds: tuple[Meld, ...],
    wildcards: frozenset[Tile],
    config: VariantConfig,
) -> str | None:
    """No 听 mode of this variant asks anything of the wait."""
    return None


# --- the variant ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One variant, whole: its config (with its ready rules), scoring and hooks.

    Registered by one line in ``variants/__init__.py``; ``TableState.variant`` returns it.
    """

    config: VariantConfig
    scoring: Scoring[Any]
    wildcards: WildcardRules
    dealers: DealerSuccession
    wall_break: WallBreak
    counters: SeriesCounters = field(default_factory=NoCounters)
    hand_payments: HandPayments = no_hand_payments
    escape: EscapeRules = NO_ESCAPE_PENALTY  # 逃跑处罚 (decision 16); its waits: ``config.timing``
    declared_wait: DeclaredWait = any_declared_wait  # 独抱: what a 听 mode asks of the wait

    @property
    def id(self) -> str:
        return self.config.id

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def ready(self) -> ReadyRules | None:
        """The conditions on declaring 听 beyond a wait (decision 6), if any."""
        return self.config.ready_conditions
