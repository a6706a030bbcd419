"""Decision 18 on ``POST /v1/tables``: the players are held before the table is opened (one
table per player, ``services.rooms.platform``), and released if the table refuses to open."""

from __future__ import annotations

import json

from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from services.api.answers import problem_type
from services.api.context import ApiContext
from services.api.problems import MEDIA_TYPE, Problem
from services.api.routes_rooms import rooms_of
from services.rooms.platform import PlatformSeating
from services.rooms.room import RoomRefused
from services.rooms.service import RoomBusy
from services.rules.table.commands import OpenTable


async def hold_players(ctx: ApiContext, command: OpenTable) -> None:
    """Hold the table's players for it, or refuse: 409 naming the player and the table they
    are seated at, nothing held."""
    seating = PlatformSeating(rooms_of(ctx))
    try:
        await run_in_threadpool(seating.seat, command.table_id, command.players)
    except RoomRefused as refused:
        raise Problem(409, "Seated elsewhere", refused.reason,
                      extensions={"type": problem_type(refused.code), "code": refused.code,
                                  **refused.facts}) from None  # fmt: skip
    except RoomBusy as busy:
        raise Problem(503, "Busy", str(busy), {"Retry-After": "1"},
                      {"type": problem_type("busy"), "code": "busy"}) from None


async def released_if_refused(ctx: ApiContext, command: OpenTable,
                              answer: JSONResponse) -> JSONResponse:  # fmt: skip
    """``answer``, once the players are released if it is the table's refusal to open (a
    problem document with the refused outcome)."""
    refused = answer.media_type == MEDIA_TYPE and "outcome" in json.loads(bytes(answer.body))
    if refused:
        seating = PlatformSeating(rooms_of(ctx))
        await run_in_threadpool(seating.release_unopened, command.table_id, command.players)
    return answer
