"""A bounded map of the last values kept by key, least recently used dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")


class Recent(Generic[V]):
    """The last ``limit`` values kept by table id, least recently used dropped first; safe
    across threads (each get, put and drop under a short lock)."""

    def __init__(self, limit: int = 256) -> None:
        self.limit = limit
        self._kept: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table_id: str) -> V | None:
        with self._lock:
            kept = self._kept.get(table_id)
            if kept is not None:
                self._kept.move_to_end(table_id)
            return kept

    def keep(self, table_id: str, value: V) -> None:
        with self._lock:
            self._kept[table_id] = value
            self._kept.move_to_end(table_id)
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)

    def drop(self, table_id: str) -> None:
        with self._lock:
            self._kept.pop(table_id, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
