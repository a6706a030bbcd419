"""The facts of one hand, from the deal to the settlement (past tense, ``type`` discriminated).

Tiles are written in mpsz (``"5m"``) so that a stream reads as a game. Some fields are
secret to some seats (the wall, other hands, the 宝); ``services.rules.table.views`` decides
who sees what.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from events.base import DomainEvent
from events.registry import registry
from services.rules.events.types import Seat, TileName, Tiles

MeldKindName = Literal["chi", "pong", "kong", "added_kong", "concealed_kong"]
ReadyMode = Literal["plain", "open", "hidden", "dubao"]
RULES_BEFORE_VERSIONS = "paiju-rules/1"
"""The rules version of a table opened before ``table_opened`` recorded one: the only rules
there were then (``services.rules.variants.versions``)."""


@registry.register
class TableOpened(DomainEvent):
    """A table was opened for four seats, with its variant and room settings."""

    type: Literal["table_opened"] = "table_opened"
    table_id: str
    variant: str
    players: tuple[str, str, str, str]
    base_stake: int = Field(default=1, ge=1)
    options: dict[str, bool] = Field(default_factory=dict)
    timing: dict[str, int] = Field(default_factory=dict)  # the waits, in seconds, by name
    room: str = ""  # the platform's room the table is in (decision 18); "": none given
    # the rules the table is decided under for good (规则版本); an older stream has none: the
    # rules there were then. Optional, so the shape (schema version 1) reads either way.
    rules_version: str = Field(default=RULES_BEFORE_VERSIONS, min_length=1, max_length=64)


@registry.register
class HandStarted(DomainEvent):
    """A hand began: its dealer, dice and the wall (from the seed, or given explicitly)."""

    type: Literal["hand_started"] = "hand_started"
    hand_number: int = Field(ge=1)
    dealer: Seat
    dice: tuple[int, ...]
    seed: str | None = None
    seed_commitment: str | None = None
    wall: Tiles | None = None
    wall_break: int = 0


@registry.register
class TilesDealt(DomainEvent):
    """Each seat received its opening tiles (the dealer 14, the others 13)."""

    type: Literal["tiles_dealt"] = "tiles_dealt"
    hands: tuple[Tiles, Tiles, Tiles, Tiles]


@registry.register
class BaoSetAside(DomainEvent):
    """The last tile of the wall was set aside face down as the 宝."""

    type: Literal["bao_set_aside"] = "bao_set_aside"
    tile: TileName


@registry.register
class BaoChanged(DomainEvent):
    """换宝: three copies of the 宝 were in view; the old one went to the dealer's discards."""

    type: Literal["bao_changed"] = "bao_changed"
    old: TileName
    new: TileName | None


@registry.register
class WildcardsRevealed(DomainEvent):
    """塘沽: the 混 indicator was turned face up and the seven 混 named."""

    type: Literal["wildcards_revealed"] = "wildcards_revealed"
    indicator: TileName
    position_from_end: int
    wildcards: Tiles


@registry.register
class FlowerReplaced(DomainEvent):
    """补花: a flower was laid aside and a replacement drawn from the tail."""

    type: Literal["flower_replaced"] = "flower_replaced"
    seat: Seat
    flower: TileName
    replacement: TileName


@registry.register
class TileDrawn(DomainEvent):
    """A seat drew a tile: from the head, or from the tail after a kong."""

    type: Literal["tile_drawn"] = "tile_drawn"
    seat: Seat
    tile: TileName
    from_tail: bool = False
    last_draws: bool = False


@registry.register
class TileDiscarded(DomainEvent):
    """A seat discarded a tile, perhaps declaring 听 with it."""

    type: Literal["tile_discarded"] = "tile_discarded"
    seat: Seat
    tile: TileName
    ready: ReadyMode | None = None
    automatic: bool = False


@registry.register
class ClaimAnswered(DomainEvent):
    """A seat answered the claim window on a discard (what it chose stays private until it wins)."""

    type: Literal["claim_answered"] = "claim_answered"
    seat: Seat
    claim: Literal["pass", "win", "chi", "pong", "kong", "ready_chi", "ready_pong"]
    tiles: Tiles = ()


@registry.register
class TileClaimed(DomainEvent):
    """A discard was taken for a 吃, 碰 or 明杠 (``ready``: as 吃听)."""

    type: Literal["tile_claimed"] = "tile_claimed"
    seat: Seat
    kind: Literal["chi", "pong", "kong"]
    tile: TileName
    from_seat: Seat
    tiles: Tiles
    ready: bool = False


@registry.register
class KongDeclared(DomainEvent):
    """A seat declared an 暗杠 or 补杠 on its own turn (风头杠 too, in 塘沽)."""

    type: Literal["kong_declared"] = "kong_declared"
    seat: Seat
    kind: Literal["concealed_kong", "added_kong", "wind_kong", "dragon_kong"]
    tiles: Tiles
    replacement: TileName | None = None  # 风头杠 of the winds: drawn into the hand at once


@registry.register
class ConcealedKongsShown(DomainEvent):
    """A seat's face-down 暗杠 were turned face up: in 牡丹江 as the seat opens (开门后暗杠自动明示),
    and in every variant as the hand ends. ``tiles`` holds one tile per kong."""

    type: Literal["concealed_kongs_shown"] = "concealed_kongs_shown"
    seat: Seat
    tiles: Tiles


@registry.register
class HandShown(DomainEvent):
    """明楼: a ready seat laid its concealed tiles open to all."""

    type: Literal["hand_shown"] = "hand_shown"
    seat: Seat
    tiles: Tiles


@registry.register
class WildcardSetAside(DomainEvent):
    """上大台: in 混钓, a drawn 混 was set aside and the 混钓 goes on."""

    type: Literal["wildcard_set_aside"] = "wildcard_set_aside"
    seat: Seat
    tile: TileName


class Win(DomainEvent):
    """One winner's win: the tile, how it came, and the hand as it was laid open."""

    type: Literal["win"] = "win"
    seat: Seat
    tile: TileName
    self_drawn: bool
    discarder: Seat | None = None
    robbed_kong: bool = False
    after_kong: bool = False
    wild: bool = False
    concealed: Tiles = ()
    patterns: tuple[str, ...] = ()
    fan: int = 0
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)


@registry.register
class HandWon(DomainEvent):
    """The hand ended in a win (several winners on one discard where the variant allows)."""

    type: Literal["hand_won"] = "hand_won"
    wins: tuple[Win, ...]


@registry.register
class HandDrawn(DomainEvent):
    """荒庄: the wall ran out with no winner."""

    type: Literal["hand_drawn"] = "hand_drawn"


@registry.register
class HandSettled(DomainEvent):
    """The hand's score changes, the bao and hands revealed, and who deals next."""

    type: Literal["hand_settled"] = "hand_settled"
    schema_version: ClassVar[int] = 2
    payments: tuple[int, int, int, int]  # the wins
    hand_payments: tuple[int, int, int, int] = (0, 0, 0, 0)  # 塘沽's 局分, won or drawn
    level_scores: tuple[int, int, int, int] = (0, 0, 0, 0)
    next_dealer: Seat | None = None  # None: drawn at random when the next hand starts
    drawn_streak: int = 0
    huangfan: int = 0
    hands: tuple[Tiles, Tiles, Tiles, Tiles] = ((), (), (), ())
    bao: TileName | None = None


@registry.upcaster("hand_settled", from_version=1)
def _kong_payments_became_hand_payments(payload: dict[str, Any]) -> dict[str, Any]:
    """v2: 塘沽's 局分 hold 独抱 and 上大台 besides the kongs, on drawn hands too (decision 8)."""
    rest = {k: v for k, v in payload.items() if k != "kong_payments"}
    return {**rest, "hand_payments": payload.get("kong_payments", [0, 0, 0, 0])}


@registry.register
class SeedRevealed(DomainEvent):
    """The hand's seed, revealed once the hand is settled; it must match the deal's commitment."""

    type: Literal["seed_revealed"] = "seed_revealed"
    hand_number: int = Field(ge=1)
    seed: str
