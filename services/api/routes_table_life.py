"""A table's end, from the platform: close it after the hand in play (关桌), or dissolve it (网管解散).

``POST /v1/tables/{t}/close`` (an API key with ``tables``, which opens and deals): the hand in
play is played and settled, then the table closes and deals no other (``CloseTable``).
``POST /v1/tables/{t}/dissolve`` (an API key with ``operator``, or an operator token of the
table): the hand in play is abandoned, nothing paid (``DissolveTable``). Both go the way of
every command (an Idempotency-Key, the queue, the table service's decision); the route
decides no rule: a table already closed, or with nothing to dissolve, is refused by the rules.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from events.envelope import Actor
from services.api.answers import outcome_schema
from services.api.auth import (
    Credentials,
    Ctx,
    TablesKey,
    for_table,
    forbidden,
    table_token,
    verify_key,
)
from services.api.commands import CommandIdHeader, IfMatch, dispatch
from services.api.tables import TableId
from services.rules.table.commands import CloseTable, DissolveTable
from services.tables.bounds import MAX_TEXT_CHARS
from services.tables.command_ids import Sender

router = APIRouter(prefix="/v1", tags=["platform"])


class Reason(BaseModel):
    """Why, for the table's stream and the logs (every seat is shown it)."""

    model_config = ConfigDict(extra="forbid")

    reason: str = Field(default="", max_length=MAX_TEXT_CHARS, pattern=r"^[^\x00-\x1f\x7f]*$",
                        description="Why (shown to every seat); no control characters")  # fmt: skip


NoReason = Reason()


@router.post("/tables/{table_id}/close", responses=outcome_schema(),
             summary="Close the table after the hand in play (关桌)")  # fmt: skip
async def close(
    table_id: TableId,
    command_id: CommandIdHeader,
    if_version: IfMatch,
    key: TablesKey,
    ctx: Ctx,
    body: Annotated[Reason | None, Body()] = None,
) -> JSONResponse:
    """The hand in play is played and settled as any other; then the table closes
    (``table_closed`` on every seat's stream, with the reason) and deals no other hand. Between
    hands it closes at once."""
    command = CloseTable(reason=(body or NoReason).reason)
    return await dispatch(ctx, table_id, command, sender=Sender.api_key(key.key_id),
                          key=command_id, actor=Actor.system(), route="close_table",
                          if_version=if_version)  # fmt: skip


async def operator_sender(table_id: TableId, credentials: Credentials, ctx: Ctx) -> Sender:
    """An API key with the ``operator`` scope, or an operator token of this table; a seat's
    or a spectator's token is refused (403)."""
    raw = None if credentials is None else credentials.credentials
    if raw is not None and raw.startswith("pk_"):
        key = await verify_key(ctx, raw, "operator")
        return Sender.api_key(key.key_id)
    token = for_table(table_token(credentials, ctx), table_id)
    if token.role != "operator":
        raise forbidden(f"a {token.role} token may not dissolve a table: an operator may")
    return Sender.operator_of(table_id)


@router.post("/tables/{table_id}/dissolve", responses=outcome_schema(),
             summary="Dissolve the table (网管解散: an operator)")  # fmt: skip
async def dissolve(
    table_id: TableId,
    command_id: CommandIdHeader,
    if_version: IfMatch,
    credentials: Credentials,
    ctx: Ctx,
    body: Annotated[Reason | None, Body()] = None,
) -> JSONResponse:
    """The series ends now: a hand in play is abandoned and nothing is paid for it, and no
    timer moves the table after it."""
    sender = await operator_sender(table_id, credentials, ctx)
    command = DissolveTable(reason=(body or NoReason).reason)
    return await dispatch(ctx, table_id, command, sender=sender, key=command_id,
                          actor=Actor.operator(), route="dissolve_table",
                          if_version=if_version)  # fmt: skip
