"""Tables over several stores (partitions): where a table lives, and positions across stores.

A deployment has a home store (``PAIJU_STORE``: rooms, players' streams and accounts, the read
models, the outbox) and, optionally, numbered table stores (``PAIJU_TABLE_STORES``:
``"1=postgresql://...?schema=t1 2=postgresql://..."``). Without table stores every table lives
in the home store, partition 0, as it always has.

A new table goes to the partition its id hashes highest with (rendezvous hashing over the
partitions' numbers: stable for a given set, and a partition added later takes only its share
of new tables). That choice is recorded in the home store when the table opens
(``place_table``) and read from there ever after, so adding a partition never moves an open
table, and two processes configured apart agree on the first one's choice.

Each store keeps its own global order. Read models merge them: a *merged position* is a
partition's number above a store's position (``merged_position``); partition 0's merged
positions are its store positions, so a deployment of one store reads as it always has.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from events.envelope import RecordedEvent, check_id
from events.store.base import EventStore
from services.tables.recent import Recent

HOME = 0
"""The home store's partition number: rooms, players, accounts, and tables when no table
store is configured."""
MAX_PARTITION = 4095
POSITION_BITS = 40
"""A store position below 2**40 (a trillion events) fits beside its partition's number."""
HOME_PREFIXES = ("room:", "player:")
"""Streams of the home store; every other stream is a table's, named by its id."""
_ITEM = re.compile(r"^([0-9]{1,4})=(\S+)$")


class PartitionError(ValueError):
    """A table-store setting or a position that cannot be used; the message says why."""


def parse_table_stores(text: str) -> dict[int, str]:
    """``"1=URL 2=URL"`` (spaces, commas or new lines between): each table store's number
    (1..4095, each once) and store URL; ``""``: none (every table in the home store)."""
    found: dict[int, str] = {}
    for item in text.replace(",", " ").split():
        match = _ITEM.match(item)
        if match is None:
            raise PartitionError(f"{item[:80]!r} is not NUMBER=STORE_URL (e.g. 1=postgresql://"
                                 "127.0.0.1/paiju?schema=tables1)")  # fmt: skip
        number, url = int(match.group(1)), match.group(2)
        if not 1 <= number <= MAX_PARTITION:
            raise PartitionError(f"table store {number}: a number from 1 to {MAX_PARTITION}"
                                 f" (0 is the home store)")  # fmt: skip
        if number in found:
            raise PartitionError(f"table store {number} is named twice")
        found[number] = url
    if len(set(found.values())) != len(found):
        raise PartitionError("two table stores name the same store URL")
    return found


def merged_position(partition: int, position: int) -> int:
    """A store position as the read models order it: its partition's number above it."""
    if position >= 1 << POSITION_BITS:
        raise PartitionError(f"position {position} of partition {partition} is past 2**40")
    return (partition << POSITION_BITS) | position


def split_position(merged: int) -> tuple[int, int]:
    """``(partition, store position)`` of a merged position."""
    return merged >> POSITION_BITS, merged & ((1 << POSITION_BITS) - 1)


def merged_events(partition: int, events: list[RecordedEvent]) -> list[RecordedEvent]:
    """A partition's events with merged positions (the home store's as they are)."""
    if partition == HOME:
        return events
    base = merged_position(partition, 0)
    return [dataclasses.replace(e, position=base + e.position) for e in events]


def partition_for(table_id: str, partitions: Iterable[int]) -> int:
    """The partition a new table goes to: the one whose number hashes highest with its id."""

    def weight(partition: int) -> bytes:
        return hashlib.sha256(f"{partition}\x00{table_id}".encode()).digest()

    return max(partitions, key=weight)


def is_home_stream(stream_id: str) -> bool:
    return stream_id.startswith(HOME_PREFIXES)


class LazyStores(Mapping[int, EventStore]):
    """Table stores by number, each opened the first time it is asked for: a reader of one
    partition connects to that store alone (every process opening every store's pools ran a
    server of four schemas out of connections)."""

    def __init__(self, opens: Mapping[int, Callable[[], EventStore]]) -> None:
        self._opens: dict[int, Callable[[], EventStore]] = dict(opens)
        self._opened: dict[int, EventStore] = {}
        self._lock = threading.Lock()

    def __getitem__(self, number: int) -> EventStore:
        with self._lock:
            if number not in self._opened:
                self._opened[number] = self._opens[number]()
            return self._opened[number]

    def __iter__(self) -> Iterator[int]:
        return iter(self._opens)

    def __contains__(self, number: object) -> bool:  # Mapping's own would open the store
        return number in self._opens

    def __len__(self) -> int:
        return len(self._opens)

    def opened(self) -> list[EventStore]:
        with self._lock:
            return list(self._opened.values())


class Partitions:
    """The home store and the table stores, and where each table lives (kept per process)."""

    def __init__(self, home: EventStore, tables: Mapping[int, EventStore] | None = None,
                 remembered: int = 100_000) -> None:  # fmt: skip
        self.home = home
        self.tables: Mapping[int, EventStore] = tables if tables else {HOME: home}
        self._placed: Recent[int] = Recent(remembered)  # placements never change: kept

    @property
    def spread(self) -> bool:
        """Whether tables live outside the home store."""
        return set(self.tables) != {HOME}

    def readers(self) -> dict[int, EventStore]:
        """Every store with a log to read, by partition number (the home store's is 0)."""
        return {HOME: self.home, **self.tables}

    def store(self, partition: int) -> EventStore:
        """One partition's store (opened now if it was not yet)."""
        return self.home if partition == HOME else self.tables[partition]

    def placed(self, table_id: str) -> int | None:
        """The partition the table was placed in (None: no table of that id opened yet)."""
        if not self.spread:
            return HOME
        known = self._placed.get(table_id)
        if known is not None:
            return known
        found = self.home.placement_of(table_id)  # type: ignore[attr-defined]
        if found is not None:
            self._placed.keep(table_id, self._known(table_id, found))
        return found

    def _known(self, table_id: str, partition: int) -> int:
        if partition not in self.tables:
            raise PartitionError(f"table {table_id} lives in table store {partition}, which this"
                                 " process is not configured with (PAIJU_TABLE_STORES)")  # fmt: skip
        return partition

    def place(self, table_id: str) -> int:
        """The table's partition, chosen and recorded now if it has none (an opening)."""
        check_id("table_id", table_id)
        known = self.placed(table_id)
        if known is not None:
            return known
        chosen = partition_for(table_id, self.tables)
        placed = self._known(table_id, int(self.home.place_table(table_id, chosen)))  # type: ignore[attr-defined]
        self._placed.keep(table_id, placed)
        return placed

    def close(self) -> None:
        opened = (
            self.tables.opened()
            if isinstance(self.tables, LazyStores)
            else list(self.tables.values())
        )
        for store in {id(s): s for s in [self.home, *opened]}.values():
            store.close()


class PartitionLog:
    """One partition's store as a reader of the merged order sees it: its events' positions
    are merged positions (``merged_position``), and so are the positions it is asked from.
    A projector, a reactor or the API's follower keeps its checkpoint for the partition in
    these, so checkpoints of two partitions never collide; timers and the rest pass through."""

    def __init__(self, store: EventStore, partition: int) -> None:
        self.store, self.partition = store, partition
        self.base = merged_position(partition, 0)

    def _raw(self, merged: int) -> int:
        return max(merged - self.base, 0)

    def read_all(self, from_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        return merged_events(self.partition, self.store.read_all(self._raw(from_position), limit))

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        return bool(self.store.wait_for_events(self._raw(after_position), timeout))

    def last_position(self) -> int:
        """The partition's head as a merged position (its base while it holds no event)."""
        return self.base + int(self.store.last_position())  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)
