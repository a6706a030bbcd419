"""The store contract, run against SQLite and a real PostgreSQL alike."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from store_kit import RULES, PointsAwarded, StoreSpec, discard, test_registry

from events.envelope import Actor, NewEvent
from events.hashchain import GENESIS_HASH, verify_chain
from events.store.base import CommandConflictError, ConcurrencyError, EventStore, StoreError
from events.store.migrations import migrations


def test_a_new_stream_is_at_version_zero_and_reads_empty(store: EventStore) -> None:
    assert store.stream_version("table-1") == 0
    assert store.read_stream("table-1") == []
    assert store.read_all() == []


def test_appended_events_come_back_numbered_positioned_and_chained(store: EventStore) -> None:
    first = store.append("table-1", 0, [discard(0, "1m"), discard(1, "2m")],
                         command_id="c1", command={"kind": "discard", "tile": "1m"})
    second = store.append("table-1", 2, [discard(2, "3m")])
    assert [e.version for e in first + second] == [1, 2, 3]
    assert first[0].prev_hash == GENESIS_HASH
    assert second[0].prev_hash == first[1].hash
    assert first[0].command == {"kind": "discard", "tile": "1m"}
    assert first[0].actor == Actor.of_seat(0)
    assert first[0].rules_version == RULES
    assert store.read_stream("table-1") == first + second
    assert store.read_stream("table-1", from_version=2) == first[1:] + second
    assert store.stream_version("table-1") == 3
    verify_chain(store.read_stream("table-1"))


def test_one_event_of_a_stream_reads_alone_by_its_version(store: EventStore) -> None:
    written = store.append("table-1", 0, [discard(0, "1m"), discard(1, "2m")])
    store.append("table-2", 0, [discard(3, "9p")])
    assert store.read_event("table-1", 1) == written[0]
    assert store.read_event("table-1", 2) == written[1]
    assert store.read_event("table-1", 3) is None
    assert store.read_event("no-such-table", 1) is None
    assert store.stream_version("table-1") == 2  # a read of one event moves nothing


def test_read_all_returns_every_stream_in_global_order_from_a_position(store: EventStore) -> None:
    a = store.append("a", 0, [discard()])
    b = store.append("b", 0, [discard(), discard()])
    c = store.append("a", 1, [discard()])
    everything = store.read_all()
    assert everything == a + b + c
    assert [e.position for e in everything] == sorted(e.position for e in everything)
    assert store.read_all(from_position=b[1].position) == [b[1]] + c
    assert store.read_all(from_position=0, limit=2) == a + b[:1]


def test_a_stale_expected_version_is_refused_naming_the_stream_and_both_versions(
    store: EventStore,
) -> None:
    store.append("table-9", 0, [discard(), discard()])
    with pytest.raises(ConcurrencyError) as caught:
        store.append("table-9", 1, [discard()])
    assert (caught.value.stream_id, caught.value.expected, caught.value.actual) == ("table-9", 1, 2)
    assert "table-9" in str(caught.value) and "1" in str(caught.value) and "2" in str(caught.value)
    assert store.stream_version("table-9") == 2


def test_a_retried_command_returns_its_first_result_even_after_the_stream_moved_on(
    spec: StoreSpec, store: EventStore
) -> None:
    command = {"kind": "discard", "seat": 0, "tile": "5m"}
    first = store.append("t", 0, [discard(), discard(1)], command_id="cmd-1", command=command)
    store.append("t", 2, [discard(2)], command_id="cmd-2", command={"kind": "other"})
    assert store.append("t", 0, [discard()], command_id="cmd-1", command=command) == first
    other = spec.open()  # a fresh process knows nothing of the first call
    try:
        assert other.append("t", 0, [discard()], command_id="cmd-1", command=command) == first
    finally:
        other.close()
    assert store.stream_version("t") == 3


def test_a_command_id_reused_for_a_different_command_is_refused(store: EventStore) -> None:
    store.append("t", 0, [discard()], command_id="cmd-1", command={"tile": "5m"})
    with pytest.raises(CommandConflictError, match="cmd-1"):
        store.append("t", 1, [discard()], command_id="cmd-1", command={"tile": "6m"})
    with pytest.raises(CommandConflictError, match="another command") as elsewhere:
        store.append("u", 0, [discard()], command_id="cmd-1", command={"tile": "5m"})
    assert "'t'" not in str(elsewhere.value)  # a sender is never told another stream's id
    assert elsewhere.value.recorded_stream_id == "t"
    assert store.stream_version("t") == 1 and store.stream_version("u") == 0


def test_a_handler_can_look_a_command_up_before_deciding_it_again(store: EventStore) -> None:
    command = {"kind": "discard", "tile": "5m"}
    assert store.find_command("cmd-1", "t", command) is None
    first = store.append("t", 0, [discard()], command_id="cmd-1", command=command)
    store.append("t", 1, [], command_id="cmd-2", command={"kind": "pass"})
    assert store.find_command("cmd-1", "t", command) == first
    assert store.find_command("cmd-2", "t", {"kind": "pass"}) == []
    with pytest.raises(CommandConflictError):
        store.find_command("cmd-1", "t", {"kind": "discard", "tile": "6m"})
    with pytest.raises(CommandConflictError):
        store.find_command("cmd-1", "u", command)


def test_a_command_that_produced_no_events_is_still_remembered(store: EventStore) -> None:
    assert store.append("t", 0, [], command_id="noop", command={"kind": "pass"}) == []
    store.append("t", 0, [discard()])
    assert store.append("t", 0, [], command_id="noop", command={"kind": "pass"}) == []


def test_a_batch_that_fails_midway_leaves_nothing_behind(store: EventStore) -> None:
    store.append("t", 0, [discard()])
    clash = uuid.uuid4()
    good = NewEvent("tile_discarded", {"seat": 0, "tile": "1m"}, Actor.of_seat(0), RULES,
                    event_id=clash)
    dup = NewEvent("tile_discarded", {"seat": 1, "tile": "2m"}, Actor.of_seat(1), RULES,
                   event_id=clash)
    with pytest.raises(StoreError):
        store.append("t", 1, [good, dup], command_id="cmd-x", command={"n": 1})
    assert store.stream_version("t") == 1
    assert len(store.read_all()) == 1
    retried = store.append("t", 1, [good], command_id="cmd-x", command={"n": 1})
    assert [e.version for e in retried] == [2]
    verify_chain(store.read_stream("t"))


def test_an_event_written_in_an_older_shape_is_read_in_the_current_one(store: EventStore) -> None:
    old = NewEvent("points_awarded", {"seat": 2, "points": 8}, Actor.system(), RULES,
                   schema_version=1)
    store.append("t", 0, [old, test_registry.new_event(
        PointsAwarded(seat=1, base=3, bonus=1), actor=Actor.system(), rules_version=RULES)])
    recorded = store.read_stream("t")
    assert recorded[0].schema_version == 1 and recorded[0].payload == {"seat": 2, "points": 8}
    decoded = [test_registry.decode(e) for e in recorded]
    assert decoded == [PointsAwarded(seat=2, base=8, bonus=0), PointsAwarded(seat=1, base=3, bonus=1)]
    verify_chain(recorded)  # upcasting is a view: the stored shape keeps its hash


def test_payloads_round_trip_exactly_unicode_floats_and_nesting_included(store: EventStore) -> None:
    payload = {"seat": 3, "tile": "中", "ratio": 0.1, "big": 2**53, "melds": [["1m", "2m", "3m"]],
               "note": None, "flag": True, "huge": 1e20, "tiny": 5e-324, "neg_zero": -0.0,
               "escaped": "a\"b\\c\u2028"}
    (recorded,) = store.append("t", 0, [NewEvent("odd", payload, Actor.timer(), RULES)])
    (read,) = store.read_stream("t")
    assert read == recorded and read.payload == payload
    verify_chain([read])


def test_a_waiting_tailer_wakes_when_another_thread_appends(spec: StoreSpec) -> None:
    # PostgreSQL: a 30 s poll interval, so only LISTEN/NOTIFY can wake it in time.
    waiter = spec.open(poll_interval=30.0)
    writer = spec.open()
    try:
        assert waiter.wait_for_events(0, timeout=0.2) is False
        timer = threading.Timer(0.3, lambda: writer.append("t", 0, [discard()]))
        started = time.monotonic()
        timer.start()
        assert waiter.wait_for_events(0, timeout=10) is True
        assert time.monotonic() - started < 5
        timer.join()
    finally:
        waiter.close()
        writer.close()


def test_a_tailer_without_notifications_falls_back_to_polling(spec: StoreSpec) -> None:
    options = {"poll_interval": 0.05}
    if spec.kind == "postgres":
        options["use_listen"] = False
    waiter, writer = spec.open(**options), spec.open()
    try:
        threading.Timer(0.2, lambda: writer.append("t", 0, [discard()])).start()
        assert waiter.wait_for_events(0, timeout=5) is True
        assert waiter.wait_for_events(waiter.read_all()[-1].position, timeout=0.1) is False
    finally:
        waiter.close()
        writer.close()


def test_migrations_are_recorded_and_not_applied_twice(spec: StoreSpec) -> None:
    spec.open().close()
    shipped = [(m.version,) for m in migrations(spec.kind)]
    assert len(shipped) >= 1
    assert spec.execute("SELECT version FROM schema_migrations ORDER BY version") == shipped
