"""A seat's live stream: server-sent events of its redacted events, resumable, with heartbeats.

Each event's ``id`` is the table's stream version. A client that reconnects sends the last one
back (``Last-Event-ID``, or ``?after=``) and the stream re-reads the store from there: the
store is the replay buffer, so nothing is lost or repeated across a drop. The refusals of the
seat's own commands come as ``command_refused`` events with no id (they do not move the
cursor); ``?refusals_after=`` (each refusal's ``sequence``) resumes them, else only refusals
recorded after the stream opened are sent. A comment line is sent when the stream is idle.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query
from fastapi.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from events.limits import MAX_SEQUENCE, MAX_VERSION
from services.api.auth import Ctx, StreamToken, for_seat
from services.api.context import ApiContext
from services.api.problems import Problem
from services.api.routes_platform import SeatNumber
from services.api.tables import TableId, loaded_table
from services.tables.command_ids import Sender, key_of
from services.tables.runner import outcome_store
from services.tables.stream import SeatStream

router = APIRouter(prefix="/v1", tags=["streams"])


def _resume_from(last_event_id: str | None, after: int | None) -> int:
    """The version the client already has (0: from the start)."""
    if last_event_id is not None:
        # isascii too: str.isdigit takes '²', which int() refuses (a 500)
        if not (last_event_id.isascii() and last_event_id.isdigit()) or len(last_event_id) > 12:
            raise Problem(400, "Invalid Last-Event-ID",
                          f"Last-Event-ID is a stream version, not {last_event_id[:40]!r}")  # fmt: skip
        return int(last_event_id)
    return after or 0


@dataclass(frozen=True)
class Opening:
    """Where a stream starts: checked before its first byte, so a refusal is a problem answer."""

    table_id: str
    seat: int
    have: int
    refusals_after: int


async def opening(
    table_id: TableId,
    seat: SeatNumber,
    token: StreamToken,
    ctx: Ctx,
    after: Annotated[int | None, Query(ge=0, le=MAX_VERSION, description="Resume after this version")] = None,
    refusals_after: Annotated[int | None, Query(ge=0, le=MAX_SEQUENCE, description="Refusals after this sequence")] = None,
    access_token: Annotated[str | None, Query(max_length=4096, description="For EventSource")] = None,
    last_event_id: Annotated[str | None, Header(max_length=40)] = None,
) -> Opening:
    for_seat(token, table_id, seat)
    open_now, cap = ctx.presence.open[(table_id, seat)], ctx.settings.api_max_streams
    if open_now >= cap:  # one seat's streams, in this process: a cap, not a rate (30 a minute)
        raise Problem(429, "Too many streams",
                      f"seat {seat} of table {table_id!r} has {open_now} live streams open here"
                      f" (at most {cap}); close one first", {"Retry-After": "5"},
                      {"limit": "streams", "retry_after": 5})  # fmt: skip
    have = _resume_from(last_event_id, after)
    await run_in_threadpool(loaded_table, ctx, table_id)
    if refusals_after is None:
        refusals_after = await run_in_threadpool(_last_refusal, ctx, table_id, seat)
    return Opening(table_id, seat, have, refusals_after)


@router.get("/tables/{table_id}/seats/{seat}/events", response_class=EventSourceResponse,
            summary="The seat's live stream (server-sent events)")  # fmt: skip
async def seat_events(
    start: Annotated[Opening, Depends(opening)], ctx: Ctx
) -> AsyncIterator[ServerSentEvent]:
    table_id, seat, refusals_after = start.table_id, start.seat, start.refusals_after
    outcomes = outcome_store(ctx.store)
    sender = Sender.of_seat(table_id, seat)
    cursor = SeatStream.starting(
        ctx.store, table_id, seat, start.have + 1, ctx.settings.snapshot_key_bytes()
    )
    presence = ctx.presence
    await presence.opened(table_id, seat)
    try:
        woken, heartbeat = True, ctx.settings.api_heartbeat_seconds
        while True:
            seen = ctx.wakeups.generation_of(table_id)
            if woken:
                page = await run_in_threadpool(ctx.service.stream_for, table_id, seat, after=cursor)
                cursor = page.cursor
                for event in page.events:
                    yield ServerSentEvent(id=str(event["version"]), event=event["type"], data=event)
            # Refusals store no event: looked for on every wake-up and every heartbeat.
            refusals = await run_in_threadpool(outcomes.refusals_for, table_id, seat, refusals_after)
            for refusal in refusals:
                refusals_after = refusal.sequence
                shown = refusal.model_copy(update={"command_id": key_of(sender, refusal.command_id)})
                yield ServerSentEvent(event="command_refused", data=shown.model_dump(mode="json"))
            if not woken:
                yield ServerSentEvent(comment="heartbeat")
            woken = await ctx.wakeups.wait(seen, heartbeat, table_id)
    finally:
        presence.closed(table_id, seat)


def _last_refusal(ctx: ApiContext, table_id: str, seat: int) -> int:
    """The sequence of the seat's last refusal so far (0: none), paged through."""
    last, outcomes = 0, outcome_store(ctx.store)
    for _ in range(10_000):  # bounded: a seat has few refusals
        page = outcomes.refusals_for(table_id, seat, last, 500)
        if not page:
            break
        last = page[-1].sequence
    return last
