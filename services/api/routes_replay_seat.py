"""The replay viewer's "as seat N saw it": one hand, step by step, as that seat's live stream
showed it, with what it could do and its rulings at each step (``services.tables.seat_frames``:
the live streams' own redaction, never one of the viewer's).

    GET /v1/ops/replay/tables/{table}/hands/{hand}/seats/{seat}

Who may look: as every replay route (``routes_replay.operator_of``): an ``operator`` API key
or an operator token of that table. A seat's frames hold no more than its stream did, but
which table and hand a dispute is about is for support to choose, not for a seat to read.
"""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from services.api.auth import Ctx
from services.api.context import ApiContext
from services.api.problems import PROBLEM_SCHEMA, Problem
from services.api.routes_platform import SeatNumber
from services.api.routes_replay import HandNumber, OperatorOf, _events
from services.api.tables import TableId
from services.tables.frames import NoSuchHand
from services.tables.seat_frames import SeatReplay, seat_frames

router = APIRouter(tags=["replay"], responses={401: PROBLEM_SCHEMA, 403: PROBLEM_SCHEMA})


def _seat_hand(ctx: ApiContext, table_id: str, hand: int, seat: int) -> SeatReplay:
    events = _events(ctx, table_id)
    try:
        return seat_frames(ctx.store, events, hand, seat)
    except NoSuchHand as error:
        raise Problem(404, "No such hand", f"table {table_id!r}: {error}") from None


@router.get("/v1/ops/replay/tables/{table_id}/hands/{hand}/seats/{seat}",
            dependencies=[OperatorOf], response_model=SeatReplay,
            responses={404: PROBLEM_SCHEMA, 409: PROBLEM_SCHEMA, 422: PROBLEM_SCHEMA},
            summary="One hand as a seat saw it: its stream's events, view, options, rulings")  # fmt: skip
async def seat_replay(table_id: TableId, hand: HandNumber, seat: SeatNumber, ctx: Ctx) -> SeatReplay:
    """Step by step, the same versions as ``…/hands/{hand}``: each event as the seat's stream
    sent it, the seat's view after it, its legal commands and wait, and its rulings (its
    waits, why no 听, each claim offered or not and why)."""
    return await run_in_threadpool(_seat_hand, ctx, table_id, hand, seat)
