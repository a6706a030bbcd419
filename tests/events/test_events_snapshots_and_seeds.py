"""Snapshots change no answer; seeds stay out of the streams until revealed."""

from __future__ import annotations

import pytest
from store_kit import RULES, discard

from events.envelope import Actor, JSONDict, NewEvent, RecordedEvent
from events.fairness import check_seed, new_seed
from events.store.base import EventStore, SeedError
from events.store.snapshots import Snapshotter


def count_tiles(state: JSONDict, event: RecordedEvent) -> JSONDict:
    counts = dict(state)
    tile = event.payload["tile"]
    counts[tile] = counts.get(tile, 0) + 1
    return counts


snapshotter: Snapshotter[JSONDict] = Snapshotter("tiles-v1", encode=dict,
                                                 decode=lambda s: dict(s) if isinstance(s, dict) else {},
                                                 every=10)


def play(store: EventStore, events: int) -> JSONDict:
    state: JSONDict = {}
    for version in range(events):
        (recorded,) = store.append("t", version, [discard(version % 4, f"{version % 9 + 1}m")])
        state = count_tiles(state, recorded)
        snapshotter.maybe_save(store, "t", version, version + 1, state)
    return state


def test_loading_from_a_snapshot_gives_the_same_state_as_a_full_replay(store: EventStore) -> None:
    live = play(store, 25)
    with_snapshot = snapshotter.load(store, "t", {}, count_tiles)
    assert with_snapshot.from_snapshot == 20 and with_snapshot.version == 25
    full = snapshotter.load(store, "t", {}, count_tiles, use_snapshot=False)
    assert with_snapshot.state == full.state == live
    assert store.delete_snapshots() == 1
    again = snapshotter.load(store, "t", {}, count_tiles)
    assert again.from_snapshot is None and again.state == live


def test_a_snapshot_of_another_schema_or_an_older_version_is_ignored(store: EventStore) -> None:
    store.save_snapshot("t", 10, {"a": 1}, "v1")
    store.save_snapshot("t", 5, {"a": 0}, "v1")  # older: keeps the newer one
    snapshot = store.load_snapshot("t")
    assert snapshot is not None and (snapshot.version, snapshot.state) == (10, {"a": 1})
    assert store.load_snapshot("t", schema="v2") is None
    store.save_snapshot("t", 12, b"\x00\xffraw", "v2")
    binary = store.load_snapshot("t", schema="v2")
    assert binary is not None and binary.state == b"\x00\xffraw"
    assert store.delete_snapshots("other") == 0 and store.delete_snapshots("t") == 1
    assert store.load_snapshot("t") is None


def test_a_sealed_seed_stays_out_of_the_stream_until_revealed(store: EventStore) -> None:
    seed = new_seed()
    commitment = store.seal_seed("t", 1, seed)
    store.append("t", 0, [discard()])
    store.append("t", 1, [NewEvent("hand_dealt", {"hand": 1, "seed_commitment": commitment},
                                   Actor.system(), RULES)])
    assert seed not in repr(store.read_all())
    assert store.load_seed("t", 1) == seed
    revealed = store.reveal("t", 1)
    dealt = store.read_stream("t")[1].payload
    assert check_seed(revealed, dealt["seed_commitment"])
    assert store.reveal("t", 1) == seed  # revealing twice is harmless


def test_sealing_is_idempotent_but_a_second_seed_for_a_hand_is_refused(store: EventStore) -> None:
    seed = new_seed()
    assert store.seal_seed("t", 2, seed) == store.seal_seed("t", 2, seed)
    with pytest.raises(SeedError, match="another seed"):
        store.seal_seed("t", 2, new_seed())
    assert store.load_seed("t", 2) == seed
    store.seal_seed("u", 2, new_seed())  # other tables and hands are independent


def test_asking_for_a_seed_never_sealed_is_an_error(store: EventStore) -> None:
    with pytest.raises(SeedError, match="no sealed seed"):
        store.load_seed("t", 9)
    with pytest.raises(SeedError, match="no sealed seed"):
        store.reveal("t", 9)
