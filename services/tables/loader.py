"""Loading a table: a trusted start (a state this process folded, or a checked snapshot), then
the tail of its stream, folded.

A start is used only where it sits on the stream as stored: it names the version it covers and
that event's hash, and the event read back at that version must carry that hash, else the
start is dropped and the whole stream folded. A snapshot is also sealed with an HMAC under a
key held outside the store (``snapshot_key``), so a row altered in the database is ignored
rather than served; without a key no snapshot is written or read. Snapshots are JSON of the
state's current shape (``state_json``): one of another shape, or not JSON, is ignored. Either
way a snapshot is an optimisation only: with none, every answer is the same. Snapshots hold
the folded state, sealed seeds included, so the snapshot table is as confidential as the
sealed seeds themselves.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from typing import Any

from events.base import DomainEvent
from events.envelope import RecordedEvent
from events.fairness import check_seed
from events.hashchain import GENESIS_HASH, canonical_json
from events.store.base import EventStore, SeedError
from services.rules.events.hand import HandStarted, SeedRevealed
from services.rules.table import TableState, evolve
from services.tables.codec import decode
from services.tables.state_json import STATE_SHAPE, StateDecodeError, decode_state, encode_state

SNAPSHOT_SCHEMA = f"table-state/json/{STATE_SHAPE}"
SNAPSHOT_KEY_ENV = "PAIJU_SNAPSHOT_KEY"
MIN_KEY_BYTES = 16


class SealedSeedError(RuntimeError):
    """A deal's sealed seed is missing or does not match its commitment."""


@dataclass(frozen=True)
class LoadedTable:
    """A table's state as of ``version``, whose event in the stream has hash ``head_hash``."""

    state: TableState
    version: int
    head_hash: str = GENESIS_HASH


EMPTY = LoadedTable(TableState(), 0, GENESIS_HASH)


def snapshot_key_from_env() -> bytes | None:
    """The snapshot key in ``$PAIJU_SNAPSHOT_KEY`` (at least 16 bytes), or None."""
    text = os.environ.get(SNAPSHOT_KEY_ENV)
    if not text:
        return None
    key = text.encode("utf-8", "surrogateescape")
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"${SNAPSHOT_KEY_ENV} must be at least {MIN_KEY_BYTES} bytes")
    return key


def revealed_seeds(events: list[RecordedEvent]) -> dict[int, str]:
    """The seeds a stream itself reveals (``seed_revealed``), by hand number. A reveal that
    cannot be read is left out here: the fold reaches it and names it."""
    seeds: dict[int, str] = {}
    for recorded in events:
        if recorded.type == "seed_revealed":
            try:
                event = decode(recorded)
            except ValueError:  # pydantic's ValidationError: a tampered payload
                continue
            if isinstance(event, SeedRevealed):
                seeds[event.hand_number] = event.seed
    return seeds


def with_given_seed(event: DomainEvent, seeds: dict[int, str]) -> DomainEvent | None:
    """A sealed deal with its seed from ``seeds`` (what a replay was given: the stream's
    reveals and the seeds a dispute brings, never the store's sealed ones); None when that
    hand's seed is not among them, so it cannot be dealt again; any other event as it is."""
    if not isinstance(event, HandStarted) or event.seed is not None or event.wall is not None:
        return event
    seed = seeds.get(event.hand_number)
    return None if seed is None else event.model_copy(update={"seed": seed})


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
    store: EventStore, table_id: str, events: list[RecordedEvent], start: LoadedTable
) -> LoadedTable:
    """``start`` with ``events`` (the ones right after it) applied."""
    revealed = revealed_seeds(events)
    state = start.state
    for recorded in events:
        state = evolve(state, with_seed(store, table_id, decode(recorded), revealed))
    if not events:
        return start
    return LoadedTable(state, events[-1].version, events[-1].hash)


def load(
    store: EventStore,
    table_id: str,
    use_snapshot: bool = True,
    known: LoadedTable | None = None,
    snapshot_key: bytes | None = None,
) -> LoadedTable:
    """The table now: from ``known`` (a state this process folded before) or the latest
    snapshot, plus the events after it; from nothing when neither sits on the stream."""
    start = known
    if start is None and use_snapshot and snapshot_key is not None:
        start = snapshot_start(store, table_id, snapshot_key)[0]
    if start is not None and start.version > 0:
        events = store.read_stream(table_id, from_version=start.version)
        if events and events[0].version == start.version and events[0].hash == start.head_hash:
            return fold(store, table_id, events[1:], start)
    return fold(store, table_id, store.read_stream(table_id), EMPTY)


# -- snapshots --------------------------------------------------------------------------------
def _mac(key: bytes, table_id: str, version: int, covers: str, state: Any) -> str:
    content = canonical_json(
        {
            "table": table_id,
            "version": version,
            "covers": covers,
            "schema": SNAPSHOT_SCHEMA,
            "state": state,
        }
    )
    return hmac.new(key, content.encode("utf-8"), hashlib.sha256).hexdigest()


def save_snapshot(store: EventStore, table_id: str, loaded: LoadedTable, key: bytes) -> None:
    """Store ``loaded`` as JSON, bound to the event it covers and sealed with ``key``."""
    state = encode_state(loaded.state)
    document = {
        "covers": loaded.head_hash,
        "state": state,
        "mac": _mac(key, table_id, loaded.version, loaded.head_hash, state),
    }
    store.save_snapshot(table_id, loaded.version, document, SNAPSHOT_SCHEMA)


def snapshot_start(
    store: EventStore, table_id: str, key: bytes
) -> tuple[LoadedTable | None, str | None]:
    """The stored snapshot as a start to fold from, or None and why it cannot be one.

    Checked here: shape, form and MAC. Whether the event it covers is in the stream with that
    hash is checked by ``load`` when it reads the tail (one row more).
    """
    snapshot = store.load_snapshot(table_id)
    if snapshot is None:
        return None, None
    if snapshot.schema != SNAPSHOT_SCHEMA:
        return None, f"snapshot of another shape ({snapshot.schema}), not {SNAPSHOT_SCHEMA}"
    document = snapshot.state
    if not isinstance(document, dict) or set(document) != {"covers", "state", "mac"}:
        return None, "snapshot is not a JSON document of covers, state and mac"
    covers, state, mac = document["covers"], document["state"], document["mac"]
    if not isinstance(covers, str) or not isinstance(mac, str):
        return None, "snapshot's covers and mac must be text"
    if not hmac.compare_digest(_mac(key, table_id, snapshot.version, covers, state), mac):
        return None, f"snapshot at version {snapshot.version}: its MAC does not match its contents"
    try:
        return LoadedTable(decode_state(state), snapshot.version, covers), None
    except StateDecodeError as error:
        return None, f"snapshot at version {snapshot.version}: {error}"
