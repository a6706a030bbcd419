"""Player statistics as the API will serve them: one player's, or a variant's players, paged.

A row's averages are its totals over its wins (None with no win yet), and its best 番 and
points are None with no win yet (the stored 0 is no win's value).
"""

from __future__ import annotations

from typing import Any

from workers.projections.db import ProjectionDB
from workers.projections.paging import BadPageError, Page, read_page
from workers.projections.stats import STATS, PlayerStats

ORDERS = ("hands", "wins", "self_drawn_wins", "dealt_in", "best_fan", "best_points", "escapes")


def shown(row: dict[str, Any]) -> dict[str, Any]:
    """A stored row as it is read: averages worked out, bests None before the first win."""
    wins = int(row["wins"])
    out = {k: v for k, v in row.items() if k not in ("fan_total", "points_total")}
    out["average_fan"] = row["fan_total"] / wins if wins else None
    out["average_points"] = row["points_total"] / wins if wins else None
    if not wins:
        out["best_fan"] = out["best_points"] = None
    return out


def player_stats(db: ProjectionDB, player: str, limit: int = 20, offset: int = 0) -> Page:
    """A player's statistics, one row per variant played, by variant."""
    page = read_page(db, PlayerStats(), STATS.name, {"player": player}, ("variant",),
                     limit, offset)  # fmt: skip
    return _shown(page)


def variant_stats(
    db: ProjectionDB, variant: str, order: str = "hands", limit: int = 20, offset: int = 0
) -> Page:
    """A variant's players by ``order`` (most first), then by player id (stable pages)."""
    if order not in ORDERS:
        raise BadPageError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    page = read_page(db, PlayerStats(), STATS.name, {"variant": variant}, (f"-{order}",),
                     limit, offset)  # fmt: skip
    return _shown(page)


def _shown(page: Page) -> Page:
    return Page([shown(r) for r in page.rows], page.offset, page.limit, page.next_offset,
                page.position)  # fmt: skip
