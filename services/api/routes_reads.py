"""Reads of the read models: 积分 and history, 等级分 and 称号, 排行榜, statistics, live
tables, rooms and penalties; every list paged (``page`` from 1, ``size`` 1-200).

Who may read what: an API key with the ``reads`` scope reads everything (the platform's
lobby, support). A seat token reads what is its player's own: their points and history,
levels, statistics, penalties and their line on a board, and the live row of its own table
(so does a spectator or operator token of that table). Boards, a variant's statistics, the
list of live tables, rooms and a table's penalties are the platform's (an API key).

Read-your-writes: ``min_position`` (a command outcome's ``last_position``) waits at most
``wait`` seconds for the read model to reach it; a read model still behind then (or stopped,
or never built) answers 503 with ``Retry-After``, naming how far behind it is. A position
beyond the store's last is a 409 at once: well formed, but no write has it yet (the store's
state, not the request's shape), so waiting would not bring it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Literal, TypeVar, get_args

from fastapi import APIRouter, Depends, Path, Query
from starlette.concurrency import run_in_threadpool

from events.envelope import ID_IN_PATH_PATTERN
from events.limits import MAX_PAGE, MAX_POSITION, MAX_READ_WAIT_SECONDS
from readmodels import points_queries, queries_boards, queries_stats, queries_tables
from readmodels.base import Projection
from readmodels.leaderboards import Leaderboards
from readmodels.levels import Levels
from readmodels.penalties import Penalties
from readmodels.points_queries import Balance, HistoryLine
from readmodels.queries import MAX_PAGE_SIZE, Page, QueryError, ReadModelBehind, wait_for
from readmodels.queries_boards import BoardEntry, Level, PenaltyRecord
from readmodels.queries_stats import Stats
from readmodels.queries_tables import LiveTable, Room
from services.api.auth import Credentials, Ctx, forbidden, table_token, verify_key
from services.api.context import ApiContext
from services.api.keys import PREFIX
from services.api.problems import PROBLEM_SCHEMA, Problem
from services.api.tables import TableId
from services.api.tokens import TableToken
from services.tables.partitions import split_position

router = APIRouter(prefix="/v1/reads", tags=["reads"], responses={503: PROBLEM_SCHEMA})
T = TypeVar("T")
RETRY_AFTER_SECONDS = 1
_NO_CONTROL = r"^[^\x00-\x1f\x7f]+$"  # a name is text: no NUL (PostgreSQL refuses it), no controls

Player = Annotated[str, Path(min_length=1, max_length=128, pattern=_NO_CONTROL,
                             description="The player's id, as the platform names them")]  # fmt: skip
Variant = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[a-z0-9_-]+$",
                              description="A variant's id: harbin, mudanjiang, shandong …")]  # fmt: skip
RoomName = Annotated[str, Path(min_length=1, max_length=128, pattern=_NO_CONTROL)]
PageNumber = Annotated[int, Query(ge=1, le=MAX_PAGE, description="The page, from 1")]
PageSize = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="Items a page")]
MinPosition = Annotated[int | None, Query(
    ge=0, le=MAX_POSITION,
    description="Wait until the read model has reached this position (a command outcome's"
                " last_position; with tables in several stores it names the table's store"
                " too): read your own writes")]  # fmt: skip
Wait = Annotated[float, Query(ge=0, le=MAX_READ_WAIT_SECONDS,
                              description="Seconds to wait for min_position")]
RoomQuery = Annotated[str | None, Query(
    max_length=128, pattern=r"^[^\x00-\x1f\x7f]*$",
    description="The room's board ('' for tables opened without one); none: across every room")]  # fmt: skip
Period = Annotated[Literal["day", "week", "all"], Query(description="Which board")]
StatOrder = Literal["hands", "wins", "self_drawn_wins", "dealt_in", "best_fan", "best_points",
                    "escapes"]  # fmt: skip
assert get_args(StatOrder) == queries_stats.ORDERS, "the orders the query knows"
PeriodKey = Annotated[str | None, Query(
    max_length=16, pattern=queries_boards.KEY_PATTERN,
    description="The board's period by its key: 2026-12-02 (a day), 2026-W49 (a week), all;"
                " it names its period, so ``period`` is not needed with it. Default: now's"
                " key of ``period``")]  # fmt: skip


@dataclass(frozen=True)
class Reader:
    """Who reads: the platform (an API key with ``reads``) or a table token."""

    platform: bool
    token: TableToken | None = None

    def player(self, player: str) -> None:
        """Only the platform, or the seat token of this player, reads a player's own rows."""
        if self.platform:
            return
        assert self.token is not None
        if self.token.role != "seat" or self.token.subject != player:
            who = f"a {self.token.role} token" if self.token.role != "seat" else (
                f"the seat token of {self.token.subject!r}")  # fmt: skip
            raise forbidden(f"{who} reads only its own player's rows, not {player!r}'s")

    def table(self, table_id: str) -> None:
        if not self.platform:
            assert self.token is not None
            if self.token.table_id != table_id:
                raise forbidden(f"this token is for table {self.token.table_id!r}, not {table_id!r}")

    def only_platform(self, what: str) -> None:
        if not self.platform:
            raise forbidden(f"{what} are read with a platform API key with the 'reads' scope")


async def reader(credentials: Credentials, ctx: Ctx) -> Reader:
    raw = None if credentials is None else credentials.credentials
    if not raw:
        raise Problem(401, "Unauthorized", "reads need a platform API key with the 'reads' scope"
                      " (Authorization: Bearer pk_...) or a table token", {"WWW-Authenticate": "Bearer"})  # fmt: skip
    if raw.startswith(PREFIX):
        await verify_key(ctx, raw, "reads")
        return Reader(platform=True)
    return Reader(platform=False, token=table_token(credentials, ctx))


Who = Annotated[Reader, Depends(reader)]


def _read(ctx: ApiContext, projection: Projection, min_position: int | None, wait: float,
          call: Callable[..., T], *args: object, **kwargs: object) -> T:  # fmt: skip
    """``call`` on the read models once ``projection`` has reached ``min_position``."""
    db = ctx.read_models()
    if min_position is not None:
        partition, logs = split_position(min_position)[0], ctx.parts.logs()
        if partition not in logs:  # a merged position of a table store this deployment lacks
            raise Problem(409, "Position not reached",
                          f"min_position {min_position} names partition {partition}, which no"
                          " store of this deployment is: no write has reached it")  # fmt: skip
        head: int = logs[partition].last_position()  # type: ignore[attr-defined]
        if min_position > head:  # no write has it: waiting would not bring it
            raise Problem(409, "Position not reached",
                          f"min_position {min_position} is beyond the store's last position"
                          f" {head}: no write has reached it yet")  # fmt: skip
        wait_for(db, projection, min_position, wait)
    return call(db, *args, min_position=min_position, **kwargs)


async def read(ctx: ApiContext, projection: Projection, min_position: int | None, wait: float,
               call: Callable[..., T], *args: object, **kwargs: object) -> T:  # fmt: skip
    """The read, off the event loop; a read model behind is a 503, bad input a 422."""
    try:
        return await run_in_threadpool(_read, ctx, projection, min_position, wait, call, *args,
                                       **kwargs)  # fmt: skip
    except ReadModelBehind as behind:
        raise Problem(503, "Read model behind", str(behind),
                      {"Retry-After": str(RETRY_AFTER_SECONDS)}) from None  # fmt: skip
    except QueryError as error:
        raise Problem(422, "Invalid read", str(error)) from None


POINTS, LEVELS, BOARDS, PENALTIES = points_queries.POINTS, Levels(), Leaderboards(), Penalties()
STATS, LIVE, ROOMS = (queries_stats.STATS_PROJECTION, queries_tables.LIVE_PROJECTION,
                      queries_tables.ROOMS_PROJECTION)  # fmt: skip


# -- a player's own -----------------------------------------------------------------------------
@router.get("/players/{player}/points", summary="A player's 积分")
async def points(player: Player, who: Who, ctx: Ctx, min_position: MinPosition = None,
                 wait: Wait = 5.0) -> Balance:  # fmt: skip
    who.player(player)
    return await read(ctx, POINTS, min_position, wait, points_queries.balance, player)


@router.get("/players/{player}/points/history", summary="A player's 积分 history, newest first")
async def points_history(player: Player, who: Who, ctx: Ctx, page: PageNumber = 1,
                         size: PageSize = 50, min_position: MinPosition = None,
                         wait: Wait = 5.0) -> Page[HistoryLine]:  # fmt: skip
    who.player(player)
    return await read(ctx, POINTS, min_position, wait, points_queries.history, player, page, size)


@router.get("/players/{player}/levels", summary="A player's 等级分 and 称号 in every variant")
async def levels(player: Player, who: Who, ctx: Ctx, min_position: MinPosition = None,
                 wait: Wait = 5.0) -> list[Level]:  # fmt: skip
    who.player(player)
    return await read(ctx, LEVELS, min_position, wait, queries_boards.levels_of, player)


@router.get("/players/{player}/levels/{variant}", summary="A player's 等级分 and 称号 in a variant")
async def level(player: Player, variant: Variant, who: Who, ctx: Ctx,
                min_position: MinPosition = None, wait: Wait = 5.0) -> Level:  # fmt: skip
    who.player(player)
    return await read(ctx, LEVELS, min_position, wait, queries_boards.level, player, variant)


@router.get("/players/{player}/stats", summary="A player's statistics, one a variant")
async def player_stats(player: Player, who: Who, ctx: Ctx, page: PageNumber = 1,
                       size: PageSize = 50, min_position: MinPosition = None,
                       wait: Wait = 5.0) -> Page[Stats]:  # fmt: skip
    who.player(player)
    return await read(ctx, STATS, min_position, wait, queries_stats.player_stats, player, page,
                      size)  # fmt: skip


@router.get("/players/{player}/penalties", summary="Penalties charged to a player, newest first")
async def player_penalties(
    player: Player, who: Who, ctx: Ctx, page: PageNumber = 1, size: PageSize = 50,
    involved: Annotated[bool, Query(description="Also those that compensated the player")] = False,
    min_position: MinPosition = None, wait: Wait = 5.0,
) -> Page[PenaltyRecord]:  # fmt: skip
    who.player(player)
    return await read(ctx, PENALTIES, min_position, wait, queries_boards.penalties_of_player,
                      player, page, size, involved=involved)  # fmt: skip


def _board(period: str, key: str | None) -> tuple[str, str]:
    """The board's period and key: the key's own period when a key is given (a key names its
    period: a day's 2026-12-02 is no week's key), else now's key of ``period``."""
    if key is not None:
        return queries_boards.period_of_key(key), key
    return period, queries_boards.leaderboard_key(period, datetime.now(UTC))


@router.get("/leaderboards/{variant}/players/{player}", summary="A player's line on a 排行榜",
            responses={404: PROBLEM_SCHEMA})  # fmt: skip
async def board_entry(player: Player, variant: Variant, who: Who, ctx: Ctx, room: RoomQuery = None,
                      period: Period = "all", key: PeriodKey = None,
                      min_position: MinPosition = None, wait: Wait = 5.0) -> BoardEntry:  # fmt: skip
    who.player(player)
    period, key = _board(period, key)
    found = await read(ctx, BOARDS, min_position, wait, queries_boards.board_entry, variant, room,
                       period, key, player)  # fmt: skip
    if found is None:
        raise Problem(404, "Not on this board",
                      f"{player!r} has no line on the {period} board of {variant!r}"
                      + (" across every room" if room is None else f" in room {room!r}"))  # fmt: skip
    return found


# -- the platform's ---------------------------------------------------------------------------
@router.get("/leaderboards/{variant}",
            summary="A 排行榜: a variant's across every room (or one room's), for a period")  # fmt: skip
async def leaderboard(variant: Variant, who: Who, ctx: Ctx, room: RoomQuery = None,
                      period: Period = "all", key: PeriodKey = None, page: PageNumber = 1,
                      size: PageSize = 50, min_position: MinPosition = None,
                      wait: Wait = 5.0) -> Page[BoardEntry]:  # fmt: skip
    who.only_platform("boards")
    period, key = _board(period, key)
    return await read(ctx, BOARDS, min_position, wait, queries_boards.leaderboard, variant, room,
                      period, key, page, size)  # fmt: skip


@router.get("/stats/{variant}", summary="A variant's players by a statistic, most first")
async def variant_stats(
    variant: Variant, who: Who, ctx: Ctx,
    order: Annotated[StatOrder, Query(description="The statistic to rank by")] = "hands",
    page: PageNumber = 1, size: PageSize = 50, min_position: MinPosition = None, wait: Wait = 5.0,
) -> Page[Stats]:  # fmt: skip
    who.only_platform("a variant's statistics")
    return await read(ctx, STATS, min_position, wait, queries_stats.variant_stats, variant, order,
                      page, size)  # fmt: skip


Listed = Literal["live", "ended", "all"]
assert get_args(Listed) == queries_tables.STATES, "the states the query knows"


@router.get("/tables", summary="The tables in play (or ended, or all), by id; filtered, searched")
async def live_tables(
    who: Who, ctx: Ctx,
    room: Annotated[str | None, Query(max_length=128, pattern=r"^[^\x00-\x1f\x7f]*$")] = None,
    variant: Annotated[str | None, Query(max_length=32, pattern=r"^[a-z0-9_-]+$")] = None,
    state: Annotated[Listed, Query(
        description="live: in play; ended: its series ended, dissolved or closed; all")] = "live",
    table_prefix: Annotated[str | None, Query(
        min_length=1, max_length=128, pattern=ID_IN_PATH_PATTERN,
        description="Only tables whose id begins with this (no space, control or '/')")] = None,
    player: Annotated[str | None, Query(
        min_length=1, max_length=128, pattern=_NO_CONTROL,
        description="Only tables where this player sits")] = None,
    page: PageNumber = 1, size: PageSize = 50, min_position: MinPosition = None, wait: Wait = 5.0,
) -> Page[LiveTable]:  # fmt: skip
    who.only_platform("the live tables")
    return await read(ctx, LIVE, min_position, wait, queries_tables.live_tables, room, variant,
                      page, size, state=state, table_prefix=table_prefix, player=player)  # fmt: skip


@router.get("/tables/{table_id}", summary="One table as last seen (live, ended or dissolved)",
            responses={404: PROBLEM_SCHEMA})  # fmt: skip
async def live_table(table_id: TableId, who: Who, ctx: Ctx, min_position: MinPosition = None,
                     wait: Wait = 5.0) -> LiveTable:  # fmt: skip
    who.table(table_id)
    found = await read(ctx, LIVE, min_position, wait, queries_tables.live_table, table_id)
    if found is None:
        raise Problem(404, "No such table", f"the read model has no table {table_id!r}")
    return found


@router.get("/tables/{table_id}/penalties", summary="Penalties adjudicated at a table")
async def table_penalties(table_id: TableId, who: Who, ctx: Ctx, page: PageNumber = 1,
                          size: PageSize = 50, min_position: MinPosition = None,
                          wait: Wait = 5.0) -> Page[PenaltyRecord]:  # fmt: skip
    who.only_platform("a table's penalties")
    return await read(ctx, PENALTIES, min_position, wait, queries_boards.penalties_at_table,
                      table_id, page, size)  # fmt: skip


@router.get("/rooms", summary="Every room that has had a table, by name")
async def rooms(who: Who, ctx: Ctx, page: PageNumber = 1, size: PageSize = 50,
                min_position: MinPosition = None, wait: Wait = 5.0) -> Page[Room]:  # fmt: skip
    who.only_platform("rooms")
    return await read(ctx, ROOMS, min_position, wait, queries_tables.rooms, page, size)


@router.get("/rooms/{room}", summary="One room: tables in play, players seated",
            responses={404: PROBLEM_SCHEMA})  # fmt: skip
async def one_room(room: RoomName, who: Who, ctx: Ctx, min_position: MinPosition = None,
               wait: Wait = 5.0) -> Room:  # fmt: skip
    who.only_platform("rooms")
    found = await read(ctx, ROOMS, min_position, wait, queries_tables.room, room)
    if found is None:
        raise Problem(404, "No such room", f"no table has been opened in room {room!r}")
    return found
