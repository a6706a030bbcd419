"""Queries on 等级分 and 称号, 排行榜 and penalties: plain functions the API will serve.

Each reads the live build through ``readmodels.queries.query`` (one read-only
snapshot, ``min_position`` for read-your-writes), every list is a bounded ``Page``, and bad
input is a ``QueryError`` naming what was wrong.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel

from readmodels.base import TableSpec
from readmodels.db import ProjectionDB
from readmodels.leaderboards import BOARDS, BOARDS_ALL, PERIODS, Leaderboards, period_keys
from readmodels.levels import LEVELS, Levels, title_columns
from readmodels.penalties import PARTIES, PENALTIES, Penalties
from readmodels.queries import (
    DEFAULT_PAGE_SIZE,
    Page,
    QueryError,
    View,
    page_window,
    paged,
    query,
)
from readmodels.sql import table_name

KEY_SHAPES = {"day": r"[0-9]{4}-[0-9]{2}-[0-9]{2}", "week": r"[0-9]{4}-W[0-9]{2}", "all": r"all"}
"""ASCII digits ([0-9], not \\d: Python's takes every script's digits, a document's only 0-9)."""
KEY_PATTERN = "^(" + "|".join(KEY_SHAPES.values()) + ")$"
"""A key of any period, as the API's document declares it."""
KEY_EXAMPLES = {"day": "2026-12-02", "week": "2026-W49", "all": "all"}


def _named(what: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise QueryError(f"a {what} is named by a non-empty id, not {value!r}")
    return value


# -- 等级分 and 称号 ------------------------------------------------------------------------
class Level(BaseModel):
    """A player's level score in one variant, its title, and what the next title needs."""

    player: str
    variant: str
    level_score: int
    hands: int
    title: str
    grade: int
    next_title: str | None
    to_next: int | None
    last_position: int | None
    position: int  # the read model's checkpoint this was read at


def level(db: ProjectionDB, player: str, variant: str, *, min_position: int | None = None) -> Level:
    """The player's level in ``variant`` (0, 书童, for a player with no hand there yet)."""
    _named("player", player)
    _named("variant", variant)

    def answer(view: View) -> Level:
        row = view.rows.get(LEVELS.name, {"player": player, "variant": variant})
        if row is None:
            row = {"player": player, "variant": variant, "level_score": 0, "hands": 0,
                   **title_columns(0), "last_position": None}  # fmt: skip
        return Level(**row, position=view.position)

    return query(db, Levels(), answer, min_position=min_position)


def levels_of(db: ProjectionDB, player: str, *, min_position: int | None = None) -> list[Level]:
    """The player's level in every variant they have played (one a variant: bounded)."""
    _named("player", player)

    def answer(view: View) -> list[Level]:
        found = view.rows.select(LEVELS.name, {"player": player}, order=("variant",), limit=100)
        return [Level(**row, position=view.position) for row in found]

    return query(db, Levels(), answer, min_position=min_position)


# -- 排行榜 --------------------------------------------------------------------------------
class BoardEntry(BaseModel):
    """A player's line on a board: rank (unique, ties broken), points, hands, and when the
    player reached that total (the event's position and recorded time)."""

    rank: int
    player: str
    points: int
    hands: int
    reached_position: int
    reached_at: str


def leaderboard_key(period: str, moment: datetime) -> str:
    """The key of the ``period`` (day, week, all) holding ``moment``: the caller's "now"."""
    check_period(period)
    return period_keys(moment)[period]


def period_of_key(key: str) -> str:
    """The period a key names (``2026-W49``: week), or ``QueryError``."""
    for period, shape in KEY_SHAPES.items():
        if re.fullmatch(shape, key):
            return period
    raise QueryError(f"a key looks like {', '.join(map(repr, KEY_EXAMPLES.values()))}, not {key!r}")


def check_period(period: str, key: str | None = None) -> None:
    if period not in PERIODS:
        raise QueryError(f"period is one of {', '.join(PERIODS)}, not {period!r}")
    if key is not None and not (isinstance(key, str) and re.fullmatch(KEY_SHAPES[period], key)):
        raise QueryError(f"a {period} key looks like {KEY_EXAMPLES[period]!r}, not {key!r}")


def _board(room: str | None) -> tuple[TableSpec, str]:
    """The board's table and its room column: a room's ("" for tables opened without one), or
    with ``room`` None the board across every room."""
    if room is None:
        return BOARDS_ALL, ""
    if not isinstance(room, str):
        raise QueryError(f"a room is named by text ('' for none), not {room!r}")
    return BOARDS, room


def leaderboard(
    db: ProjectionDB, variant: str, room: str | None, period: str, key: str,
    page: int = 1, page_size: int = DEFAULT_PAGE_SIZE, *, min_position: int | None = None,
) -> Page[BoardEntry]:  # fmt: skip
    """One page of the board of ``variant`` and ``room`` ("" for tables opened without one;
    None: across every room) for ``period`` (day, week, all) ``key`` (``2026-12-02``,
    ``2026-W49``, ``all``), ranked as ``readmodels.leaderboards`` says."""
    _named("variant", variant)
    board, room = _board(room)
    check_period(period, key)
    offset, limit = page_window(page, page_size)

    def answer(view: View) -> Page[BoardEntry]:
        m = view.rows.mark
        by_code_point = ' COLLATE "C"' if m == "%s" else ""  # SQLite's BINARY already is
        found = view.rows.execute(
            "SELECT player, points, hands, reached_position, reached_at"
            f" FROM {table_name(board, view.build)}"
            f" WHERE variant = {m} AND room = {m} AND period = {m} AND period_key = {m}"
            f" ORDER BY points DESC, reached_position, player{by_code_point}"
            f" LIMIT {limit + 1} OFFSET {offset}",
            [variant, room, period, key],
        )
        items = [BoardEntry(rank=offset + n + 1, player=r[0], points=r[1], hands=r[2],
                            reached_position=r[3], reached_at=r[4])
                 for n, r in enumerate(found[:limit])]  # fmt: skip
        return Page[BoardEntry](items=items, page=page, size=page_size,
                                more=len(found) > limit, position=view.position)  # fmt: skip

    return query(db, Leaderboards(), answer, min_position=min_position)


def board_entry(
    db: ProjectionDB, variant: str, room: str | None, period: str, key: str, player: str, *,
    min_position: int | None = None,
) -> BoardEntry | None:  # fmt: skip
    """The player's own line on a board (``room`` None: across every room), with its rank
    (None: not on that board)."""
    _named("variant", variant)
    _named("player", player)
    board, room = _board(room)
    check_period(period, key)

    def answer(view: View) -> BoardEntry | None:
        where = {"variant": variant, "room": room, "period": period, "period_key": key}
        row = view.rows.get(board.name, {**where, "player": player})
        if row is None:
            return None
        m = view.rows.mark
        by_code_point = ' COLLATE "C"' if m == "%s" else ""
        ((ahead,),) = view.rows.execute(
            f"SELECT count(*) FROM {table_name(board, view.build)}"
            f" WHERE variant = {m} AND room = {m} AND period = {m} AND period_key = {m}"
            f" AND (points > {m} OR (points = {m} AND (reached_position < {m}"
            f" OR (reached_position = {m} AND player{by_code_point} < {m}))))",
            [variant, room, period, key, row["points"], row["points"],
             row["reached_position"], row["reached_position"], player],
        )  # fmt: skip
        names = ("player", "points", "hands", "reached_position", "reached_at")
        fields = {k: row[k] for k in names}
        return BoardEntry(rank=int(ahead) + 1, **fields)

    return query(db, Leaderboards(), answer, min_position=min_position)


# -- penalties ------------------------------------------------------------------------------
class PenaltyRecord(BaseModel):
    """An adjudicated penalty, for support: what the rule decided, for whom, where and when."""

    position: int
    table_id: str
    version: int
    variant: str
    room: str
    hand_number: int
    seat: int
    player: str
    cause: str
    rule: str
    charged: int
    amounts: list[int]
    players: list[str]
    recorded_at: str


def penalties_of_player(
    db: ProjectionDB, player: str, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE, *,
    involved: bool = False, min_position: int | None = None,
) -> Page[PenaltyRecord]:  # fmt: skip
    """Penalties charged to ``player``, newest first; with ``involved``, also those that
    compensated them (上海's 20 × 底注 to each other seat)."""
    _named("player", player)
    page_window(page, page_size)

    def answer(view: View) -> Page[PenaltyRecord]:
        found: list[dict[str, object]]
        if not involved:
            found, more = paged(view, PENALTIES.name, {"player": player}, ("-position",),
                                page, page_size)  # fmt: skip
        else:  # a page of the player's parties, then each one's penalty (at most a page)
            lines, more = paged(view, PARTIES.name, {"player": player}, ("-position", "-seat"),
                                page, page_size)  # fmt: skip
            records = (view.rows.get(PENALTIES.name, {"position": line["position"]})
                       for line in lines)  # fmt: skip
            found = [row for row in records if row is not None]
        items = [PenaltyRecord.model_validate(r) for r in found]
        return Page[PenaltyRecord](items=items, page=page, size=page_size, more=more,
                                   position=view.position)  # fmt: skip

    return query(db, Penalties(), answer, min_position=min_position)


def penalties_at_table(
    db: ProjectionDB, table_id: str, page: int = 1, page_size: int = DEFAULT_PAGE_SIZE, *,
    min_position: int | None = None,
) -> Page[PenaltyRecord]:  # fmt: skip
    """Penalties adjudicated at one table, in the order they fell."""
    _named("table", table_id)
    page_window(page, page_size)

    def answer(view: View) -> Page[PenaltyRecord]:
        found, more = paged(view, PENALTIES.name, {"table_id": table_id}, ("position",),
                            page, page_size)  # fmt: skip
        items = [PenaltyRecord.model_validate(r) for r in found]
        return Page[PenaltyRecord](items=items, page=page, size=page_size, more=more,
                                   position=view.position)  # fmt: skip

    return query(db, Penalties(), answer, min_position=min_position)
