"""One table as an API process follows it: read and folded once for all its streams.

Every open stream of a table used to read the store and fold the table for itself on every
wake-up (four seats: four reads and four folds of the same events). A ``TableFeed`` is the
table's one fold in the process, fed the events the wake-up follower has already read
(``feed``), or, when those do not join on (the feed is new, the follower was far behind or the
store away), reading the stream itself once for every stream (``catch_up``). Each event is
redacted once per seat as it is folded; a stream only takes, from the feed's recent events,
those after its own cursor, and the table at the feed's head for its options. A stream further
behind than the feed keeps (a resume from long ago) reads the store for itself
(``stream.read_page``), as before, until it reaches the feed.

The last event of a batch that settles a hand carries ``anchor`` (its version and hash), as
``stream.read_page`` gives it: a batch is always whole here, since a store appends one
atomically and the follower feeds only pages that end at the head of the global order.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import orjson

from events.envelope import RecordedEvent
from events.store.base import EventStore
from services.rules.table.redact import event_for
from services.tables import loader
from services.tables.folds import KeptFolds
from services.tables.options import EventTimes, seat_options
from services.tables.stream import fold_events, shown

SEATS = (0, 1, 2, 3)


@dataclass(frozen=True)
class FedEvent:
    """One event of the table as each seat may see it (``{"version", "type", "payload"}``
    and, where a batch settles a hand, ``anchor``)."""

    version: int
    shown: tuple[dict[str, Any], ...]  # by seat
    _wire: list[str | None] = field(default_factory=lambda: [None] * len(SEATS), compare=False)

    def for_seat(self, seat: int) -> dict[str, Any]:
        return dict(self.shown[seat])  # a copy: a stream adds its options to its own

    def wire(self, seat: int) -> str:
        """The seat's event as JSON, encoded once for all the seat's streams."""
        found = self._wire[seat]
        if found is None:  # two threads may both encode it: the same text, kept once
            found = self._wire[seat] = orjson.dumps(self.shown[seat]).decode()
        return found


@dataclass(frozen=True)
class FeedView:
    """What a stream takes from the feed at once: the events after its cursor and the table
    they lead to (None: the stream is behind what the feed keeps, and reads for itself)."""

    events: list[FedEvent]
    head: loader.LoadedTable


class TableFeed:
    """The table's fold and its recent events, redacted per seat (``KEPT`` of them)."""

    KEPT = 64

    def __init__(self, store: EventStore, table_id: str, start: loader.LoadedTable,
                 kept: KeptFolds | None = None) -> None:  # fmt: skip
        self.store, self.table_id, self.kept = store, table_id, kept
        self.head = start
        self.recent: deque[FedEvent] = deque(maxlen=self.KEPT)
        self.stale = True  # not known to be at the store's head: the next reader reads
        self.refusals = 0  # moves on each refusal at the table seen here: its streams then look
        self._options: dict[tuple[int, int], tuple[dict[str, Any], str]] = {}  # (version, seat)
        self.times = EventTimes(store, table_id)  # the fed events' times: deadlines' due_at
        self._lock = threading.Lock()

    def catch_up(self) -> None:
        """Read what the store holds after the feed's head (once, whoever asks first)."""
        with self._lock:
            if not self.stale:
                return
            head = self.head
            events = self.store.read_stream(self.table_id, from_version=max(1, head.version))
            if head.version > 0:
                if not events or (events[0].version, events[0].hash) != (head.version, head.head_hash):
                    self._restart()
                    return
                events = events[1:]
            self._fold(events)  # raises for a stream that cannot be folded: it stays stale
            self.stale = False

    def feed(self, events: list[RecordedEvent]) -> None:
        """The table's events as the follower read them (a whole page, in order): folded on
        where they join the head; else the feed reads for itself at its next reader."""
        with self._lock:
            fresh = [e for e in events if e.version > self.head.version]
            if not fresh:
                return
            first = fresh[0]
            if self.stale or first.version != self.head.version + 1 or first.prev_hash != self.head.head_hash:
                self.stale = True
                return
            try:
                self._fold(fresh)
            except Exception:  # the follower goes on for every other table; a stream of this
                self.stale = True  # one reads for itself, and meets the error in its own request

    def at_least(self, version: int) -> loader.LoadedTable | None:
        """The head once it is at ``version`` or later (read for, if it is behind); None if
        the store does not hold it either."""
        if self.head.version < version:
            self.stale = True
            self.catch_up()
        head = self.head
        return head if head.version >= version and not self.stale else None

    def since(self, version: int) -> FeedView | None:
        """The events after ``version`` and the head, or None when the feed no longer keeps
        the event right after ``version`` (or is stale: read for yourself)."""
        with self._lock:
            if self.stale:
                return None
            head, recent = self.head, list(self.recent)
        if version >= head.version:
            return FeedView([], head)
        if not recent or recent[0].version > version + 1:
            return None
        return FeedView([e for e in recent if e.version > version], head)

    def options_at(self, head: loader.LoadedTable, seat: int) -> dict[str, Any]:
        """The seat's options at ``head`` (a head this feed gave), worked out once for every
        stream of the seat (a seat watched from many devices)."""
        return self.options_wire_at(head, seat)[0]

    def options_wire_at(self, head: loader.LoadedTable, seat: int,
                        compute: bool = True) -> tuple[dict[str, Any], str]:  # fmt: skip
        """The seat's options at ``head`` and their JSON; ``compute`` False: only if worked
        out already (``KeyError`` else: working them out may read the store)."""
        key = (head.version, seat)
        with self._lock:
            found = self._options.get(key)
        if found is None:
            if not compute:
                raise KeyError(key)
            options = seat_options(head.state, seat, self.times)
            found = (options, orjson.dumps(options).decode())
            with self._lock:
                if any(version != head.version for version, _ in self._options):
                    self._options.clear()  # only the newest head's are asked for again
                self._options[key] = found
        return found

    def prepare(self) -> None:
        """Work out every seat's options at the head now (the follower's thread, after a
        feed): its streams then send them from the event loop, with no thread of their own."""
        head = self.head
        for seat in SEATS:
            self.options_wire_at(head, seat)

    def _restart(self) -> None:
        """The store no longer holds the feed's head (cut or rewritten): begin again from it."""
        self.head, self.recent = loader.EMPTY, deque(maxlen=self.KEPT)
        self.stale = True

    def _fold(self, events: list[RecordedEvent]) -> None:
        """Fold ``events`` on from the head: all of them, or (raising) none."""
        state, fed = self.head.state, []
        for folded in fold_events(self.store, self.table_id, events, state):
            payloads = (event_for(seat, folded.event, folded.before) for seat in SEATS)
            fed.append(FedEvent(folded.recorded.version, tuple(shown(folded, p) for p in payloads)))
            state = folded.after
        self.recent.extend(fed)
        self.times.note((e.version, e.recorded_at) for e in events)
        if events:
            self.head = loader.LoadedTable(state, events[-1].version, events[-1].hash)
            if self.kept is not None:  # a view, a legal list or a command's options fold on from here
                self.kept.keep(self.table_id, self.head)


class TableFeeds:
    """The feeds of the tables this process streams: one per table while a stream of it is
    open (``opened``/``closed`` count them), fed by the follower (``feed``)."""

    def __init__(self, store: EventStore, kept: KeptFolds | None = None) -> None:
        self.store, self.kept = store, kept
        self._feeds: dict[str, tuple[TableFeed, int]] = {}
        self._lock = threading.Lock()

    def opened(self, table_id: str) -> TableFeed:
        with self._lock:
            found, streams = self._feeds.get(table_id, (None, 0))
            if found is None:
                start = self.kept.get(table_id) if self.kept is not None else None
                found = TableFeed(self.store, table_id, start or loader.EMPTY, self.kept)
            self._feeds[table_id] = (found, streams + 1)
            return found

    def get(self, table_id: str) -> TableFeed | None:
        """The table's feed while a stream of it is open here."""
        with self._lock:
            found = self._feeds.get(table_id)
        return None if found is None else found[0]

    def closed(self, table_id: str) -> None:
        with self._lock:
            found, streams = self._feeds[table_id]
            if streams == 1:
                del self._feeds[table_id]
            else:
                self._feeds[table_id] = (found, streams - 1)

    def feed(self, page: list[RecordedEvent], whole: bool) -> None:
        """A page of the global order the follower read: each followed table's events fed to
        its feed; a page cut short (``whole`` False: it may end inside a batch) only tells
        those feeds to read for themselves."""
        by_table: dict[str, list[RecordedEvent]] = {}
        with self._lock:
            for recorded in page:
                if recorded.stream_id in self._feeds:
                    by_table.setdefault(recorded.stream_id, []).append(recorded)
            feeds = {t: self._feeds[t][0] for t in by_table}
        for table_id, events in by_table.items():
            if not whole:
                feeds[table_id].stale = True
                continue
            feeds[table_id].feed(events)
            with contextlib.suppress(Exception):  # a stream works them out (and meets it) itself
                if not feeds[table_id].stale:
                    feeds[table_id].prepare()

    def refused(self, table_ids: set[str]) -> None:
        """A refusal was recorded at these tables (refusals store no event): their streams
        look for the ones of their seat once, not on every wake-up."""
        with self._lock:
            for table_id in table_ids:
                if table_id in self._feeds:
                    self._feeds[table_id][0].refusals += 1

    def all_stale(self) -> None:
        """The follower lost track (far behind, or the store was away): every feed reads."""
        with self._lock:
            for found, _ in self._feeds.values():
                found.stale = True
                found.refusals += 1

    def __len__(self) -> int:
        with self._lock:
            return len(self._feeds)
