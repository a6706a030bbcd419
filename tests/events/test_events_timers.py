"""Durable timers under the store contract: written with the append that starts the wait,
replaced by the next one, leased to one timekeeper at a time (both stores)."""

from __future__ import annotations

import threading
import time

import pytest
from store_kit import discard

from events.store.base import ConcurrencyError, EventStore
from events.store.timers import Timer

TURN = Timer("turn:0:v1", 30.0, {"command": "time_out", "wait": "turn", "seat": 0, "version": 1})
GRACE = Timer("reconnect_grace:2:v1", 0.0, {"command": "time_out", "wait": "reconnect_grace"})


def keys(store: EventStore, stream: str = "t1") -> list[str]:
    return sorted(t.key for t in store.timers_of(stream))  # type: ignore[attr-defined]


def test_an_append_stores_its_timers_and_the_next_one_replaces_them(store: EventStore) -> None:
    store.append("t1", 0, [discard()], timers=[TURN, GRACE])
    assert keys(store) == [GRACE.key, TURN.key]
    first_due = {t.key: t.due_at for t in store.timers_of("t1")}  # type: ignore[attr-defined]
    store.append("t1", 1, [discard()], timers=[Timer(TURN.key, 99.0, TURN.command)])
    (kept,) = store.timers_of("t1")  # type: ignore[attr-defined]
    assert kept.key == TURN.key and kept.due_at == first_due[TURN.key]  # its clock goes on
    store.append("t1", 2, [discard()])  # no timers given: left as they are
    assert keys(store) == [TURN.key]
    store.append("t1", 3, [discard()], timers=[])
    assert keys(store) == []


def test_a_refused_append_changes_no_timer(store: EventStore) -> None:
    store.append("t1", 0, [discard()], command_id="c1", command={"n": 1}, timers=[TURN])
    with pytest.raises(ConcurrencyError):
        store.append("t1", 0, [discard()], timers=[GRACE])
    store.append("t1", 0, [discard()], command_id="c1", command={"n": 1}, timers=[GRACE])  # a retry
    assert keys(store) == [TURN.key]


def test_malformed_timers_are_refused_and_nothing_is_written(store: EventStore) -> None:
    for bad, what in [
        ([TURN, TURN], "repeat"),
        ([Timer("a key", 1.0, {})], "space"),
        ([Timer("k", -1.0, {})], "must wait"),
    ]:
        with pytest.raises(ValueError, match=what):
            store.append("t1", 0, [discard()], timers=bad)
    assert store.read_stream("t1") == [] and keys(store) == []


def test_a_due_timer_is_leased_to_one_claim_until_the_lease_runs_out(store: EventStore) -> None:
    store.append("t1", 0, [discard()], timers=[TURN, GRACE])
    (due,) = store.claim_due_timers(lease=0.3)  # type: ignore[attr-defined]
    assert due.key == GRACE.key and due.attempts == 1 and due.command == GRACE.command
    assert due.lateness >= 0
    assert store.claim_due_timers() == []  # type: ignore[attr-defined]
    assert 0 < store.seconds_to_next_timer() <= 0.3  # type: ignore[attr-defined]
    time.sleep(0.35)
    (again,) = store.claim_due_timers()  # type: ignore[attr-defined]
    assert again.key == GRACE.key and again.attempts == 2
    assert store.drop_timer("t1", GRACE.key) and not store.drop_timer("t1", GRACE.key)  # type: ignore[attr-defined]
    assert keys(store) == [TURN.key]


def test_claims_racing_on_many_due_timers_share_them_out_without_overlap(
    store: EventStore,
) -> None:
    for n in range(40):
        store.append(f"t{n}", 0, [discard()], timers=[Timer(f"k{n}", 0.0, {"n": n})])
    claimed: list[list[str]] = [[], [], []]

    def claim(into: list[str]) -> None:
        while batch := store.claim_due_timers(limit=3):  # type: ignore[attr-defined]
            into.extend(t.stream_id for t in batch)

    threads = [threading.Thread(target=claim, args=(c,)) for c in claimed]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    everything = [s for c in claimed for s in c]
    assert sorted(everything) == sorted(f"t{n}" for n in range(40))


def test_an_append_that_adds_a_timer_wakes_a_waiting_timekeeper(store: EventStore) -> None:
    store.wait_for_timers(0.01)  # type: ignore[attr-defined]  # (PostgreSQL: start listening)
    woken: list[bool] = []
    waiter = threading.Thread(target=lambda: woken.append(store.wait_for_timers(10.0)))  # type: ignore[attr-defined]
    waiter.start()
    time.sleep(0.2)
    store.append("t1", 0, [discard()], timers=[TURN])
    waiter.join(10)
    assert woken == [True]  # woken by the append, not by the timeout (False)
