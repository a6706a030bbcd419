"""A seat's routes (its token): give a command, read its view and its legal commands; and
the outcome of a command, for the seat that sent it or the platform."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from events.envelope import ID_PATTERN, MAX_ID_CHARS, Actor
from events.outcomes import RequestStore
from services.api.answers import answer, outcome_resource_schema, outcome_schema
from services.api.auth import Credentials, Ctx, Token, for_seat, for_table, table_token, verify_key
from services.api.bodies import strict_command
from services.api.commands import CommandIdHeader, IfMatch, dispatch, options_after
from services.api.context import ApiContext
from services.api.problems import Problem
from services.api.routes_platform import SeatNumber
from services.api.tables import TableId, loaded_table
from services.api.tokens import TableToken
from services.api.waits import awaited_outcome
from services.rules.table.legal import legal_commands
from services.rules.table.views import player_view
from services.tables.command_ids import Sender, client_command_id
from services.tables.runner import parse_command

router = APIRouter(prefix="/v1", tags=["seats"])
CommandId = Annotated[str, Path(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN,
                                description="The Idempotency-Key the command was sent under "
                                            "(a '/' in it may be sent as is or as %2F)")]  # fmt: skip


@router.post("/tables/{table_id}/commands", responses=outcome_schema(),
             summary="Give the token's seat's command")  # fmt: skip
async def give_command(
    table_id: TableId,
    body: Annotated[dict[str, Any], Body(description="An engine command: {'command': 'discard_tile', 'seat': 0, 'tile': '5m'}")],
    command_id: CommandIdHeader,
    if_version: IfMatch,
    token: Token,
    ctx: Ctx,
) -> JSONResponse:
    for_table(token, table_id)
    command = parse_command(body)
    if isinstance(command, str):
        raise Problem(422, "Not a command", command)
    strictly = strict_command(body)  # what the document says: a seat is 2, not true
    if strictly is not None:
        raise Problem(422, "Not a command", f"not a valid {body['command']!r} command: {strictly}")
    name = type(command).model_fields["command"].default
    if command.issued_by != "seat":
        raise Problem(403, "Not a seat's command",
                      f"{name!r} is given by the {command.issued_by}, not by a seat")  # fmt: skip
    seat: int = command.seat
    if token.seat is None:
        raise Problem(403, "Forbidden", f"a {token.role} token gives no commands")
    for_seat(token, table_id, seat)
    return await dispatch(ctx, table_id, command, sender=Sender.of_seat(table_id, seat),
                          key=command_id, actor=Actor.of_seat(seat), route="seat_command",
                          if_version=if_version)  # fmt: skip


def _sender(token: TableToken) -> Sender:
    if token.role == "operator":
        return Sender.operator_of(token.table_id)
    if token.seat is None:
        raise Problem(403, "Forbidden",
                      f"a {token.role} token gives no commands, so it has no outcomes to read")  # fmt: skip
    return Sender.of_seat(token.table_id, token.seat)


# ``:path``: the key may hold "/" (the demo's do), and %2F is decoded before routing
@router.get("/commands/{command_id:path}", responses=outcome_resource_schema(),
            summary="A command's outcome (200 whatever it is: accepted or refused)")  # fmt: skip
async def command_outcome(
    command_id: CommandId,
    credentials: Credentials,
    ctx: Ctx,
    wait: Annotated[float, Query(ge=0, le=10, description="Seconds to wait for it")] = 0,
) -> JSONResponse:
    """For whoever sent it, under the Idempotency-Key it sent: a seat or a table's operator
    (its token) or the platform (the API key, with 'tables' or 'operator', that sent it).
    Another sender's key names nothing."""
    raw = None if credentials is None else credentials.credentials
    if raw is not None and raw.startswith("pk_"):
        key = await verify_key(ctx, raw, ("tables", "operator"))
        sender = Sender.api_key(key.key_id)
    else:
        sender = _sender(table_token(credentials, ctx))
    stored_id = client_command_id(sender, command_id)
    if wait > 0:
        async with ctx.waits.hold(sender.namespace, "this sender"):
            outcome = await awaited_outcome(ctx.store, stored_id, wait)
    else:
        outcome = await awaited_outcome(ctx.store, stored_id, 0)
    if outcome is None and not await run_in_threadpool(_was_sent, ctx, stored_id):
        raise Problem(404, "No such command",
                      f"you sent no command under Idempotency-Key {command_id!r}")  # fmt: skip
    return answer(outcome, command_id, await options_after(ctx, sender, outcome),
                  refusal_in_status=False)  # the outcome resource exists: 200 (answers)


def _was_sent(ctx: ApiContext, stored_id: str) -> bool:
    store = ctx.store
    assert isinstance(store, RequestStore)
    return store.find_request(stored_id) is not None


@router.get("/tables/{table_id}/view", summary="The table as the token may see it")
async def view(
    table_id: TableId,
    token: Token,
    ctx: Ctx,
    response: Response,
) -> dict[str, Any]:
    """A seat token: its seat's view (player_view); spectator: what anyone may see; operator:
    everything. ``ETag``: the table's version it shows (a command's ``If-Match``)."""
    for_table(token, table_id)
    table = await run_in_threadpool(loaded_table, ctx, table_id)
    response.headers["ETag"] = f'"{table.version}"'
    return player_view(table, token.seat, token.role == "operator")


@router.get("/tables/{table_id}/seats/{seat}/legal", summary="The commands the seat may give now")
async def legal(
    table_id: TableId,
    seat: SeatNumber,
    token: Token,
    ctx: Ctx,
    response: Response,
) -> dict[str, Any]:
    """``ETag``: the table's version they are legal at: give one with ``If-Match`` that."""
    for_seat(token, table_id, seat)
    table = await run_in_threadpool(loaded_table, ctx, table_id)
    response.headers["ETag"] = f'"{table.version}"'
    commands = [c.model_dump(mode="json") for c in legal_commands(table, seat)]
    return {"table_id": table_id, "seat": seat, "commands": commands}
