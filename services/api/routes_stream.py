"""A seat's live stream: server-sent events of its redacted events, resumable, with heartbeats;
with them, what the seat may do, so a client in play sends one request per move.

The stream opens with a ``view`` frame: the seat's view at the table's version now and its
options there (``services.tables.options``: legal commands, the version to send as
``If-Match``, the deadline it is under). It has no ``id``: the events that follow, up to that
version, are history the view already holds. The last event of each delivery carries the
seat's ``options`` at the version it ends on; when the seat has a choice to make they hold its
view, so a client never needs ``GET …/view`` or ``GET …/legal`` in play.

Each event's ``id`` is the table's stream version. A client that reconnects sends the last one
back (``Last-Event-ID``, or ``?after=``) and the stream re-reads the store from there: the
store is the replay buffer, so nothing is lost or repeated across a drop. The refusals of the
seat's own commands come as ``command_refused`` events with no id (they do not move the
cursor); ``?refusals_after=`` (each refusal's ``sequence``) resumes them, else only refusals
recorded after the stream opened are sent; a stream looks for them when one was recorded at
its table (``Wakeups`` looks for every table's at once), not on every wake-up. A comment line
is sent when the stream is idle.
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
from services.tables.deliveries import SeatDeliveries
from services.tables.runner import outcome_store

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
    """One request per move (docs/api.md). Frames, in order:

    - ``view`` (no ``id``): ``{"version", "view", "options"}``, the seat's view now and its
      options there (the ``SeatOptions`` of a command's answer: ``version`` for ``If-Match``,
      ``commands``, ``deadline``, and ``view`` when the seat has a choice to make);
    - each event after ``Last-Event-ID`` / ``?after=`` (none: from the first), ``id`` its
      version, ``event`` its type, data ``{"version", "type", "payload"}`` redacted for the
      seat, ``anchor`` on the last event of a batch that settles a hand, and ``options`` (the
      seat's, at that version) on the last event of each delivery;
    - ``command_refused`` (no ``id``): a refusal of one of the seat's own commands;
    - ``: heartbeat`` comments while idle."""
    table_id, seat, refusals_after = start.table_id, start.seat, start.refusals_after
    outcomes = outcome_store(ctx.store)
    sender = Sender.of_seat(table_id, seat)
    presence = ctx.presence
    await presence.opened(table_id, seat)
    feed = ctx.feeds.opened(table_id)  # closed with the stream: the table's one fold here
    deliveries = SeatDeliveries(ctx.store, feed, seat, start.have, ctx.settings.snapshot_key_bytes())
    try:
        woken, heartbeat = True, ctx.settings.api_heartbeat_seconds
        refusals_seen = feed.refusals - 1  # looked for once as the stream opens
        while True:
            seen = ctx.wakeups.generation_of(table_id)
            # on a wake-up and on each heartbeat too (a wake-up missed is only late): from
            # the table's feed at once where it can, else in a thread
            delivery = deliveries.ready() or await run_in_threadpool(deliveries.next)
            for frame_id, kind, data in delivery.wire:  # the view first, on the first
                yield ServerSentEvent(id=frame_id, event=kind, raw_data=data)
            # Refusals store no event: looked for when one was recorded at the table (the
            # follower and this process's commands tell the feed), not on every wake-up.
            refusals = []
            if feed.refusals != refusals_seen:
                refusals_seen = feed.refusals
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
        ctx.feeds.closed(table_id)


def _last_refusal(ctx: ApiContext, table_id: str, seat: int) -> int:
    """The sequence of the seat's last refusal so far (0: none), paged through."""
    last, outcomes = 0, outcome_store(ctx.store)
    for _ in range(10_000):  # bounded: a seat has few refusals
        page = outcomes.refusals_for(table_id, seat, last, 500)
        if not page:
            break
        last = page[-1].sequence
    return last
