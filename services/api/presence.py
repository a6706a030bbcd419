"""断线 and back: a seat whose last stream closed is reported disconnected after a grace.

The API process counts each seat's open streams. When the count falls to zero a timer of
``api_drop_grace_seconds`` starts; a stream that opens again before it fires cancels it. When
it fires, ``ReportDisconnect`` goes through the command path (the engine decides what follows:
托管, the reconnect grace). A stream that opens for a seat the table holds as disconnected
sends ``ReportReconnect``. Both are the system's commands, with ids of their own; a report the
table no longer needs is simply refused by the rules.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import structlog
from starlette.concurrency import run_in_threadpool

from events.envelope import Actor
from services.api.context import ApiContext
from services.rules.table.commands import Command, ReportDisconnect, ReportReconnect
from services.tables.command_ids import service_command_id
from workers.client import submit

log = structlog.get_logger("paiju.api.presence")
Seat = tuple[str, int]


class Presence:
    def __init__(self, ctx: ApiContext) -> None:
        self.ctx = ctx
        self.open: Counter[Seat] = Counter()
        self._pending: dict[Seat, asyncio.TimerHandle] = {}

    async def opened(self, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        self.open[key] += 1
        pending = self._pending.pop(key, None)
        if pending is not None:
            pending.cancel()
        table = await run_in_threadpool(self.ctx.load, table_id)
        if table.opened and not table.presence[seat].connected:
            await self._send(table_id, ReportReconnect(seat=seat))

    def closed(self, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        self.open[key] -= 1
        if self.open[key] > 0:
            return
        del self.open[key]
        loop = asyncio.get_running_loop()
        grace = self.ctx.settings.api_drop_grace_seconds
        self._pending[key] = loop.call_later(
            grace, lambda: loop.create_task(self._dropped(table_id, seat))
        )

    async def _dropped(self, table_id: str, seat: int) -> None:
        self._pending.pop((table_id, seat), None)
        if self.open[(table_id, seat)] > 0:
            return
        table = await run_in_threadpool(self.ctx.load, table_id)
        if table.opened and table.presence[seat].connected and not table.presence[seat].left:
            await self._send(table_id, ReportDisconnect(seat=seat))

    async def _send(self, table_id: str, command: Command) -> None:
        command_id = service_command_id("presence", table_id, uuid.uuid4().hex)
        log.info("api.presence", table_id=table_id, command=type(command).__name__,
                 command_id=command_id)  # fmt: skip
        await run_in_threadpool(
            submit, self.ctx.app, table_id, command, command_id=command_id, actor=Actor.system()
        )
