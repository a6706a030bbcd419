"""Rulings explained to a seat (its token, its own seat only): its waits and what each would
score, and the rule that keeps 听, a claim or a win from it (``services.rules.table.rulings``)."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from services.api.auth import Ctx, Token, for_seat
from services.api.routes_platform import SeatNumber
from services.api.tables import TableId, loaded_table
from services.rules.table.rulings import Rulings, rulings

router = APIRouter(prefix="/v1", tags=["seats"])


@router.get("/tables/{table_id}/seats/{seat}/rulings",
            summary="The seat's waits, what each would score, and what blocks 听, claims, wins")  # fmt: skip
async def seat_rulings(table_id: TableId, seat: SeatNumber, token: Token, ctx: Ctx) -> Rulings:
    """Only from what the seat may see: no other seat's hidden tiles, no 宝 before its 听."""
    for_seat(token, table_id, seat)
    table = await run_in_threadpool(loaded_table, ctx, table_id)
    return await run_in_threadpool(rulings, table, seat)
