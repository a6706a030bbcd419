"""Sending one command and answering with its outcome, or with where to await it.

``dispatch`` enqueues through ``workers.client.submit`` and waits ``api_command_wait`` seconds
for the outcome a worker records: 200 with it (accepted or refused, with a code), else 202
with the command id and ``/v1/commands/{id}``. The same ``Idempotency-Key`` sent again is the
same command: the first outcome answers every copy.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import Depends, Header
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from events.envelope import Actor, InvalidIdError, check_id
from events.outcomes import CommandOutcome
from services.api.context import ApiContext
from services.api.problems import Problem
from services.api.tables import has_rules_of
from services.rules.table.commands import Command
from services.tables.runner import outcome_store
from workers.client import submit


class Queued(BaseModel):
    """The command is on the queue; its outcome is at ``outcome_url`` once a worker ran it."""

    status: Literal["queued"] = "queued"
    command_id: str
    outcome_url: str


def idempotency_key(
    idempotency_key: str | None = Header(
        default=None, description="The command's id: the same id is the same command"
    ),
) -> str:
    if idempotency_key is None:
        raise Problem(400, "Idempotency-Key required",
                      "send the command's id as Idempotency-Key (one id per command)")  # fmt: skip
    try:
        check_id("Idempotency-Key", idempotency_key)
    except InvalidIdError as error:
        raise Problem(400, "Invalid Idempotency-Key", str(error)) from None
    return idempotency_key


def expected_version(
    if_match: str | None = Header(default=None, description='The table\'s version: "12"'),
) -> int | None:
    if if_match is None:
        return None
    text = if_match.strip()
    text = text[2:] if text.startswith("W/") else text
    text = text.strip('"')
    if not text.isdigit() or len(text) > 12:
        raise Problem(400, "Invalid If-Match",
                      f'If-Match is the table\'s version, e.g. "12", not {if_match[:40]!r}')  # fmt: skip
    return int(text)


def outcome_url(command_id: str) -> str:
    # Percent-encoded: an id may be any text, and a header (Location) holds only latin-1.
    return f"/v1/commands/{quote(command_id, safe='')}"


def answer(outcome: CommandOutcome | None, command_id: str) -> JSONResponse:
    if outcome is None:
        queued = Queued(command_id=command_id, outcome_url=outcome_url(command_id))
        return JSONResponse(queued.model_dump(), status_code=202,
                            headers={"Location": outcome_url(command_id)})  # fmt: skip
    return JSONResponse(outcome.model_dump(mode="json"), status_code=200)


async def dispatch(
    ctx: ApiContext,
    table_id: str,
    command: Command,
    *,
    command_id: str,
    actor: Actor,
    if_version: int | None = None,
) -> JSONResponse:
    outcomes = outcome_store(ctx.store)
    earlier = await run_in_threadpool(outcomes.load_outcome, command_id)
    if earlier is not None:
        if earlier.table_id != table_id or earlier.actor != actor:
            raise Problem(409, "Idempotency-Key in use",
                          f"command id {command_id!r} already names another command; use a new id")  # fmt: skip
        return answer(earlier, command_id)
    await run_in_threadpool(has_rules_of, ctx, table_id)  # else 503, nothing queued
    await run_in_threadpool(
        submit, ctx.app, table_id, command, command_id=command_id, actor=actor,
        if_version=if_version,
    )  # fmt: skip
    wait = ctx.settings.api_command_wait
    outcome = await run_in_threadpool(outcomes.wait_for_outcome, command_id, wait)
    if outcome is not None and not outcome.accepted:
        ctx.wakeups.nudge(table_id)  # the seat's stream tells the refusal; refusals store no event
    return answer(outcome, command_id)


def outcome_schema() -> dict[int | str, dict[str, Any]]:
    return {
        200: {"model": CommandOutcome, "description": "The outcome: accepted, or refused with a code"},
        202: {"model": Queued, "description": "Queued: await it at outcome_url"},
    }


CommandIdHeader = Annotated[str, Depends(idempotency_key)]
IfMatch = Annotated[int | None, Depends(expected_version)]
