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
    if seconds <= 0:
        return await run_in_threadpool(outcome_store(store).load_outcome, command_id)
    with OutcomeWait(store, command_id) as waiting:
        return await waiting.outcome(seconds)


class OutcomeWait:
    """A wake-up for ``command_id``'s outcome, asked for now: an outcome recorded from here on
    wakes ``outcome`` (and a read every ``poll`` seconds finds one a wake-up missed)."""

    def __init__(self, store: EventStore, command_id: str) -> None:
        assert isinstance(store, RequestStore)
        self.outcomes, self.command_id = outcome_store(store), command_id
        self.loop = asyncio.get_running_loop()
        self.woken = asyncio.Event()
        self.poll = max(MIN_POLL_SECONDS, float(getattr(store, "poll_interval", 0.5)))
        self._stop = store.on_outcome(command_id, lambda: self.loop.call_soon_threadsafe(self.woken.set))

    def __enter__(self) -> OutcomeWait:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    async def outcome(self, seconds: float, read_first: bool = True) -> CommandOutcome | None:
        """The outcome once recorded, or None after ``seconds``. ``read_first=False``: nothing
        can be recorded yet that did not wake this (the command was sent after the wake-up was
        asked for), so the first read waits for a wake-up or the first poll (a read saved on
        every command's POST)."""
        deadline = self.loop.time() + seconds
        while True:
            if read_first or self.woken.is_set():
                self.woken.clear()
                found = await run_in_threadpool(self.outcomes.load_outcome, self.command_id)
                if found is not None:
                    return found
            read_first = True
            remaining = deadline - self.loop.time()
            if remaining <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), min(remaining, self.poll))
