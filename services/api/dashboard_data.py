"""What the ops dashboard shows, read in one go: a ``Snapshot``.

Tables, rooms, 排行榜, 称号 and penalties are the read models' own queries
(``workers.projections.queries_*``), so the dashboard shows what the platform's reads show. The
health of the parts is read from the store's database (short reads, each on an index):
commands per second (command outcomes recorded between two looks), queue depth (the broker's
lists in Redis, or the in-process memory transport), timers due and how late the oldest is,
each projection's lag behind the store's head, and webhook deliveries set aside or retrying.
Each figure has a state by the thresholds below and says in words what is wrong. A panel whose
read model cannot be read (no projector ran yet) names why instead of failing the page.
"""

from __future__ import annotations

import collections
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel

from events.store import parse_store_url
from events.store.base import EventStore
from services.rules.variants import VARIANTS
from workers.projections import catalog, operations, queries_boards, queries_tables
from workers.projections.db import ProjectionDB
from workers.projections.leaderboards import BOARDS, Leaderboards
from workers.projections.levels import LEVELS, Levels
from workers.projections.penalties import PENALTIES, Penalties
from workers.projections.queries import ReadModelBehind, View, paged, query
from workers.projections.queries_boards import Level, PenaltyRecord
from workers.projections.queries_tables import LiveTable, Room
from workers.projections.sql import table_name
from workers.queues import QueueNames
from workers.settings import Settings

State = Literal["ok", "warn", "red", "unknown"]
TABLES_SHOWN, BOARDS_SHOWN, BOARD_LINES, TITLES_SHOWN, PENALTIES_SHOWN = 50, 6, 5, 3, 10
# Thresholds (docs/operations.md, "Dashboard", says what to do when each is passed)
QUEUE_WARN, QUEUE_RED = 100, 1000  # commands waiting for a worker
TIMER_LATE_WARN, TIMER_LATE_RED = 1.0, 5.0  # seconds the oldest due timer is late
LAG_WARN, LAG_RED = 100, 1000  # positions a projection's live build is behind the head
RATE_WINDOW = 10.0  # seconds over which commands per second are counted


class Figure(BaseModel):
    """One figure of the health panel: its value as shown, its state, and why."""

    key: str
    label: str
    value: str
    state: State
    detail: str = ""


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


# -- the health of the parts --------------------------------------------------------------------
class StoreLook:
    """Short reads on the store's database, on a connection of their own for each look."""

    def __init__(self, url: str) -> None:
        self.where = parse_store_url(url)
        self.sqlite = self.where.backend == "sqlite"

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.sqlite:
            conn = sqlite3.connect(f"file:{self.where.path}?mode=ro", uri=True, timeout=2)
            try:
                return conn.execute(sql, tuple(params)).fetchall()
            finally:
                conn.close()
        import psycopg

        quoted = '"' + self.where.schema.replace('"', '""') + '"'
        with psycopg.connect(self.where.conninfo, autocommit=True, connect_timeout=2,
                             options=f"-c search_path={quoted} -c statement_timeout=2000"
                             ) as pg:  # fmt: skip
            return list(pg.execute(sql.replace("?", "%s"), tuple(params)).fetchall())


class CommandRate:
    """Commands per second from the outcomes' ``sequence`` at successive looks (an index read,
    never a count of the table), over the last ``RATE_WINDOW`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.samples: collections.deque[tuple[float, int]] = collections.deque(maxlen=64)

    def figure(self, look: StoreLook) -> Figure:
        ((last,),) = look.rows("SELECT max(sequence) FROM command_outcomes")
        now, last = self.clock(), int(last or 0)
        self.samples.append((now, last))
        while len(self.samples) > 2 and now - self.samples[1][0] >= RATE_WINDOW:
            self.samples.popleft()
        first_at, first = self.samples[0]
        if now - first_at <= 0:
            return Figure(key="commands", label="commands per second", value="…", state="unknown",
                          detail="measured from the second look on")  # fmt: skip
        counts = dict(look.rows("SELECT status, count(*) FROM command_outcomes WHERE sequence > ?"
                                " GROUP BY status", (first,)))  # fmt: skip
        rate = (last - first) / (now - first_at)
        refused = int(counts.get("refused", 0))
        detail = f"{refused} of {last - first} refused in the last {now - first_at:.0f} s"
        return Figure(key="commands", label="commands per second", value=f"{rate:.1f}",
                      state="ok", detail=detail)  # fmt: skip


def queue_depths(settings: Settings) -> dict[str, int] | None:
    """Messages waiting in each queue: Redis's lists, or this process's memory transport
    (None: a memory:// broker in another process, which no one else can see)."""
    if settings.embedded:
        from kombu.transport import memory

        queues: dict[str, Any] = memory.Channel.queues
        return {q.value: sum(v.qsize() for k, v in list(queues.items()) if k == q.value)
                for q in QueueNames}  # fmt: skip
    import redis

    client = redis.Redis.from_url(settings.broker_url, socket_timeout=1, socket_connect_timeout=1)
    try:
        with client.pipeline(transaction=False) as pipe:
            for q in QueueNames:  # kombu keeps priorities 3, 6, 9 in lists of their own
                for suffix in ("", "\x06\x163", "\x06\x166", "\x06\x169"):
                    pipe.llen(f"{settings.key_prefix}{q.value}{suffix}")
            counts = pipe.execute()
    finally:
        client.close()
    return {q.value: sum(counts[n * 4:(n + 1) * 4]) for n, q in enumerate(QueueNames)}


def queue_figure(depths: dict[str, int] | None) -> Figure:
    if depths is None:
        return Figure(key="queue", label="queue depth", value="–", state="unknown",
                      detail="the memory:// broker of another process")  # fmt: skip
    waiting = depths.get(QueueNames.commands.value, 0)
    state: State = "red" if waiting >= QUEUE_RED else "warn" if waiting >= QUEUE_WARN else "ok"
    detail = ", ".join(f"{name} {n}" for name, n in depths.items())
    return Figure(key="queue", label="queue depth", value=str(waiting), state=state, detail=detail)


def timer_figure(look: StoreLook, now: float | None = None) -> Figure:
    """Timers past their due time (a timekeeper fires each within milliseconds) and how late
    the oldest of them is."""
    if look.sqlite:
        moment = time.time() if now is None else now
        ((due, late),) = look.rows("SELECT count(*), ? - min(due_at) FROM timers WHERE due_at <= ?",
                                   (moment, moment))  # fmt: skip
    else:
        ((due, late),) = look.rows("SELECT count(*), EXTRACT(EPOCH FROM now() - min(due_at))"
                                   " FROM timers WHERE due_at <= now()")  # fmt: skip
    late = float(late or 0.0)
    state: State = ("red" if late >= TIMER_LATE_RED else "warn" if late >= TIMER_LATE_WARN
                    else "ok")  # fmt: skip
    detail = f"{due} due, the oldest {late:.1f} s late" if due else "none due"
    return Figure(key="timers", label="timer lateness", value=f"{late:.1f} s", state=state,
                  detail=detail)  # fmt: skip


def lag_figure(db: ProjectionDB, store: EventStore) -> Figure:
    """The most any projection's live build is behind the store's head; stopped ones named."""
    found = operations.status(db, store, catalog.ALL)
    stopped = [s.name for s in found if s.state in ("stopped", "not built")]
    lags = [s.lag for s in found if s.lag is not None]
    worst = max(lags, default=0)
    state: State = "red" if stopped or worst >= LAG_RED else "warn" if worst >= LAG_WARN else "ok"
    behind = [f"{s.name} {s.lag}" for s in found if s.lag]
    detail = "; ".join(([f"stopped or not built: {', '.join(stopped)}"] if stopped else [])
                       + ([f"behind: {', '.join(behind)}"] if behind else [])) or "all caught up"  # fmt: skip
    return Figure(key="lag", label="projector lag", value=str(worst), state=state, detail=detail)


def webhook_figure(look: StoreLook) -> Figure:
    """Deliveries set aside (failed for the last time: ``paiju webhooks``) and retrying (on
    the outbox's partial indexes)."""
    ((aside,),) = look.rows("SELECT count(*) FROM webhook_deliveries WHERE status = 'set_aside'")
    ((retrying,),) = look.rows("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'"
                               " AND attempts > 0")  # fmt: skip
    last = look.rows("SELECT event_type, last_status, last_error FROM webhook_deliveries"
                     " WHERE status = 'set_aside' ORDER BY position DESC LIMIT 1")  # fmt: skip
    state: State = "red" if aside else "warn" if retrying else "ok"
    detail = f"{aside} set aside, {retrying} retrying"
    if last:
        kind, status, error = last[0]
        detail += f"; last set aside: {kind} ({status or 'no answer'}: {error or ''})"
    return Figure(key="webhooks", label="webhook failures", value=str(aside), state=state,
                  detail=detail)  # fmt: skip


# -- the snapshot -------------------------------------------------------------------------------
class Dashboard:
    """One per API process: the snapshot every viewer shares, read again when the store's head
    moved (at most every ``fresh`` seconds) or when it is ``stale`` seconds old."""

    def __init__(self, settings: Settings, store: EventStore, db: Callable[[], ProjectionDB],
                 fresh: float = 0.25, stale: float = 1.0) -> None:  # fmt: skip
        self.settings, self.store, self.db = settings, store, db
        self.look, self.rate = StoreLook(settings.store_url), CommandRate()
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

    def _head(self) -> int:
        return operations.head_of(self.store)

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
            panel("queue", lambda: queue_figure(queue_depths(self.settings)), None),
            panel("timers", lambda: timer_figure(self.look), None),
            panel("lag", lambda: lag_figure(db, self.store), None),
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
