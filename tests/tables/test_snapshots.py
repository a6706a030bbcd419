"""Snapshots are JSON of the state's shape, bound to the event they cover, sealed, and checked on
load: an altered, foreign, misplaced or pickled one is ignored and the table folded from events."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from pathlib import Path

import pytest
from games import execute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from events.store.base import EventStore
from services.bots.random_bot import random_command
from services.rules.table import TableState, decide_and_evolve
from services.rules.table.commands import OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService
from services.tables.loader import (
    SNAPSHOT_SCHEMA,
    LoadedTable,
    load,
    save_snapshot,
    snapshot_start,
)
from services.tables.state_json import (
    STATE_ADAPTER,
    STATE_SHAPE,
    decode_state,
    encode_state,
    shape_of,
)

PLAYERS = ("ann", "bo", "cy", "di")
KEY = b"a key held outside the store"
VARIANTS = ["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"]


def played(store: EventStore, steps: int = 60, snapshot_every: int = 20) -> TableState:
    """A table ``t1`` played by random bots for ``steps`` commands, snapshotting as it goes."""
    service = TableService(store, snapshot_every=snapshot_every, snapshot_key=KEY)
    service.open_table("t1", "shandong", PLAYERS, command_id="open")
    outcome = service.handle("t1", StartHand(), command_id="deal")
    assert isinstance(outcome, Accepted) and outcome.state is not None
    state, rng = outcome.state, random.Random(3)
    for step in range(steps):
        if state.hand_over:
            break
        command = random_command(state, seats_to_act(state)[0], rng)
        outcome = service.handle("t1", command, command_id=f"step-{step}")
        assert isinstance(outcome, Accepted) and outcome.state is not None
        state = outcome.state
    return state


def stored_document(store: EventStore) -> dict[str, object]:
    snapshot = store.load_snapshot("t1")
    assert snapshot is not None and isinstance(snapshot.state, dict)
    return snapshot.state


def test_a_snapshot_is_json_of_the_state_bound_to_the_event_it_covers(store: EventStore) -> None:
    live = played(store)
    snapshot = store.load_snapshot("t1")
    assert snapshot is not None and snapshot.schema == f"table-state/json/{STATE_SHAPE}"
    document = stored_document(store)
    (covered,) = store.read_stream("t1", from_version=snapshot.version)[:1]
    assert document["covers"] == covered.hash
    start, problem = snapshot_start(store, "t1", KEY)
    assert problem is None and start is not None and start.version == snapshot.version
    assert load(store, "t1", snapshot_key=KEY).state == live == load(store, "t1").state


def test_a_snapshot_with_altered_scores_is_not_served(store: EventStore, store_url: str) -> None:
    live = played(store)
    document = stored_document(store)
    state = document["state"]
    assert isinstance(state, dict)
    state["series"]["scores"] = [1000, -1000, 0, 0]
    execute(
        store_url,
        "UPDATE snapshots SET state_json = %s WHERE stream_id = 't1'",
        (json.dumps(document),),
    )
    start, problem = snapshot_start(store, "t1", KEY)
    assert start is None and problem is not None and "does not match" in problem
    assert load(store, "t1", snapshot_key=KEY).state == live
    assert TableService(store, snapshot_key=KEY).load("t1").series.scores == live.series.scores


def test_a_snapshot_sealed_with_another_key_is_not_served(store: EventStore) -> None:
    live = played(store)
    start, problem = snapshot_start(store, "t1", b"not the key it was sealed with")
    assert start is None and problem is not None
    assert load(store, "t1", snapshot_key=b"not the key it was sealed with").state == live


def test_a_snapshot_that_covers_another_event_than_the_stream_holds_is_ignored(
    store: EventStore,
) -> None:
    live = played(store)
    version = store.stream_version("t1") - 3
    elsewhere = LoadedTable(
        dataclasses.replace(live, players=("x", "y", "z", "w")), version, "f" * 64
    )
    save_snapshot(store, "t1", elsewhere, KEY)  # sealed with the key, but not on this stream
    assert snapshot_start(store, "t1", KEY)[0] is not None
    assert load(store, "t1", snapshot_key=KEY).state == live


def test_a_snapshot_of_another_shape_is_ignored(store: EventStore, store_url: str) -> None:
    live = played(store)
    execute(store_url, "UPDATE snapshots SET schema_tag = 'table-state/json/0000000000000000'")
    start, problem = snapshot_start(store, "t1", KEY)
    assert start is None and problem is not None and "another shape" in problem
    assert load(store, "t1", snapshot_key=KEY).state == live


class _Planted:
    """Unpickling this runs ``Path.touch`` on the marker: what a crafted pickle does."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Path.touch, (self.marker,))


@pytest.mark.parametrize("tag", [SNAPSHOT_SCHEMA, "table-state/paiju-rules/1"])
def test_a_crafted_pickle_in_the_snapshot_row_never_runs(
    store: EventStore, tmp_path: Path, tag: str
) -> None:
    live = played(store)
    marker = tmp_path / "pickle-ran"
    version = store.stream_version("t1")
    store.delete_snapshots()
    store.save_snapshot("t1", version, pickle.dumps(_Planted(marker)), tag)
    assert snapshot_start(store, "t1", KEY)[0] is None
    assert load(store, "t1", snapshot_key=KEY).state == live
    assert TableService(store, snapshot_key=KEY).load("t1") == live
    assert not marker.exists()


def test_without_a_key_no_snapshot_is_written(store: EventStore) -> None:
    service = TableService(store, snapshot_every=2)
    service.open_table("t1", "harbin", PLAYERS, command_id="open")
    service.handle("t1", StartHand(), command_id="deal")
    assert store.stream_version("t1") > 2 and store.load_snapshot("t1") is None


def test_the_shape_changes_with_a_field_and_not_with_a_docstring() -> None:
    @dataclasses.dataclass(frozen=True)
    class Seat:
        """One seat."""

        tiles: tuple[int, ...] = ()

    @dataclasses.dataclass(frozen=True)
    class SeatReworded:
        """A seat, described otherwise."""

        tiles: tuple[int, ...] = ()

    @dataclasses.dataclass(frozen=True)
    class SeatWithAField:
        """One seat."""

        tiles: tuple[int, ...] = ()
        dropped: bool = False

    shape = shape_of(TypeAdapter(Seat))
    assert shape_of(TypeAdapter(SeatReworded)) == shape
    assert shape_of(TypeAdapter(SeatWithAField)) != shape
    assert shape_of(STATE_ADAPTER) == STATE_SHAPE


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    choices=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=300),
)
def test_every_state_comes_back_from_its_json_unchanged(
    variant: str, choices: int, steps: int
) -> None:
    _, state = decide_and_evolve(
        TableState(), OpenTable(table_id="t", variant=variant, players=PLAYERS)
    )
    _, state = decide_and_evolve(state, StartHand(seed=f"snapshot-seed-{choices}"))
    rng = random.Random(choices)
    for _ in range(steps):
        if state.hand_over:
            break
        _, state = decide_and_evolve(state, random_command(state, seats_to_act(state)[0], rng))
    document = json.loads(json.dumps(encode_state(state)))
    assert decode_state(document) == state
