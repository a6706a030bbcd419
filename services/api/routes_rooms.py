"""Rooms and seating (decision 18), and the platform's point grants and top-ups.

Every route takes a platform API key with the ``tables`` scope: the platform acts for its
player (named in the path), as it does when it opens tables and mints seat tokens; a player's
client holds no API key, and no seat token exists before its table does. Routes (no body
unless said):

- ``PUT /v1/rooms/{room}`` body ``RoomSettings`` (``variant``, ``base_stake`` 底注,
  ``minimum_points``, ``turn_seconds``, ``claim_seconds``, ``options``): create or change a
  room (a change applies to its next table) → ``RoomView``;
- ``GET /v1/rooms?room=&waiting=true&page=&size=&min_position=`` → the forming tables (read
  model; ``min_position`` from a join's answer reads one's own write);
- ``POST /v1/rooms/{room}/players/{player}/join`` | ``/leave`` | ``/ready`` → ``Seating``: the
  player's ``table_id`` and ``seat``, and ``started``. The fourth ``ready`` opens the table
  and deals its first hand before answering ``started: true``; then the platform mints the
  seat's token with ``POST /v1/tables/{table_id}/seats/{seat}/tokens``. Each is safe to send
  again (joined, left or ready already: the same answer);
- ``POST /v1/players/{player}/points`` body ``{"amount", "kind": grant|top_up|correction,
  "reason"}`` with ``Idempotency-Key`` (the change's id: sent twice, recorded once).

A refusal is a problem document whose ``type`` is ``/problems/<code with dashes>`` (as a
table command's, ``answers``), with the ``code`` and the facts it rests on: ``below_minimum``
(403, ``minimum_points`` and ``points``), ``seated_elsewhere`` (409, the ``table_id`` to return
to), ``table_full``, ``not_seated``, ``table_started`` (409, ``table_id``),
``idempotency_key_in_use`` (422: the key already names another change by this API key),
``room_not_found`` (404), ``invalid_input`` (422), ``position_not_reached`` (409: a
``min_position`` no write has yet), ``insufficient_points`` (409: a correction taking back more
than the player has); ``busy``,
``table_not_started`` and ``read_model_behind`` (503) may be sent again as they were.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from events import limits
from events.envelope import InvalidIdError
from events.store.base import CommandConflictError
from readmodels.queries import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, Page, ReadModelBehind
from readmodels.queries_tables import WaitingTable, waiting_tables
from services.accounts import AdjustmentBusy, AdjustmentConflict, AdjustmentError, adjust_points
from services.api.answers import problem_type
from services.api.auth import Ctx, TablesKey
from services.api.bodies import JsonBool, JsonInt, Seconds
from services.api.commands import CommandIdHeader
from services.api.context import ApiContext
from services.api.problems import MEDIA_TYPE, PROBLEM_REF
from services.rooms.room import RoomRefused, RoomState
from services.rooms.service import RoomBusy, RoomService
from services.rooms.starter import TableNotStarted
from services.rules.events.accounts import MAX_ADJUSTMENT
from services.rules.events.rooms import (
    MAX_POINTS,
    PLAYER_ID_PATTERN,
    ROOM_ID_PATTERN,
    RoomConfigured,
)
from services.tables.command_ids import Sender, client_command_id
from workers.room_starter import QueuedStarter

router = APIRouter(prefix="/v1", tags=["rooms"])
RoomId = Annotated[str, Path(pattern=ROOM_ID_PATTERN, description="The room's id",
                            openapi_examples={"lobby": {"value": "lobby"}})]  # fmt: skip
PlayerId = Annotated[str, Path(pattern=PLAYER_ID_PATTERN, description="The platform's player id",
                               openapi_examples={"ann": {"value": "ann"}})]  # fmt: skip
Action = Annotated[Literal["join", "leave", "ready"], Path(description="join, leave or ready")]
SETTINGS_EXAMPLE = {"harbin": {"value": {"variant": "harbin", "base_stake": 2, "minimum_points": 0,
                                         "turn_seconds": 20, "claim_seconds": 8}}}  # fmt: skip
POINTS_EXAMPLE = {"grant": {"value": {"amount": 500, "kind": "grant", "reason": "welcome"}}}
STATUS = {"room_not_found": 404, "below_minimum": 403, "invalid_input": 422, "busy": 503,
          "idempotency_key_in_use": 422,
          "table_not_started": 503, "read_model_behind": 503}  # fmt: skip
def _refused(status: int) -> dict[str, Any]:
    codes = [c for c in (*STATUS, *OTHER_CODES) if STATUS.get(c, 409) == status]
    types = ", ".join(f"`{problem_type(c)}`" for c in codes)
    return {"description": f"Refused, with its code: {types}",
            "content": {MEDIA_TYPE: {"schema": PROBLEM_REF}}}


OTHER_CODES = ("seated_elsewhere", "table_full", "not_seated", "table_started",
               "position_not_reached", "insufficient_points")  # fmt: skip
"""The refusals' codes answered 409 (``STATUS`` names the others)."""
REFUSED: dict[int | str, dict[str, Any]] = {status: _refused(status) for status in (403, 404, 409, 422, 503)}


class RoomSettings(BaseModel):
    """A room's settings: its variant, 底注, the 积分 a player needs, and seconds per turn and
    per claim window (the variant's own when left out); options switch the variant's rules."""

    # strict: a boolean is not a number (``minimum_points: false`` was stored as 0), nor 1.0
    variant: str = Field(min_length=1, max_length=32, examples=["harbin"])
    base_stake: JsonInt = Field(default=1, ge=1, le=limits.MAX_BASE_STAKE, description="底注")
    minimum_points: JsonInt = Field(default=0, ge=-MAX_POINTS, le=MAX_POINTS)
    turn_seconds: Seconds | None = None
    claim_seconds: Seconds | None = None
    options: dict[str, JsonBool] = Field(default_factory=dict, max_length=limits.MAX_OPTIONS)


class RoomView(BaseModel):
    room: str
    settings: dict[str, Any] | None
    table_id: str = Field(description="The forming table")
    seats: list[str | None]
    ready: list[int]
    free_seats: list[int]
    started: list[str] = Field(description="The tables this room started, oldest first")
    version: int


class Seating(BaseModel):
    """Where the player is now: at the forming table (``started`` false) or at the table the
    room started with them (``started`` true: mint its seat token). ``forming`` is that same
    table (``table_id``): as it forms, or as it started (its four seated and ready); for a
    player seated nowhere, the room's forming table."""

    room: str
    player: str
    table_id: str | None
    seat: int | None
    ready: bool
    started: bool
    forming: RoomView = Field(description="The table the player sits at (table_id), as it forms"
                                          " or as it started; else the room's forming table")


class PointsChange(BaseModel):
    """A grant or a top-up adds points (an amount above 0); a correction adds or takes back."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [
        {"properties": {"kind": {"enum": ["grant", "top_up"]}, "amount": {"minimum": 1}}},
        {"properties": {"kind": {"const": "correction"}}, "required": ["kind"]},
    ]})  # fmt: skip
    amount: JsonInt = Field(ge=-MAX_ADJUSTMENT, le=MAX_ADJUSTMENT, description="Not 0",
                            json_schema_extra={"not": {"const": 0}})  # 0 changes nothing
    kind: Literal["grant", "top_up", "correction"] = "grant"
    reason: str = Field(default="", max_length=200)


class PointsChanged(BaseModel):
    player: str
    amount: int
    kind: str
    version: int = Field(description="The version of the player's stream")
    position: int = Field(description="Pass as min_position to read the balance")


def refusal(code: str, reason: str, **facts: Any) -> JSONResponse:
    status = STATUS.get(code, 409)
    body = {"type": problem_type(code), "title": code.replace("_", " "), "status": status,
            "detail": reason, "code": code, **facts}  # fmt: skip
    again = {"Retry-After": "1"} if status == 503 else None  # busy: the same request again
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=again)


def rooms_of(ctx: ApiContext) -> RoomService:
    return RoomService(ctx.store, QueuedStarter(ctx.app, ctx.store, ctx.settings.api_command_wait))


def seating(state: RoomState, player: str) -> Seating:
    seat = state.seat_of(player)
    playing = state.playing.get(player)
    started = seat is None and playing is not None and playing == (state.started or ("",))[-1]
    view = state.view()
    if started:  # the table it started at, not the room's next one (issue 25)
        assert playing is not None
        at = sorted((n, p) for p, n in state.started_seats.items() if state.playing.get(p) == playing)
        view |= {"table_id": playing, "seats": [p for _, p in at], "ready": [n for n, _ in at],
                 "free_seats": []}  # fmt: skip
    return Seating(
        room=state.room, player=player, table_id=state.table_id if seat is not None else playing,
        seat=seat if seat is not None else _started_seat(state, player) if started else None,
        ready=started or (seat is not None and seat in state.ready), started=started,
        forming=RoomView(**view),
    )  # fmt: skip


def _started_seat(state: RoomState, player: str) -> int | None:
    return state.started_seats.get(player)


async def run(ctx: ApiContext, action: str, room: str, player: str) -> Any:
    service = rooms_of(ctx)
    try:
        state = await run_in_threadpool(getattr(service, action), room, player)
    except InvalidIdError as error:
        return refusal("invalid_input", str(error))
    except RoomRefused as refused:
        return refusal(refused.code, refused.reason, **refused.facts)
    except RoomBusy as busy:
        return refusal("busy", str(busy))
    except TableNotStarted as error:
        return refusal("table_not_started", f"{error}; send ready again to finish opening it")
    return seating(state, player)


@router.put("/rooms/{room}", summary="Create or change a room (its next table uses the change)",
            responses=REFUSED, response_model=RoomView)  # fmt: skip
async def configure(room: RoomId, settings: Annotated[RoomSettings, Body(openapi_examples=SETTINGS_EXAMPLE)], key: TablesKey,
                    ctx: Ctx) -> Any:  # fmt: skip
    try:
        configured = RoomConfigured(room=room, **settings.model_dump())
        state = await run_in_threadpool(rooms_of(ctx).configure, configured)
    except ValidationError as error:
        return refusal("invalid_input", str(error.errors()[0]["msg"]))
    except RoomRefused as refused:
        return refusal(refused.code, refused.reason, **refused.facts)
    except RoomBusy as busy:
        return refusal("busy", str(busy))
    return RoomView(**state.view())


@router.get("/rooms", response_model=Page[WaitingTable], responses=REFUSED,
            summary="The rooms' forming tables (read model): seats, free seats, settings")  # fmt: skip
async def list_rooms(
    key: TablesKey, ctx: Ctx, page: Annotated[int, Query(ge=1, le=limits.MAX_PAGE)] = 1,
    size: Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE)] = DEFAULT_PAGE_SIZE,
    waiting: Annotated[bool, Query(description="Only tables with a free seat")] = False,
    room: Annotated[str | None, Query(pattern=ROOM_ID_PATTERN, description="Only this room")] = None,
    min_position: Annotated[int | None, Query(ge=0, le=limits.MAX_POSITION)] = None,
) -> Any:  # fmt: skip
    last = await run_in_threadpool(lambda: ctx.store.last_position())  # type: ignore[attr-defined]
    if min_position is not None and min_position > last:
        return refusal("position_not_reached", f"min_position {min_position} is beyond the"
                       f" store's last position {last}: no write has it")  # fmt: skip
    try:
        return await run_in_threadpool(
            lambda: waiting_tables(ctx.read_models(), room, page, size, min_position=min_position,
                                   full_too=not waiting))  # fmt: skip
    except ReadModelBehind as behind:
        return refusal("read_model_behind", str(behind))


@router.post("/rooms/{room}/players/{player}/{action}", responses=REFUSED, response_model=Seating,
             summary="A player's join (seated at the forming table's first free seat), leave "
                     "(before the start) or ready (准备: the fourth starts the table, opened and "
                     "dealt); no body")  # fmt: skip
async def seat_action(room: RoomId, player: PlayerId, action: Action, key: TablesKey,
                      ctx: Ctx) -> Any:  # fmt: skip
    return await run(ctx, action, room, player)


@router.post("/players/{player}/points", responses=REFUSED, response_model=PointsChanged,
             summary="Grant, top up or correct a player's 积分 (Idempotency-Key: the change's id)")  # fmt: skip
async def change_points(player: PlayerId, change: Annotated[PointsChange, Body(openapi_examples=POINTS_EXAMPLE)],
                        command_id: CommandIdHeader, key: TablesKey,
                        ctx: Ctx) -> Any:  # fmt: skip
    try:
        recorded = await run_in_threadpool(
            lambda: adjust_points(ctx.store, player, change.amount, change.kind,
                                  reason=change.reason,
                                  command_id=client_command_id(Sender.api_key(key.key_id), command_id)))  # fmt: skip
    except AdjustmentConflict as error:
        return refusal("insufficient_points", str(error))
    except AdjustmentBusy as error:
        return refusal("busy", str(error))
    except AdjustmentError as error:
        return refusal("invalid_input", str(error))
    except CommandConflictError as error:
        return refusal("idempotency_key_in_use", str(error))
    payload = recorded.payload
    return PointsChanged(player=player, amount=payload["amount"], kind=payload["kind"],
                         version=recorded.version, position=recorded.position)  # fmt: skip
