"""What the ops dashboard shows, read in one go: a ``Snapshot``.

Tables, rooms, 排行榜, 称号 and penalties are the read models' own queries
(``readmodels.queries_*``), so the dashboard shows what the platform's reads show; the
health of the parts is ``services.api.dashboard_health``'s figures. A panel whose read model
cannot be read (no projector ran yet) names why instead of failing the page. ``Dashboard``
keeps one snapshot an API process shares among its viewers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from events.store.base import EventStore
from ops import health
from readmodels import operations, queries_boards, queries_tables
from readmodels.db import ProjectionDB
from readmodels.leaderboards import BOARDS, Leaderboards
from readmodels.levels import LEVELS, Levels
from readmodels.penalties import PENALTIES, Penalties
from readmodels.queries import ReadModelBehind, View, paged, query
from readmodels.queries_boards import Level, PenaltyRecord
from readmodels.queries_tables import LiveTable, Room
from readmodels.sql import table_name
from services.api.dashboard_health import (
    PARTS_SECONDS,
    CommandRate,
    Figure,
    StoreLook,
    lag_figure,
    parts_figure,
    queue_figure,
    timer_figure,
    webhook_figure,
)
from services.rules.variants import VARIANTS
from services.settings import Settings
from workers.queue_depth import queue_depth

TABLES_SHOWN, BOARDS_SHOWN, BOARD_LINES, TITLES_SHOWN, PENALTIES_SHOWN = 50, 6, 5, 3, 10


class BoardLine(BaseModel):
    rank: int
    player: str
    points: int
    hands: int
    title: str | None  # the player's 称号 in the board's variant


class Board(BaseModel):
    variant: str
    variant_name: str
    room: str
    period: str
    period_key: str
    lines: list[BoardLine]


class Snapshot(BaseModel):
    at: datetime
    head: int
    tables: list[LiveTable]
    more_tables: bool
    rooms: list[Room]
    boards: list[Board]
    titles: list[Level]
    penalties: list[PenaltyRecord]
    health: list[Figure]
    problems: dict[str, str]  # panel -> why it could not be read


# -- the read models ----------------------------------------------------------------------------
def variant_name(variant: str) -> str:
    try:
        return VARIANTS[variant].name
    except KeyError:
        return variant


def boards_with_lines(db: ProjectionDB, period: str, key: str, limit: int = BOARDS_SHOWN
                      ) -> list[tuple[str, str]]:  # fmt: skip
    """The (variant, room) boards of ``period`` ``key`` that have a line, by variant and room."""

    def answer(view: View) -> list[tuple[str, str]]:
        m = view.rows.mark
        found = view.rows.execute(
            f"SELECT DISTINCT variant, room FROM {table_name(BOARDS, view.build)}"
            f" WHERE period = {m} AND period_key = {m} ORDER BY variant, room LIMIT {int(limit)}",
            [period, key],
        )
        return [(str(v), str(r)) for v, r in found]

    return query(db, Leaderboards(), answer)


def titles_of(db: ProjectionDB, variant: str, players: Sequence[str]) -> dict[str, str]:
    """Each of ``players``' 称号 in ``variant`` (a player with no hand there is left out)."""
    if not players:
        return {}

    def answer(view: View) -> dict[str, str]:
        m = view.rows.mark
        marks = ", ".join([m] * len(players))
        found = view.rows.execute(
            f"SELECT player, title FROM {table_name(LEVELS, view.build)}"
            f" WHERE variant = {m} AND player IN ({marks})",
            [variant, *players],
        )
        return {str(p): str(t) for p, t in found}

    return query(db, Levels(), answer)


def read_boards(db: ProjectionDB, now: datetime, period: str = "day") -> list[Board]:
    """The top lines of each board of the period holding ``now``, with each player's 称号."""
    key = queries_boards.leaderboard_key(period, now)
    boards = []
    for variant, room in boards_with_lines(db, period, key):
        page = queries_boards.leaderboard(db, variant, room, period, key, 1, BOARD_LINES)
        titles = titles_of(db, variant, [e.player for e in page.items])
        lines = [BoardLine(rank=e.rank, player=e.player, points=e.points, hands=e.hands,
                           title=titles.get(e.player)) for e in page.items]  # fmt: skip
        boards.append(Board(variant=variant, variant_name=variant_name(variant), room=room,
                            period=period, period_key=key, lines=lines))  # fmt: skip
    return boards


def top_titles(db: ProjectionDB, per_variant: int = TITLES_SHOWN) -> list[Level]:
    """The highest 等级分 of each variant (on the ``(variant, level_score)`` index)."""

    def answer(view: View) -> list[Level]:
        found = []
        for variant in sorted(VARIANTS):
            rows = view.rows.select(LEVELS.name, {"variant": variant},
                                    order=("-level_score", "player"), limit=per_variant)  # fmt: skip
            found += [Level(**row, position=view.position) for row in rows]
        return found

    return query(db, Levels(), answer)


def recent_penalties(db: ProjectionDB, count: int = PENALTIES_SHOWN) -> list[PenaltyRecord]:
    """The last penalties adjudicated anywhere, newest first."""

    def answer(view: View) -> list[PenaltyRecord]:
        found, _ = paged(view, PENALTIES.name, {}, ("-position",), 1, count)
        return [PenaltyRecord.model_validate(r) for r in found]

    return query(db, Penalties(), answer)


# -- the snapshot -------------------------------------------------------------------------------
class Dashboard:
    """One per API process: the snapshot every viewer shares, read again when the store's head
    moved (at most every ``fresh`` seconds) or when it is ``stale`` seconds old."""

    def __init__(self, settings: Settings, store: EventStore, db: Callable[[], ProjectionDB],
                 fresh: float = 0.25, stale: float = 1.0,
                 logs: dict[int, EventStore] | None = None) -> None:  # fmt: skip
        self.settings, self.store, self.db = settings, store, db
        self.logs = logs if logs and len(logs) > 1 else None  # each partition's, lag per partition
        self.look, self.rate = StoreLook(settings.store_url), CommandRate()
        self.redis_gauge = None if settings.embedded else queue_depth(settings)
        self._parts: tuple[float, Figure] | None = None
        self.fresh, self.stale = fresh, stale
        self._lock = threading.Lock()
        self._last: tuple[float, Snapshot] | None = None

    def snapshot(self, now: datetime | None = None) -> Snapshot:
        with self._lock:
            if self._last is not None and now is None:
                age, head = time.monotonic() - self._last[0], self._head()
                if age < self.fresh or (age < self.stale and head == self._last[1].head):
                    return self._last[1]
            found = self.read(now or datetime.now(UTC))
            self._last = (time.monotonic(), found)
            return found

    def close(self) -> None:
        self.look.close()

    def _head(self) -> int:
        if self.logs:  # any partition moved: a new snapshot
            return sum(operations.head_of(log) for log in self.logs.values())
        return operations.head_of(self.store)

    def parts(self) -> Figure:
        """``parts_figure``, read again every ``PARTS_SECONDS`` (a few reads each time)."""
        if self._parts is None or time.monotonic() - self._parts[0] >= PARTS_SECONDS:
            self._parts = (time.monotonic(), parts_figure(health.assess(self.settings)))
        return self._parts[1]

    def read(self, now: datetime) -> Snapshot:
        db, problems = self.db(), {}

        def panel(name: str, read: Callable[[], Any], empty: Any) -> Any:
            try:
                return read()
            except ReadModelBehind as behind:
                problems[name] = str(behind)
            except Exception as error:  # a panel that cannot be read never fails the page
                problems[name] = f"{type(error).__name__}: {error}"
            return empty

        tables = panel("tables", lambda: queries_tables.live_tables(db, size=TABLES_SHOWN), None)
        figures = [
            panel("commands", lambda: self.rate.figure(self.look), None),
            panel("parts", self.parts, None),
            panel("queue", lambda: queue_figure(self.settings, self.redis_gauge), None),
            panel("timers", lambda: timer_figure(self.look), None),
            panel("lag", lambda: lag_figure(db, self.store, self.logs), None),
            panel("webhooks", lambda: webhook_figure(self.look), None),
        ]
        return Snapshot(
            at=now, head=self._head(),
            tables=tables.items if tables else [], more_tables=bool(tables and tables.more),
            rooms=panel("rooms", lambda: queries_tables.rooms(db, 1, TABLES_SHOWN).items, []),
            boards=panel("boards", lambda: read_boards(db, now), []),
            titles=panel("titles", lambda: top_titles(db), []),
            penalties=panel("penalties", lambda: recent_penalties(db), []),
            health=[f for f in figures if f is not None], problems=problems,
        )  # fmt: skip
