"""Wake-ups of an API process's streams: one thread follows the store, and wakes the streams
of the tables that moved (and the dashboard, which follows every table).

The events the follower reads are fed to the feeds of the tables this process streams
(``services.tables.feed``), folded there once for all their streams, before their streams are
woken. A wake-up itself carries no event: a stream takes what is new from its table's feed
(which reads the store itself when it could not be fed), so a wake-up that is spurious costs
little, and one that is missed only makes a stream later (its next heartbeat looks again),
never wrong. Waking only the streams of the tables that
moved matters with many open streams: woken all at once, every stream re-read its table on
every event of any table, and one API process spent its core on reads that found nothing.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict
from collections.abc import Mapping

from events.outcomes import OutcomeStore
from events.store.base import EventStore
from services.tables.feed import TableFeeds

EVERY_TABLE = ""  # the key of the waiters on every table (the dashboard)
READ_PAGE = 1000
PAGES_BEFORE_WAKING_ALL = 5  # far behind (a burst, or the store was away): wake every stream
REFUSALS_EVERY = 0.25  # seconds between two looks for refusals (one query for every table)
TABLES_KEPT = 10_000  # generations of tables nobody waits on are then forgotten (a stream that
# saw one forgotten is woken once for nothing: spurious, never missed)

Waiter = tuple[asyncio.AbstractEventLoop, asyncio.Event]


class Wakeups:
    """Generations per table and overall; ``wait`` until the one a stream saw has moved.

    One follower thread per log: the store's, or each partition's (``logs``, by partition
    number, as ``Parts.logs`` gives them), whose positions and refusals are its own."""

    def __init__(self, store: EventStore, poll: float = 1.0, feeds: TableFeeds | None = None,
                 logs: Mapping[int, EventStore] | None = None) -> None:  # fmt: skip
        self.store, self.poll, self.feeds = store, poll, feeds
        self.logs = dict(logs) if logs else {0: store}
        self.generation = 0  # moves on every wake-up of any table
        self._tables: dict[str, int] = defaultdict(int)
        self._waiters: dict[str, set[Waiter]] = defaultdict(set)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._refusals_seen: dict[int, int | None] = {}  # the last outcome sequence looked through
        self._refusals_looked: dict[int, float] = {}  # when (monotonic), per log

    def start(self) -> None:
        self._stop.clear()
        for number, log in self.logs.items():
            # The head is read here, not in the thread: whatever is appended once start()
            # returns is followed, however late the thread first runs. A store away at start:
            # the thread reads the head once it is back (and wakes every stream).
            try:
                position: int | None = self._head(log)
                if isinstance(log, OutcomeStore):  # refusals from now on are looked for
                    self._refusals_seen[number] = log.last_outcome_sequence()
            except Exception:
                position = None
            thread = threading.Thread(target=self._run, args=(number, log, position),
                                      name=f"paiju-api-wakeups-{number}", daemon=True)  # fmt: skip
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(5)
        self._threads = []

    @staticmethod
    def _head(log: EventStore) -> int:
        last: int = log.last_position()  # type: ignore[attr-defined]
        return last

    def _run(self, number: int, log: EventStore, position: int | None) -> None:
        while not self._stop.is_set():
            try:
                if position is None:
                    position = self._head(log)
                    self.nudge()
                elif log.wait_for_events(position, self.poll):
                    position = self._follow(log, position)
                self._look_for_refusals(number, log)
            except Exception:  # a store that is away: the next round reads on from where this
                # one was (nothing read yet is skipped); every stream is woken to look for itself
                self._stop.wait(self.poll)
                self.nudge()

    def _follow(self, log: EventStore, position: int) -> int:
        """Read what was appended after ``position`` (in global order, which shows no later
        position before an earlier one commits) and wake the tables it names."""
        moved: set[str] = set()
        for _ in range(PAGES_BEFORE_WAKING_ALL):
            page = log.read_all(position + 1, READ_PAGE)
            if not page:
                if moved:
                    self.nudge(*moved)
                return position
            if self.feeds is not None:  # folded once here for every stream of each table
                self.feeds.feed(page, whole=len(page) < READ_PAGE)
            moved.update(event.stream_id for event in page)
            position = page[-1].position
        self.nudge()  # far behind: every stream reads for itself
        return self._head(log)

    def _look_for_refusals(self, number: int, outcomes: EventStore) -> None:
        """Which tables had a refusal recorded since the last look (at most every
        ``REFUSALS_EVERY`` seconds, one query for every table): their streams are told."""
        if self.feeds is None or not isinstance(outcomes, OutcomeStore):
            return
        now = time.monotonic()
        if now - self._refusals_looked.get(number, 0.0) < REFUSALS_EVERY:
            return
        self._refusals_looked[number] = now
        seen = self._refusals_seen.get(number)
        if seen is None:
            self._refusals_seen[number] = outcomes.last_outcome_sequence()
            return
        found = outcomes.refusals_after(seen, READ_PAGE)
        if found:
            self._refusals_seen[number] = found[-1].sequence
            tables = {o.table_id for o in found}
            self.feeds.refused(tables)
            self.nudge(*tables)

    def generation_of(self, table_id: str) -> int:
        with self._lock:
            return self._tables[table_id] if table_id else self.generation

    def nudge(self, *table_ids: str) -> None:
        """Wake the streams of ``table_ids`` (none given: of every table), and the waiters on
        every table. Also for a refusal recorded, which stores no event."""
        with self._lock:
            self.generation += 1
            if table_ids:
                for table_id in table_ids:
                    self._tables[table_id] += 1
                keys = [*table_ids, EVERY_TABLE]
            else:
                for table_id in self._tables:
                    self._tables[table_id] += 1
                keys = list(self._waiters)
                if self.feeds is not None:
                    self.feeds.all_stale()
            if len(self._tables) > TABLES_KEPT:
                for table_id in [t for t in self._tables if t not in self._waiters]:
                    del self._tables[table_id]
            waiters = [w for key in keys for w in self._waiters.get(key, ())]
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    async def wait(self, seen: int, timeout: float, table_id: str = EVERY_TABLE) -> bool:
        """Until a wake-up of ``table_id`` (default: of any table) after generation ``seen``
        (True), or ``timeout`` seconds (False)."""
        event = asyncio.Event()
        entry = (asyncio.get_running_loop(), event)
        with self._lock:  # checked and registered under the lock nudge takes: none is missed
            now = self._tables[table_id] if table_id else self.generation
            if now != seen:
                return True
            self._waiters[table_id].add(entry)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            with self._lock:
                found = self._waiters.get(table_id)
                if found is not None:
                    found.discard(entry)
                    if not found:
                        del self._waiters[table_id]
