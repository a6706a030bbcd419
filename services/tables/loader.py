"""Loading a table: the latest snapshot (if any), then the tail of its stream, folded.

A snapshot is an optimisation only: with none, the whole stream is folded and every answer
is the same. Snapshots hold the folded state, sealed seeds included, so the snapshot table
is as confidential as the sealed seeds themselves.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass

from events.base import DomainEvent
from events.envelope import RecordedEvent
from events.fairness import check_seed
from events.hand import HandStarted, SeedRevealed
from events.store.base import EventStore, SeedError
from services.rules import RULES_VERSION
from services.rules.table import TableState, evolve
from services.tables.codec import decode

SNAPSHOT_SCHEMA = f"table-state/{RULES_VERSION}"


class SealedSeedError(RuntimeError):
    """A deal's sealed seed is missing or does not match its commitment."""


@dataclass(frozen=True)
class LoadedTable:
    state: TableState
    version: int


def revealed_seeds(events: list[RecordedEvent]) -> dict[int, str]:
    """The seeds a stream itself reveals (``seed_revealed``), by hand number."""
    seeds: dict[int, str] = {}
    for recorded in events:
        if recorded.type == "seed_revealed":
            event = decode(recorded)
            assert isinstance(event, SeedRevealed)
            seeds[event.hand_number] = event.seed
    return seeds


def with_seed(
    store: EventStore, table_id: str, event: DomainEvent, revealed: dict[int, str] | None = None
) -> DomainEvent:
    """Join a deal's seed back in (revealed in the stream, else sealed in the store), checked
    against the commitment in the stream."""
    if (
        not isinstance(event, HandStarted)
        or event.seed is not None
        or event.seed_commitment is None
    ):
        return event
    seed = (revealed or {}).get(event.hand_number)
    if seed is None:
        try:
            seed = store.load_seed(table_id, event.hand_number)
        except SeedError as error:
            raise SealedSeedError(f"table {table_id} hand {event.hand_number}: {error}") from error
    if not check_seed(seed, event.seed_commitment):
        raise SealedSeedError(
            f"table {table_id} hand {event.hand_number}: the seed does not match its commitment"
        )
    return event.model_copy(update={"seed": seed})


def fold(
    store: EventStore, table_id: str, events: list[RecordedEvent], state: TableState
) -> TableState:
    revealed = revealed_seeds(events)
    for recorded in events:
        state = evolve(state, with_seed(store, table_id, decode(recorded), revealed))
    return state


def load(
    store: EventStore, table_id: str, use_snapshot: bool = True, known: LoadedTable | None = None
) -> LoadedTable:
    """The table now: from ``known`` (a state this process folded before) or the latest
    snapshot, plus the events after it. Events never change, so either start is as good as
    folding the whole stream."""
    if known is not None:
        state, version = known.state, known.version
    else:
        snapshot = store.load_snapshot(table_id, schema=SNAPSHOT_SCHEMA) if use_snapshot else None
        state, version = TableState(), 0
        if snapshot is not None and isinstance(snapshot.state, bytes):
            state, version = pickle.loads(snapshot.state), snapshot.version
    tail = store.read_stream(table_id, from_version=version + 1)
    state = fold(store, table_id, tail, state)
    return LoadedTable(state=state, version=tail[-1].version if tail else version)


def save_snapshot(store: EventStore, table_id: str, loaded: LoadedTable) -> None:
    store.save_snapshot(table_id, loaded.version, pickle.dumps(loaded.state), SNAPSHOT_SCHEMA)
