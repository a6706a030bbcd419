"""Loading a stream's state as snapshot + tail, and taking snapshots every N events.

A snapshot is an optimisation only: ``load_state`` with or without one returns
the same state, because a snapshot is the same fold stopped at its version.
A ``Snapshotter`` is bound to one fold through its ``schema`` tag: change the
fold (or its state's shape) and change the tag, and old snapshots are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from events.envelope import JSONDict, RecordedEvent
from events.store.base import EventStore

S = TypeVar("S")
Fold = Callable[[S, RecordedEvent], S]


@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    state: S
    version: int
    from_snapshot: int | None
    """The snapshot's version the load started from, or None for a full replay."""


@dataclass(frozen=True, slots=True)
class Snapshotter(Generic[S]):
    schema: str
    encode: Callable[[S], bytes | JSONDict]
    decode: Callable[[bytes | JSONDict], S]
    every: int = 100

    def load(
        self,
        store: EventStore,
        stream_id: str,
        initial: S,
        fold: Fold[S],
        *,
        use_snapshot: bool = True,
    ) -> Loaded[S]:
        """Fold the stream onto the latest snapshot (or ``initial``), reading only the tail."""
        snapshot = store.load_snapshot(stream_id, self.schema) if use_snapshot else None
        state, version = initial, 0
        if snapshot is not None:
            state, version = self.decode(snapshot.state), snapshot.version
        for event in store.read_stream(stream_id, version + 1):
            state, version = fold(state, event), event.version
        return Loaded(state, version, snapshot.version if snapshot is not None else None)

    def due(self, before: int, after: int) -> bool:
        """Whether moving the stream from version ``before`` to ``after`` crosses a multiple of N."""
        return self.every > 0 and after // self.every > before // self.every

    def maybe_save(
        self, store: EventStore, stream_id: str, before: int, after: int, state: S
    ) -> bool:
        """Save ``state`` (as of version ``after``) if a snapshot is due; True if saved."""
        if not self.due(before, after):
            return False
        store.save_snapshot(stream_id, after, self.encode(state), self.schema)
        return True
