"""The platform's routes (an API key): open a table, deal a hand, mint table tokens."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from events.envelope import Actor
from events.limits import MAX_TOKEN_SECONDS, MIN_TOKEN_SECONDS
from services.api.answers import outcome_schema
from services.api.auth import Ctx, TablesKey, TokensKey, forbidden
from services.api.bodies import TableOpening
from services.api.commands import CommandIdHeader, IfMatch, dispatch
from services.api.context import ApiContext
from services.api.problems import Problem
from services.api.table_seating import hold_players, released_if_refused
from services.api.tables import TableId, loaded_table
from services.api.wire import MintedToken
from services.rules.table.commands import StartHand
from services.tables.command_ids import Sender

router = APIRouter(prefix="/v1", tags=["platform"])
SeatNumber = Annotated[int, Path(ge=0, le=3, description="The seat, 0-3")]


class SeatTokenRequest(BaseModel):
    player: str = Field(min_length=1, max_length=128, description="The player at the seat")
    seconds: int | None = Field(default=None, ge=MIN_TOKEN_SECONDS, le=MAX_TOKEN_SECONDS,
                                 description="Lifetime (s)")


class ViewTokenRequest(BaseModel):
    role: Literal["spectator", "operator"]
    subject: str = Field(min_length=1, max_length=128, description="Who watches (for the logs)")
    seconds: int | None = Field(default=None, ge=MIN_TOKEN_SECONDS, le=MAX_TOKEN_SECONDS)


@router.post("/tables", responses=outcome_schema(opens=True), summary="Open a table (OpenTable)")
async def open_table(
    command: Annotated[TableOpening, Body()],
    command_id: CommandIdHeader,
    key: TablesKey,
    ctx: Ctx,
) -> JSONResponse:
    await hold_players(ctx, command)  # decision 18: one table per player (409 naming both)
    answer = await dispatch(ctx, command.table_id, command, sender=Sender.api_key(key.key_id),
                            key=command_id, actor=Actor.system(), route="open_table")  # fmt: skip
    return await released_if_refused(ctx, command, answer)


@router.post("/tables/{table_id}/hands", responses=outcome_schema(), summary="Deal the next hand")
async def deal(
    table_id: TableId,
    command_id: CommandIdHeader,
    if_version: IfMatch,
    key: TablesKey,
    ctx: Ctx,
) -> JSONResponse:
    return await dispatch(ctx, table_id, StartHand(), sender=Sender.api_key(key.key_id),
                          key=command_id, actor=Actor.system(), route="deal",
                          if_version=if_version)  # fmt: skip


def _mint(ctx: ApiContext, role: Literal["seat", "spectator", "operator"], table_id: str,
          subject: str, seconds: int | None, seat: int | None = None) -> MintedToken:  # fmt: skip
    lifetime = min(seconds or ctx.settings.api_token_seconds, ctx.settings.api_token_seconds)
    token, claims = ctx.signer.mint(role, table_id, subject, lifetime, seat)
    return MintedToken(token=token, role=role, table_id=table_id, seat=seat, subject=subject,
                       expires_at=claims.expires_at)  # fmt: skip


@router.post("/tables/{table_id}/seats/{seat}/tokens", summary="Mint a seat token for its player")
async def seat_token(
    table_id: TableId,
    seat: SeatNumber,
    request: SeatTokenRequest,
    key: TokensKey,
    ctx: Ctx,
) -> MintedToken:
    table = await run_in_threadpool(loaded_table, ctx, table_id)
    if table.players[seat] != request.player:
        raise Problem(409, "Not this seat's player",
                      f"seat {seat} of table {table_id} is {table.players[seat]!r}, not {request.player!r}")  # fmt: skip
    return _mint(ctx, "seat", table_id, request.player, request.seconds, seat)


@router.post("/tables/{table_id}/tokens", summary="Mint a spectator or operator token")
async def view_token(
    table_id: TableId,
    request: ViewTokenRequest,
    key: TokensKey,
    ctx: Ctx,
) -> MintedToken:
    if request.role == "operator" and "operator" not in key.scopes:
        raise forbidden(f"the API key {key.key_id} lacks the 'operator' scope for operator tokens")
    await run_in_threadpool(loaded_table, ctx, table_id)
    return _mint(ctx, request.role, table_id, request.subject, request.seconds)
