"""Live tables and rooms as the API will serve them, paged (``readmodels.queries``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from readmodels.db import ProjectionDB
from readmodels.live_tables import LIVE, LIVE_PLAYERS, LiveTables
from readmodels.queries import (
    DEFAULT_PAGE_SIZE,
    Page,
    QueryError,
    View,
    page_window,
    paged,
    query,
)
from readmodels.rooms import FORMING, ROOMS, Rooms
from readmodels.sql import table_name

LIVE_PROJECTION, ROOMS_PROJECTION = LiveTables(), Rooms()


class SeatShown(BaseModel):
    seat: int
    player: str
    autoplay: str | None  # 托管: requested (主动) | timeout (超时) | None
    connected: bool
    left: bool
    back_by: str | None  # a dropped seat's reconnect grace ends then


class LiveTable(BaseModel):
    table_id: str
    variant: str
    room: str
    base_stake: int
    timing: dict[str, int]
    live: bool
    status: str  # opened | playing | between_hands | ended | dissolved | closed
    series_number: int
    hand_number: int
    dealer: int | None
    waiting: str  # turn | autoplay_window | claim | "" (nothing: the system moves)
    waiting_seats: list[int]
    wait_seconds: int | None
    wait_until: str | None
    seats: list[SeatShown]
    last_position: int
    updated_at: str


class Room(BaseModel):
    room: str
    tables_in_play: int
    players_seated: int
    tables_waiting: int  # its forming table, while it has a free seat (0 or 1)
    players_waiting: int = 0  # seated at its forming table
    last_position: int


class WaitingTable(BaseModel):
    """A room's forming table, waiting for players: who sits where, the free seats, who is
    准备, and the room's settings a player is seated under."""

    room: str
    table_id: str
    seats: list[str | None]
    free_seats: list[int]
    ready: list[int]
    variant: str
    base_stake: int
    minimum_points: int
    last_position: int


def table_of(row: dict[str, Any]) -> LiveTable:
    """A stored row as it is read: each seat with its player; what the derivation
    remembers (``play``) left out."""
    seats = [
        SeatShown(seat=n, player=player, **{k: seat.get(k) for k in
                                            ("autoplay", "connected", "left", "back_by")})
        for n, (player, seat) in enumerate(zip(row["players"], row["seats"], strict=True))
    ]  # fmt: skip
    shown = {k: v for k, v in row.items() if k not in ("play", "players", "seats")}
    return LiveTable.model_validate({**shown, "seats": seats})


STATES = ("live", "ended", "all")
"""``live``: in play (a series going on); ``ended``: its series ended, dissolved or closed (for
good, or until a next series' deal); ``all``: both."""
MAX_SEARCH_CHARS = 128


def _search(name: str, value: str | None) -> None:
    if value is not None and not (isinstance(value, str) and 0 < len(value) <= MAX_SEARCH_CHARS):
        raise QueryError(f"{name} is 1 to {MAX_SEARCH_CHARS} characters, not {value!r}")


def live_tables(
    db: ProjectionDB, room: str | None = None, variant: str | None = None, page: int = 1,
    size: int = DEFAULT_PAGE_SIZE, *, state: str = "live", table_prefix: str | None = None,
    player: str | None = None, min_position: int | None = None,
) -> Page[LiveTable]:  # fmt: skip
    """The tables by table id: those in play (``state``: or ended, or all); in one room, of one
    variant, whose id begins with ``table_prefix``, where ``player`` sits, if given."""
    page_window(page, size)
    if state not in STATES:
        raise QueryError(f"state is one of {', '.join(STATES)}, not {state!r}")
    _search("table_prefix", table_prefix)
    _search("player", player)
    where: dict[str, object] = {} if state == "all" else {"live": int(state == "live")}
    if room is not None:
        where["room"] = room
    if variant is not None:
        where["variant"] = variant

    def answer(view: View) -> Page[LiveTable]:
        m, also = view.rows.mark, []
        if table_prefix is not None:  # by characters, as stored: no LIKE and its wildcards
            also.append((f"substr(table_id, 1, {len(table_prefix)}) = {m}", [table_prefix]))
        if player is not None:
            players = table_name(LIVE_PLAYERS, view.build)
            also.append((f"table_id IN (SELECT table_id FROM {players} WHERE player = {m})",
                         [player]))  # fmt: skip
        found, more = paged(view, LIVE.name, where, ("table_id",), page, size, also)
        return Page[LiveTable](items=[table_of(r) for r in found], page=page, size=size,
                               more=more, position=view.position)  # fmt: skip

    return query(db, LIVE_PROJECTION, answer, min_position=min_position)


def live_table(
    db: ProjectionDB, table_id: str, *, min_position: int | None = None
) -> LiveTable | None:
    """One table as last seen, listed or not (its ``status`` says: ended, dissolved …)."""

    def answer(view: View) -> LiveTable | None:
        row = view.rows.get(LIVE.name, {"table_id": table_id})
        return table_of(row) if row is not None else None

    return query(db, LIVE_PROJECTION, answer, min_position=min_position)


def rooms(
    db: ProjectionDB, page: int = 1, size: int = DEFAULT_PAGE_SIZE, *,
    min_position: int | None = None,
) -> Page[Room]:  # fmt: skip
    """Every room that has had a table, by name ("" holds the tables opened with no room)."""
    page_window(page, size)

    def answer(view: View) -> Page[Room]:
        found, more = paged(view, ROOMS.name, {}, ("room",), page, size)
        return Page[Room](items=[Room.model_validate(r) for r in found], page=page, size=size,
                          more=more, position=view.position)  # fmt: skip

    return query(db, ROOMS_PROJECTION, answer, min_position=min_position)


def room(db: ProjectionDB, name: str, *, min_position: int | None = None) -> Room | None:
    def answer(view: View) -> Room | None:
        row = view.rows.get(ROOMS.name, {"room": name})
        return Room.model_validate(row) if row is not None else None

    return query(db, ROOMS_PROJECTION, answer, min_position=min_position)


def _waiting(row: dict[str, Any]) -> WaitingTable:
    return WaitingTable.model_validate({k: v for k, v in row.items() if k not in ("number", "waiting")})


def waiting_tables(
    db: ProjectionDB, room: str | None = None, page: int = 1, size: int = DEFAULT_PAGE_SIZE, *,
    min_position: int | None = None, full_too: bool = False,
) -> Page[WaitingTable]:  # fmt: skip
    """The rooms' forming tables with a free seat (every one, ``full_too``), by room (one
    room's, if given)."""
    page_window(page, size)
    where: dict[str, object] = {} if full_too else {"waiting": 1}
    if room is not None:
        where["room"] = room

    def answer(view: View) -> Page[WaitingTable]:
        found, more = paged(view, FORMING.name, where, ("room",), page, size)
        return Page[WaitingTable](items=[_waiting(r) for r in found], page=page, size=size,
                                  more=more, position=view.position)  # fmt: skip

    return query(db, ROOMS_PROJECTION, answer, min_position=min_position)


def forming_table(
    db: ProjectionDB, room: str, *, min_position: int | None = None
) -> WaitingTable | None:
    """A room's forming table, full or not (None for a room never configured)."""

    def answer(view: View) -> WaitingTable | None:
        row = view.rows.get(FORMING.name, {"room": room})
        return _waiting(row) if row is not None else None

    return query(db, ROOMS_PROJECTION, answer, min_position=min_position)
