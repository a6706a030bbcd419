"""What a scorer is told about a win, and what it answers."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.rules.melds import Meld
from services.rules.tiles import Tile

Seats = tuple[int, int, int, int]


@dataclass(frozen=True)
class WinContext:
    """One winner's win, as the table saw it.

    ``concealed`` excludes the winning tile. ``discarder`` is None on 自摸; on 抢杠 it is the
    robbed seat. Per-seat tuples are indexed by seat 0–3.
    """

    variant: str
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    self_drawn: bool
    seat: int
    dealer: int
    discarder: int | None = None
    ready: tuple[bool, bool, bool, bool] = (False, False, False, False)
    bao: Tile | None = None  # the 宝 the winner saw (牡丹江, 哈尔滨)
    win_tile_is_wild: bool = False  # the drawn tile was used as a wildcard (摸宝 / Tanggu 混)
    wildcards: frozenset[Tile] = frozenset()  # Tanggu's 混 kinds
    flowers: tuple[int, int, int, int] = (0, 0, 0, 0)  # flower tiles each seat holds
    melds_by_seat: tuple[tuple[Meld, ...], ...] = ((), (), (), ())  # every seat's melds
    after_kong: bool = False  # 杠上开花 / 杠开: won on a kong or flower replacement
    robbed_kong: bool = False  # 抢杠
    kong_fed_by: int | None = None  # 杠爆: the seat whose discard was kongged just before
    first_draw: bool = False  # 天和 (dealer's opening 14) / 地和 (first draw, no claim yet)
    open_declared: tuple[bool, bool, bool, bool] = (False, False, False, False)  # 山东 明楼
    drawn_streak: int = 0  # 山东: consecutive 荒庄 before this hand
    huangfan_hand: bool = False  # 上海: this hand is a 荒番局
    base_stake: int = 1
    xianggong: tuple[bool, bool, bool, bool] = (False, False, False, False)  # 塘沽 相公
    rules_version: str = ""  # the table's rules version ("": the one new tables open under)


@dataclass(frozen=True)
class Settlement:
    """The answer of a scorer: pattern names as the rule documents give them, 番, payments."""

    patterns: tuple[str, ...]
    fan: int
    payments: tuple[int, int, int, int]
    details: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if sum(self.payments) != 0:
            raise ValueError(f"payments must sum to zero, got {self.payments}")


class ScoringError(ValueError):
    """A win the variant does not allow, or input a scorer cannot settle; the message says why."""
