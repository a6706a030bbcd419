"""Player statistics as the API will serve them: one player's per variant, or a variant's
players by a counter, paged (``readmodels.queries``).

A row's averages are its totals over its wins, and its best 番 and points are None before its
first win (the stored 0 is no win's value).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from readmodels.db import ProjectionDB
from readmodels.queries import (
    DEFAULT_PAGE_SIZE,
    Page,
    QueryError,
    View,
    page_window,
    paged,
    query,
)
from readmodels.stats import STATS, PlayerStats

STATS_PROJECTION = PlayerStats()
ORDERS = ("hands", "wins", "self_drawn_wins", "dealt_in", "best_fan", "best_points", "escapes")


class Stats(BaseModel):
    """One player's statistics in one variant."""

    player: str
    variant: str
    hands: int
    wins: int
    self_drawn_wins: int
    dealt_in: int  # 点炮
    drawn: int
    average_fan: float | None
    best_fan: int | None
    average_points: float | None
    best_points: int | None
    penalties: int
    penalty_total: int
    timeouts: int
    autoplay_moves: int  # 托管
    escapes: int
    last_position: int


def stats_of(row: dict[str, Any]) -> Stats:
    wins = int(row["wins"])
    shown = {k: v for k, v in row.items() if k not in ("fan_total", "points_total")}
    shown["average_fan"] = row["fan_total"] / wins if wins else None
    shown["average_points"] = row["points_total"] / wins if wins else None
    if not wins:
        shown["best_fan"] = shown["best_points"] = None
    return Stats.model_validate(shown)


def _page(
    db: ProjectionDB, where: dict[str, object], order: tuple[str, ...], page: int, size: int,
    min_position: int | None,
) -> Page[Stats]:  # fmt: skip
    page_window(page, size)  # a bad page is refused before any wait

    def answer(view: View) -> Page[Stats]:
        found, more = paged(view, STATS.name, where, order, page, size)
        return Page[Stats](items=[stats_of(r) for r in found], page=page, size=size, more=more,
                           position=view.position)  # fmt: skip

    return query(db, STATS_PROJECTION, answer, min_position=min_position)


def player_stats(
    db: ProjectionDB, player: str, page: int = 1, size: int = DEFAULT_PAGE_SIZE, *,
    min_position: int | None = None,
) -> Page[Stats]:  # fmt: skip
    """A player's statistics, one per variant played, by variant."""
    if not isinstance(player, str) or not player.strip():
        raise QueryError(f"a player is named by a non-empty id, not {player!r}")
    return _page(db, {"player": player}, ("variant",), page, size, min_position)


def variant_stats(
    db: ProjectionDB, variant: str, order: str = "hands", page: int = 1,
    size: int = DEFAULT_PAGE_SIZE, *, min_position: int | None = None,
) -> Page[Stats]:  # fmt: skip
    """A variant's players by ``order`` (most first), then by player id (a unique order)."""
    if order not in ORDERS:
        raise QueryError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    return _page(db, {"variant": variant}, (f"-{order}", "player"), page, size, min_position)
