"""Awaiting a command's outcome without holding a thread, and each credential's share of waits.

A wait (a command's POST, ``GET /v1/commands/{key}?wait=``) registers with the store for a
wake-up (``RequestStore.on_outcome``: in this process on SQLite, by LISTEN on PostgreSQL) and
sleeps on the event loop; each read of the store is one short trip to the thread pool, so no
number of waiters can fill the pool and stall other tables' reads. Every ``poll`` seconds it
reads again anyway: a wake-up is a hint, which a worker in another process on SQLite never
gives.

Each credential (an API key, a seat of a table) may hold ``api_max_waits`` waits at once in an
API process; past that a POST answers 202 at once (its command is queued all the same) and a
``GET ...?wait=`` 429, so one token cannot take every connection's worth of waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator

from starlette.concurrency import run_in_threadpool

from events.outcomes import CommandOutcome, RequestStore
from events.store.base import EventStore
from services.api.problems import Problem
from services.tables.runner import outcome_store

MIN_POLL_SECONDS = 0.05


class Waits:
    """The waits each credential holds in this API process (the event loop's only)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held: Counter[str] = Counter()

    def free(self, owner: str) -> bool:
        return self.held[owner] < self.cap

    @contextlib.asynccontextmanager
    async def hold(self, owner: str, who: str) -> AsyncIterator[None]:
        """One wait of ``owner``; 429 naming ``who`` when it holds ``cap`` already."""
        if not self.free(owner):
            raise Problem(
                429, "Too many waits",
                f"{who} already awaits {self.cap} outcomes at once; wait for one, or ask with wait=0",
                {"Retry-After": "1"}, {"limit": "waits", "retry_after": 1},
            )  # fmt: skip
        self.held[owner] += 1
        try:
            yield
        finally:
            self.held[owner] -= 1
            if self.held[owner] <= 0:
                del self.held[owner]


async def awaited_outcome(
    store: EventStore, command_id: str, seconds: float
) -> CommandOutcome | None:
    """The outcome of ``command_id`` once recorded, or None after ``seconds``."""
    outcomes = outcome_store(store)
    if seconds <= 0:
        return await run_in_threadpool(outcomes.load_outcome, command_id)
    assert isinstance(store, RequestStore)
    loop = asyncio.get_running_loop()
    woken = asyncio.Event()
    stop = store.on_outcome(command_id, lambda: loop.call_soon_threadsafe(woken.set))
    poll = max(MIN_POLL_SECONDS, float(getattr(store, "poll_interval", 0.5)))
    deadline = loop.time() + seconds
    try:
        while True:  # registered before the first read: no recording slips between the two
            found = await run_in_threadpool(outcomes.load_outcome, command_id)
            remaining = deadline - loop.time()
            if found is not None or remaining <= 0:
                return found
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), min(remaining, poll))
            woken.clear()
    finally:
        stop()
