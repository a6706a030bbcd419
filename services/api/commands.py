"""Sending one command and answering with its outcome, or with where to await it.

A client's ``Idempotency-Key`` names a command only within what sent it (``Sender``: its API
key, or its table and seat): the stored id is ``client_command_id(sender, key)``, so no client
can name another's command, nor one the service gives itself (timers, a room's opening). As
the IETF Idempotency-Key draft asks, ``dispatch`` keeps the request under that id before
queueing it (``claim_request``): the same key with the same request is the same command (the
first outcome answers every copy), with another request 422, and while the first is still in
flight 409 (after ``RESEND_AFTER_SECONDS`` the copy sends it again instead: a queue message
can be lost, and the command id makes a second run harmless). It then waits up to
``api_command_wait`` seconds for the outcome, holding no thread (``waits``): 200 accepted, a
refusal as a problem document with the status its code maps to (``answers``), else 202 with
the key and ``/v1/commands/{key}``; with the wait at 0 it answers 202 at once, reading
nothing. A command to a table no one opened (but ``OpenTable``) is 404, nothing kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Header
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from events.envelope import ID_PATTERN, MAX_ID_CHARS, Actor, InvalidIdError, check_id
from events.outcomes import CommandOutcome, CommandRequest, RequestClaim, RequestStore
from services.api.answers import answer
from services.api.context import ApiContext
from services.api.problems import Problem
from services.api.tables import has_rules_of
from services.api.waits import OutcomeWait
from services.api.wire import outcome_url
from services.rules.table.commands import Command, OpenTable
from services.tables.command_ids import Sender, client_command_id
from services.tables.options import EventTimes, seat_options
from workers.client import submit

RESEND_AFTER_SECONDS = 10.0
"""A copy of a command still without an outcome this long after the first sends it again."""


REQUIRED_HEADERS = ("idempotency-key",)
"""Headers the document declares required where a route takes them, though the route's
parameter is optional: its absence is answered by ``idempotency_key`` (400 naming it), not by
FastAPI's validation (``app.openapi``)."""


def idempotency_key(
    idempotency_key: str | None = Header(
        default=None, description="The command's id, within its sender: the same id is the same"
        " command (required)",
        json_schema_extra={"pattern": ID_PATTERN, "maxLength": MAX_ID_CHARS},  # check_id's rule
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


IF_MATCH_PATTERN = r'^[ \t]*(W/)?"*[0-9]{1,12}"*[ \t]*$'
r"""Around the version only HTTP's own whitespace (RFC 9110's OWS: space, tab), as the parse
strips it: a regex ``\s`` differs between engines (Python's takes U+0085, others do not), so a
value one generator takes as blank another refuses."""


def expected_version(
    if_match: str | None = Header(
        default=None, description='The table\'s version: "12"',
        json_schema_extra={"pattern": IF_MATCH_PATTERN}),  # what the parse below takes
) -> int | None:
    if if_match is None:
        return None
    text = if_match.strip(" \t")
    text = text[2:] if text.startswith("W/") else text
    text = text.strip('"')
    # ASCII digits only: str.isdigit also takes "²", which int() refuses
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise Problem(400, "Invalid If-Match",
                      f'If-Match is the table\'s version, e.g. "12", not {if_match[:40]!r}')  # fmt: skip
    return int(text)


async def options_after(ctx: ApiContext, sender: Sender, outcome: CommandOutcome | None,
                        ) -> dict[str, Any] | None:  # fmt: skip
    """A seat's options once its command has an outcome (None: a platform's, or none yet)."""
    if outcome is None or sender.seat is None:
        return None
    feed = ctx.feeds.get(outcome.table_id)
    if feed is not None:  # worked out already by the follower for the seat's streams: no hop
        head = feed.head
        if head.version >= (outcome.last_version or 0) and not feed.stale:
            with contextlib.suppress(KeyError):
                return feed.options_wire_at(head, sender.seat, compute=False)[0]
    return await run_in_threadpool(_seat_options_now, ctx, outcome, sender.seat)


def _seat_options_now(ctx: ApiContext, outcome: CommandOutcome, seat: int) -> dict[str, Any]:
    """From the table's feed where a stream of it is open here (one read, if any, that its
    streams then need not make; the options worked out once for the seat's streams too),
    else from the process's fold of it."""
    feed = ctx.feeds.get(outcome.table_id)
    head = None if feed is None else feed.at_least(outcome.last_version or 0)
    if feed is not None and head is not None:
        return feed.options_at(head, seat)
    times = EventTimes(ctx.store, outcome.table_id)
    if outcome.accepted and outcome.last_version is not None:
        times.note([(outcome.last_version, outcome.recorded_at)])  # recorded as it appended
    return seat_options(ctx.load(outcome.table_id), seat, times)


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
    command_id = client_command_id(sender, key)
    data = command.model_dump(mode="json")
    request = CommandRequest(
        command_id=command_id, table_id=table_id,
        body=json.dumps({"table_id": table_id, "command": data, "actor": actor.to_dict(),
                         "if_version": if_version}),
        fingerprint=fingerprint(route, table_id, data, if_version),
    )  # fmt: skip
    wait = ctx.settings.api_command_wait
    with contextlib.ExitStack() as stack:
        # the outcome's wake-up asked for before the command is kept and sent: it cannot be
        # recorded unseen, so the wait reads only once woken (no read that finds nothing yet)
        waiting = stack.enter_context(OutcomeWait(store, command_id)) if wait > 0 else None
        # one trip to a thread for the store and the queue, not three (each hop costs the
        # event loop and the pool a handover)
        claim, sent = await run_in_threadpool(_kept_and_sent, ctx, request, command, actor,
                                              if_version)  # fmt: skip
        if not claim.first:
            if claim.request.fingerprint != request.fingerprint:
                raise Problem(422, "Idempotency-Key reused",
                              f"the Idempotency-Key {key!r} already names another request of"
                              " yours; send this one under a new key")  # fmt: skip
            if claim.outcome is not None:
                return answer(claim.outcome, key, await options_after(ctx, sender, claim.outcome))
            if not sent:
                raise Problem(409, "Command in flight",
                              f"the command under Idempotency-Key {key!r} is still being run;"
                              f" its outcome will be at {outcome_url(key)}",
                              {"Retry-After": "1", "Location": outcome_url(key)})  # fmt: skip
        owner = sender.namespace
        if waiting is None or not ctx.waits.free(owner):  # no wait, or the sender awaits
            return answer(None, key)  # enough already: queued, said at once (no read needed)
        async with ctx.waits.hold(owner, "this sender"):
            outcome = await waiting.outcome(wait, read_first=False)
    if outcome is not None and not outcome.accepted:
        ctx.feeds.refused({table_id})  # the seat's stream tells the refusal; refusals store no event
        ctx.wakeups.nudge(table_id)
    return answer(outcome, key, await options_after(ctx, sender, outcome))


def _kept_and_sent(ctx: ApiContext, request: CommandRequest, command: Command, actor: Actor,
                   if_version: int | None) -> tuple[RequestClaim, bool]:  # fmt: skip
    """In a thread: the table's rules version checked (else 503, nothing kept or queued), the
    request kept under its id, and the command queued if it is the first under it (or a copy
    of one still without an outcome after ``RESEND_AFTER_SECONDS``: sent again); whether it
    was queued."""
    store = ctx.store
    assert isinstance(store, RequestStore)
    has_rules_of(ctx, request.table_id, opening=isinstance(command, OpenTable))
    claim = store.claim_request(request)
    same = claim.first or claim.request.fingerprint == request.fingerprint
    waited = (datetime.now(UTC) - claim.request.requested_at).total_seconds()
    send = claim.first or (same and claim.outcome is None and waited >= RESEND_AFTER_SECONDS)
    if send:
        submit(ctx.app, request.table_id, command, command_id=request.command_id, actor=actor,
               if_version=if_version)  # fmt: skip
    return claim, send


CommandIdHeader = Annotated[str, Depends(idempotency_key)]
IfMatch = Annotated[int | None, Depends(expected_version)]
