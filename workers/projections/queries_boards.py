"""Queries on level titles, leaderboards and penalties: plain functions the API will serve.

Each reads the live build of its projection, is bounded (a page holds at most
``MAX_PAGE_SIZE`` rows) and paged (``page`` from 1), and refuses bad input with an error
naming it. A projection with no build yet answers as if it were empty.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from workers.projections.base import Projection, TableSpec
from workers.projections.db import ProjectionDB
from workers.projections.leaderboards import BOARDS, PERIODS, Leaderboards, period_keys
from workers.projections.levels import LEVELS, Levels
from workers.projections.penalties import PARTIES, PENALTIES, Penalties
from workers.projections.sql import SqlRows, table_name

MAX_PAGE_SIZE = 100
KEY_SHAPES = {"day": r"\d{4}-\d{2}-\d{2}", "week": r"\d{4}-W\d{2}", "all": r"all"}
KEY_EXAMPLES = {"day": "2026-12-02", "week": "2026-W49", "all": "all"}


@dataclass(frozen=True, slots=True)
class Page:
    items: list[dict[str, Any]]
    page: int
    page_size: int
    total: int  # rows in the whole listing

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


def decode(spec: TableSpec, row: Sequence[Any]) -> dict[str, Any]:
    return {c: json.loads(v) if k == "json" and v is not None else v
            for (c, k), v in zip(spec.columns, row, strict=True)}  # fmt: skip


def check_page(page: int, page_size: int) -> None:
    if not isinstance(page, int) or page < 1:
        raise ValueError(f"page starts at 1, got {page!r}")
    if not isinstance(page_size, int) or not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"page_size is 1–{MAX_PAGE_SIZE}, got {page_size!r}")


@contextmanager
def live_rows(db: ProjectionDB, projection: Projection) -> Iterator[SqlRows | None]:
    build = db.active_build(projection.name)
    if build is None:
        yield None
        return
    with db.reader(projection, build.build) as rows:
        yield rows


def _page(
    db: ProjectionDB, projection: Projection, spec: TableSpec, where: dict[str, Any],
    order: Sequence[str], page: int, page_size: int, source: TableSpec | None = None,
) -> Page:  # fmt: skip
    """A page of ``spec``'s rows where its columns equal ``where``, in ``order`` (SQL terms);
    ``source`` joins the rows through another table's ``position`` (penalty parties)."""
    check_page(page, page_size)
    with live_rows(db, projection) as rows:
        if rows is None:
            return Page([], page, page_size, 0)
        m, names = rows.mark, [c for c, _ in spec.columns]
        target = table_name(spec, rows.build)
        origin = table_name(source, rows.build) if source else target
        clause = " AND ".join(f"s.{c} = {m}" for c in where) or "1 = 1"
        join = f" JOIN {target} t ON t.position = s.position" if source else ""
        alias = "t" if source else "s"
        base = f"FROM {origin} s{join} WHERE {clause}"
        (total,) = rows.execute(f"SELECT count(*) {base}", list(where.values()))[0]
        listing = rows.execute(
            f"SELECT {', '.join(f'{alias}.{c}' for c in names)} {base}"
            f" ORDER BY {', '.join(o.format(t=alias) for o in order)}"
            f" LIMIT {page_size} OFFSET {(page - 1) * page_size}",
            list(where.values()),
        )
        decoded = [decode(spec, row) for row in listing]
    return Page(decoded, page, page_size, int(total))


# -- level score and title ---------------------------------------------------------------
def levels_of(db: ProjectionDB, player: str) -> list[dict[str, Any]]:
    """A player's level score and title in every variant they played (at most one a variant)."""
    with live_rows(db, Levels()) as rows:
        if rows is None:
            return []
        return rows.select(LEVELS.name, {"player": player}, ("variant",), MAX_PAGE_SIZE)


def level(db: ProjectionDB, player: str, variant: str) -> dict[str, Any] | None:
    with live_rows(db, Levels()) as rows:
        return (
            None if rows is None else rows.get(LEVELS.name, {"player": player, "variant": variant})
        )


# -- leaderboards ------------------------------------------------------------------------
def leaderboard_key(period: str, moment: datetime) -> str:
    """The key of the ``period`` (day, week, all) that holds ``moment``, for the caller's now."""
    check_period(period)
    return period_keys(moment)[period]


def check_period(period: str, key: str | None = None) -> None:
    if period not in PERIODS:
        raise ValueError(f"period is one of {', '.join(PERIODS)}, got {period!r}")
    if key is not None and not re.fullmatch(KEY_SHAPES[period], key):
        raise ValueError(f"a {period} key looks like {KEY_EXAMPLES[period]!r}, got {key!r}")


def leaderboard(
    db: ProjectionDB, variant: str, room: str, period: str, key: str,
    page: int = 1, page_size: int = 20,
) -> Page:  # fmt: skip
    """A page of one board, ranked (see ``workers.projections.leaderboards``); each item has
    its ``rank`` (1 = first, unique: ties are broken)."""
    check_period(period, key)
    where = {"variant": variant, "room": room, "period": period, "period_key": key}
    found = _page(db, Leaderboards(), BOARDS, where, ranking(db), page, page_size)
    for n, item in enumerate(found.items):
        item["rank"] = (page - 1) * page_size + n + 1
    return found


def ranking(db: ProjectionDB) -> list[str]:
    """points desc, then who reached that total first, then the player id by code point."""
    by_code_point = ' COLLATE "C"' if db.dialect == "postgres" else ""  # SQLite: BINARY
    return ["{t}.points DESC", "{t}.reached_position", "{t}.player" + by_code_point]


# -- penalties ---------------------------------------------------------------------------
def penalties_of_player(
    db: ProjectionDB, player: str, page: int = 1, page_size: int = 20, involved: bool = False
) -> Page:
    """Penalties charged to ``player`` (with ``involved``: also those that compensated them),
    newest first."""
    if involved:
        return _page(db, Penalties(), PENALTIES, {"player": player}, ["{t}.position DESC"],
                     page, page_size, source=PARTIES)  # fmt: skip
    return _page(db, Penalties(), PENALTIES, {"player": player}, ["{t}.position DESC"],
                 page, page_size)  # fmt: skip


def penalties_at_table(db: ProjectionDB, table_id: str, page: int = 1, page_size: int = 20) -> Page:
    """Penalties adjudicated at one table, in the order they fell."""
    return _page(db, Penalties(), PENALTIES, {"table_id": table_id}, ["{t}.position"],
                 page, page_size)  # fmt: skip
