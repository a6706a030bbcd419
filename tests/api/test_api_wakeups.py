"""An API process's wake-ups: the streams of the table that moved are woken, the others are
not (each woken stream re-reads its table: with hundreds open, waking all of them on every
event of any table spent the process's core on reads that found nothing); the dashboard,
which follows every table, is woken by any."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from events.store import open_store
from services.api.wakeups import Wakeups
from services.rules.table.commands import OpenTable
from services.tables.service import TableService

pytestmark = pytest.mark.anyio
PLAYERS = ("ann", "bo", "cy", "di")


def opened(service: TableService, table_id: str) -> None:
    service.handle(table_id, OpenTable(table_id=table_id, variant="harbin", players=PLAYERS),
                   command_id=f"open-{table_id}")  # fmt: skip


async def test_a_table_that_moves_wakes_its_own_streams_and_the_dashboard_only(
    tmp_path: Path,
) -> None:
    store = open_store(f"sqlite:///{tmp_path}/wakeups.sqlite3")
    service = TableService(store)
    opened(service, "a")
    wakeups = Wakeups(store, poll=0.1)
    wakeups.start()
    try:
        a, b, every = wakeups.generation_of("a"), wakeups.generation_of("b"), wakeups.generation
        stream_of_b = asyncio.create_task(wakeups.wait(b, 30, "b"))
        await asyncio.to_thread(opened, service, "c")  # another table moves
        assert await wakeups.wait(every, 30)  # the dashboard is woken by it
        assert wakeups.generation_of("a") == a and wakeups.generation_of("b") == b
        assert not stream_of_b.done()  # b's stream sleeps on
        await asyncio.to_thread(opened, service, "b")
        assert await asyncio.wait_for(stream_of_b, 30)  # b's own move wakes it
        assert wakeups.generation_of("a") == a
    finally:
        wakeups.stop()
        store.close()


async def test_a_nudge_without_a_table_wakes_every_stream(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/wakeups.sqlite3")
    wakeups = Wakeups(store)
    try:
        seen = {t: wakeups.generation_of(t) for t in ("a", "b")}
        waiting = [asyncio.create_task(wakeups.wait(seen[t], 30, t)) for t in ("a", "b")]
        await asyncio.sleep(0)  # both registered
        wakeups.nudge()  # the store was away: every stream reads for itself
        assert await asyncio.gather(*waiting) == [True, True]
        refused = asyncio.create_task(wakeups.wait(wakeups.generation_of("a"), 30, "a"))
        await asyncio.sleep(0)
        wakeups.nudge("a")  # a refusal at a, which stores no event
        assert await refused
    finally:
        store.close()


class AwayOnce:
    """A store that goes away at the first read of new events (that read and the next look at
    its head fail), then answers again."""

    def __init__(self, store: object) -> None:
        self.store, self.away = store, 0  # 0: not yet; 1: away; 2: back

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)

    def read_all(self, *args: object, **kwargs: object) -> object:
        if self.away == 0:
            self.away = 1
            raise ConnectionError("the store went away")
        return self.store.read_all(*args, **kwargs)  # type: ignore[attr-defined]

    def last_position(self) -> object:
        if self.away == 1:
            self.away = 2
            raise ConnectionError("the store is still away")
        return self.store.last_position()  # type: ignore[attr-defined]


@contextmanager
def followed_through(
    tmp_path: Path, away: Callable[[object], object]
) -> Iterator[tuple[TableService, Wakeups]]:
    """A table service on a store, and wake-ups following that store through ``away``."""
    store = open_store(f"sqlite:///{tmp_path}/wakeups.sqlite3")
    wakeups = Wakeups(away(store), poll=0.1)  # type: ignore[arg-type]
    wakeups.start()
    try:
        yield TableService(store), wakeups
    finally:
        wakeups.stop()
        store.close()


async def test_a_store_away_for_a_moment_loses_no_table_wake_up(tmp_path: Path) -> None:
    with followed_through(tmp_path, AwayOnce) as (service, wakeups):
        seen = wakeups.generation_of("a")
        await asyncio.to_thread(opened, service, "a")  # its first read fails
        assert await wakeups.wait(seen, 30, "a")  # woken all the same
        later = wakeups.generation_of("b")
        await asyncio.to_thread(opened, service, "b")  # and it goes on following the store
        assert await wakeups.wait(later, 30, "b")
        assert wakeups._threads and all(t.is_alive() for t in wakeups._threads)


class AwayAtStart:
    """A store whose head cannot be read when the follower starts, then answers."""

    def __init__(self, store: object) -> None:
        self.store, self.heads_refused = store, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)

    def last_position(self) -> object:
        if self.heads_refused == 0:
            self.heads_refused = 1
            raise ConnectionError("the store is not there yet")
        return self.store.last_position()  # type: ignore[attr-defined]


async def test_a_store_away_when_the_api_starts_is_followed_once_it_is_back(tmp_path: Path) -> None:
    # start() does not raise: the follower reads the head once the store answers
    with followed_through(tmp_path, AwayAtStart) as (service, wakeups):
        await asyncio.sleep(0.5)  # the store is back, and the head read
        seen = wakeups.generation_of("a")
        await asyncio.to_thread(opened, service, "a")
        assert await wakeups.wait(seen, 30, "a")
