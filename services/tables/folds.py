"""The tables a process folded last: one bounded cache of folds (``KeptFolds``), which the table
service decides on and the API's reads (``TableFolds``) share.

Every view, legal and rulings request folds its table: from the fold this process kept of it
plus the events since (``loader.load``: a kept fold is used only where its version and hash
still sit on the stream, so an old one makes the read longer, never wrong), else from a
checked snapshot and its tail. One ``TableService`` behind one lock made every table's read
wait on every other's. Here:

- a table is folded by one thread at a time, under its own lock: two readers of one table
  would read and fold the same tail twice; the second now starts from the first's fold;
- different tables fold in parallel: a table's lock lives only while someone reads it (a
  count of holders), so the locks do not grow with every table id ever read;
- the kept folds (``KeptFolds``, a bounded LRU) are touched only under a short lock, for a get
  and a put, never across a read of the store;
- a table's rules version (规则版本) is fixed by its opening event for good: a command's route
  learns it from a kept fold, else from that one event, remembered, never from a fold of its own.

A fold (``LoadedTable``, its ``TableState``) is immutable: handing one to several threads is
safe.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from events.registry import registry
from events.store.base import EventStore
from services.rules.events.hand import TableOpened
from services.rules.table import TableState
from services.tables import loader
from services.tables.recent import Recent


class KeptFolds(Recent[loader.LoadedTable]):
    """The last tables folded: the table service decides on them, the API's reads share them."""


VERSIONS_KEPT = 10_000
"""Tables whose rules version a process remembers (a short string each: about a megabyte)."""


class TableFolds:
    """Tables read for views: each folded by one thread at a time, from the kept fold."""

    def __init__(self, store: EventStore, snapshot_key: bytes | None = None,
                 cached_tables: int = 256, kept: KeptFolds | None = None) -> None:  # fmt: skip
        self.store, self.snapshot_key = store, snapshot_key
        self.kept = kept if kept is not None else KeptFolds(cached_tables)
        self._locks: dict[str, tuple[threading.Lock, int]] = {}  # table id -> lock, holders
        self._locks_lock = threading.Lock()
        self._versions: Recent[str] = Recent(VERSIONS_KEPT)

    def rules_version(self, table_id: str) -> str | None:
        """The rules version ``table_id`` was opened under; None while no table has that id."""
        kept = self.kept.get(table_id)
        if kept is not None and kept.state.opened:
            return kept.state.rules_version
        known = self._versions.get(table_id)
        if known is not None:
            return known
        first = self.store.read_event(table_id, 1)
        if first is None or first.type != TableOpened.model_fields["type"].default:
            return None
        opened = registry.decode(first)
        assert isinstance(opened, TableOpened)
        self._versions.keep(table_id, opened.rules_version)
        return opened.rules_version

    def load(self, table_id: str) -> TableState:
        """The table now (as of the store when this read began)."""
        with self._table_lock(table_id):
            known = self.kept.get(table_id)
            loaded = loader.load(self.store, table_id, known=known, snapshot_key=self.snapshot_key)
            self.kept.keep(table_id, loaded)
            return loaded.state

    @contextmanager
    def _table_lock(self, table_id: str) -> Iterator[None]:
        with self._locks_lock:
            lock, holders = self._locks.get(table_id, (threading.Lock(), 0))
            self._locks[table_id] = (lock, holders + 1)
        try:
            with lock:
                yield
        finally:
            with self._locks_lock:
                lock, holders = self._locks[table_id]
                if holders == 1:
                    del self._locks[table_id]
                else:
                    self._locks[table_id] = (lock, holders - 1)

    def held(self) -> int:
        """How many tables are being read now (their locks kept): for the tests."""
        with self._locks_lock:
            return len(self._locks)
