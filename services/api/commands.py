"""Sending one command and answering with its outcome, or with where to await it.

A client's ``Idempotency-Key`` names a command only within what sent it (``Sender``: its API
key, or its table and seat): the stored id is ``client_command_id(sender, key)``, so no client
can name another's command, nor one the service gives itself (timers, a room's opening). As
the IETF Idempotency-Key draft asks, ``dispatch`` keeps the request under that id before
queueing it (``claim_request``): the same key with the same request is the same command (the
first outcome answers every copy), with another request 422, and while the first is still in
flight 409 (after ``RESEND_AFTER_SECONDS`` the copy sends it again instead: a queue message
can be lost, and the command id makes a second run harmless). It then waits up to
``api_command_wait`` seconds for the outcome, holding no thread (``waits``): 200 with it
(accepted or refused, with a code), else 202 with the key and ``/v1/commands/{key}``.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import Depends, Header
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from events.envelope import Actor, InvalidIdError, check_id
from events.outcomes import CommandOutcome, CommandRequest, RequestStore
from services.api.context import ApiContext
from services.api.problems import Problem
from services.api.tables import has_rules_of
from services.api.waits import awaited_outcome
from services.rules.table.commands import Command
from services.tables.command_ids import Sender, client_command_id
from workers.client import submit

RESEND_AFTER_SECONDS = 10.0
"""A copy of a command still without an outcome this long after the first sends it again."""


class Queued(BaseModel):
    """The command is on the queue; its outcome is at ``outcome_url`` once a worker ran it."""

    status: Literal["queued"] = "queued"
    command_id: str
    outcome_url: str


def idempotency_key(
    idempotency_key: str | None = Header(
        default=None, description="The command's id, within its sender: the same id is the same command"
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
    # ASCII digits only: str.isdigit also takes "²", which int() refuses
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise Problem(400, "Invalid If-Match",
                      f'If-Match is the table\'s version, e.g. "12", not {if_match[:40]!r}')  # fmt: skip
    return int(text)


def outcome_url(key: str) -> str:
    # Percent-encoded: a key may be any text, and a header (Location) holds only latin-1.
    return f"/v1/commands/{quote(key, safe='')}"


def answer(outcome: CommandOutcome | None, key: str) -> JSONResponse:
    """The outcome as its sender knows it (under its own key), or 202 with where to await it."""
    if outcome is None:
        queued = Queued(command_id=key, outcome_url=outcome_url(key))
        return JSONResponse(queued.model_dump(), status_code=202,
                            headers={"Location": outcome_url(key)})  # fmt: skip
    shown = outcome.model_copy(update={"command_id": key})
    return JSONResponse(shown.model_dump(mode="json"), status_code=200)


def fingerprint(route: str, table_id: str, data: dict[str, Any], if_version: int | None) -> str:
    """What a request asks, as a digest: two requests with one key and another digest differ."""
    asked = {"route": route, "table_id": table_id, "command": data, "if_version": if_version}
    return hashlib.sha256(json.dumps(asked, sort_keys=True).encode()).hexdigest()


async def dispatch(
    ctx: ApiContext,
    table_id: str,
    command: Command,
    *,
    sender: Sender,
    key: str,
    actor: Actor,
    route: str,
    if_version: int | None = None,
) -> JSONResponse:
    store = ctx.store
    assert isinstance(store, RequestStore)
    command_id = client_command_id(sender, key)
    data = command.model_dump(mode="json")
    await run_in_threadpool(has_rules_of, ctx, table_id)  # else 503, nothing kept or queued
    body = {"table_id": table_id, "command": data, "actor": actor.to_dict(),
            "if_version": if_version}  # fmt: skip
    request = CommandRequest(
        command_id=command_id, table_id=table_id, body=json.dumps(body),
        fingerprint=fingerprint(route, table_id, data, if_version),
    )  # fmt: skip
    claim = await run_in_threadpool(store.claim_request, request)
    if not claim.first:
        if claim.request.fingerprint != request.fingerprint:
            raise Problem(422, "Idempotency-Key reused",
                          f"the Idempotency-Key {key!r} already names another request of yours;"
                          " send this one under a new key")  # fmt: skip
        if claim.outcome is not None:
            return answer(claim.outcome, key)
        age = (datetime.now(UTC) - claim.request.requested_at).total_seconds()
        if age < RESEND_AFTER_SECONDS:
            raise Problem(409, "Command in flight",
                          f"the command under Idempotency-Key {key!r} is still being run;"
                          f" its outcome will be at {outcome_url(key)}",
                          {"Retry-After": "1", "Location": outcome_url(key)})  # fmt: skip
    await run_in_threadpool(
        submit, ctx.app, table_id, command, command_id=command_id, actor=actor,
        if_version=if_version,
    )  # fmt: skip
    owner = sender.namespace
    if not ctx.waits.free(owner):  # the sender awaits enough already: queued, said at once
        return answer(None, key)
    async with ctx.waits.hold(owner, "this sender"):
        outcome = await awaited_outcome(store, command_id, ctx.settings.api_command_wait)
    if outcome is not None and not outcome.accepted:
        ctx.wakeups.nudge(table_id)  # the seat's stream tells the refusal; refusals store no event
    return answer(outcome, key)


def outcome_schema() -> dict[int | str, dict[str, Any]]:
    return {
        200: {"model": CommandOutcome, "description": "The outcome: accepted, or refused with a code"},
        202: {"model": Queued, "description": "Queued: await it at outcome_url"},
        409: {"description": "The same Idempotency-Key's first request is still in flight"},
        422: {"description": "The Idempotency-Key already names another request of this sender"},
    }


CommandIdHeader = Annotated[str, Depends(idempotency_key)]
IfMatch = Annotated[int | None, Depends(expected_version)]
