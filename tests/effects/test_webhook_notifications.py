"""Platform notifications end to end: tables played through the table service, a reactor
tailing the store, signed posts to a real receiver on 127.0.0.1 (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import threading

import httpx
from effects_kit import SECRET, Parts, Receiver, config_for, notified_keys, play_table

from events.store import open_store
from services.tables import TableService
from workers.effects.delivery import deliver
from workers.effects.signing import SIGNATURE_HEADER, verify_signature
from workers.reactor.runner import Reactor


def test_a_settled_hand_is_told_to_the_platform_once_with_a_valid_signature(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    play_table(TableService(store), "t1")
    parts = Parts(store_url, config_for(receiver))
    try:
        parts.reactor.catch_up()
        parts.reactor.dispatch_due()
        events = store.read_all(0, 10_000)
        settled = [e for e in events if e.type == "hand_settled"]
        assert len(settled) == 1
        key = f"paiju-event-{settled[0].position}"
        assert receiver.received[key] == 1
        body = receiver.bodies[key]
        assert verify_signature(SECRET, receiver.headers[key][SIGNATURE_HEADER], body)
        sent = json.loads(body)
        assert (sent["table_id"], sent["type"], sent["version"], sent["position"]) == (
            "t1", "hand_settled", settled[0].version, settled[0].position,
        )  # fmt: skip
        assert sent["payload"]["payments"] == settled[0].payload["payments"]
        # the penalty and the series' end went too, and nothing else
        assert set(receiver.received) == notified_keys(store)
        assert sorted(json.loads(b)["type"] for b in receiver.bodies.values()) == [
            "hand_settled", "penalty_adjudicated", "series_ended",
        ]  # fmt: skip
        assert receiver.doubled() == 0 and receiver.forged == 0
        assert [d.status for d in parts.outbox.deliveries()] == ["delivered"] * 3
    finally:
        parts.close()
        store.close()


def test_a_forged_or_altered_notification_fails_the_platforms_check(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    play_table(TableService(store), "t1")
    parts = Parts(store_url, config_for(receiver))
    try:
        parts.reactor.catch_up()
        parts.reactor.dispatch_due()
        key, body = next(iter(receiver.bodies.items()))
        header = receiver.headers[key][SIGNATURE_HEADER]
        altered = body.replace(b'"table_id":"t1"', b'"table_id":"t2"')
        assert altered != body
        assert verify_signature(SECRET, header, body)
        assert not verify_signature(SECRET, header, altered)
        assert not verify_signature("another-secret", header, body)
        # a forger's post, signed with a guessed secret, is refused and not counted
        stamp = header.split(",")[0]
        with httpx.Client() as client:
            answer = client.post(
                receiver.url,
                content=altered,
                headers={"Idempotency-Key": key, SIGNATURE_HEADER: f"{stamp},v1={'0' * 64}"},
            )
        assert answer.status_code == 401 and receiver.forged == 1
        assert receiver.received[key] == 1
    finally:
        parts.close()
        store.close()


def test_a_reactor_stopped_between_the_outbox_write_and_the_dispatch_skips_none_and_doubles_none(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    service = TableService(store)
    for n in range(3):
        play_table(service, f"t{n}")
    first = Parts(store_url, config_for(receiver))
    first.reactor.catch_up()  # rows and checkpoint committed ...
    first.close()  # ... and the process is gone before it dispatched any
    assert receiver.attempts.total() == 0
    play_table(service, "t3")  # the table service goes on meanwhile
    second = Parts(store_url, config_for(receiver))
    try:
        assert second.reactor.position == first.reactor.position
        second.reactor.catch_up()
        second.reactor.dispatch_due()
        keys = notified_keys(store)
        assert len(keys) == 12
        assert set(receiver.received) == keys and receiver.doubled() == 0
        print(
            f"FAULT reactor restart: events={len(store.read_all(0, 100_000))} "
            f"notified={len(keys)} delivered={len(receiver.received)} "
            f"doubled={receiver.doubled()}"
        )
    finally:
        second.close()
        store.close()


def test_a_delivery_whose_dispatch_died_is_posted_after_its_lease_runs_out(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    play_table(TableService(store), "t1")
    first = Parts(store_url, config_for(receiver), lease_seconds=0.5)
    first.reactor.catch_up()
    # leased, then the process died: a lease long enough that a loaded machine still reaches
    # the check below inside it (at 0.5 s, CI's machine once did not)
    claims = first.outbox.claim_due(10, lease_seconds=4)
    first.close()
    assert len(claims) == 3
    second = Parts(store_url, config_for(receiver), lease_seconds=0.5)
    try:
        assert second.reactor.dispatch_due() == 0  # still leased to the dead claim
        stop = threading.Event()
        thread = second.reactor.start(stop)
        assert receiver.wait_for(notified_keys(store), timeout=20)
        stop.set()
        thread.join(timeout=10)
        # the dead claim's task, delivered late by its broker, posts nothing
        late = deliver(second.outbox, claims[0].key, claims[0].token, config_for(receiver))
        assert late == "stale"
        assert receiver.doubled() == 0
    finally:
        second.close()
        store.close()


def test_two_reactors_at_once_double_nothing_and_skip_nothing(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    service = TableService(store)
    both = [Parts(store_url, config_for(receiver)) for _ in range(2)]
    stop = threading.Event()
    threads = [p.reactor.start(stop) for p in both]
    try:
        for n in range(6):
            play_table(service, f"t{n}")
        keys = notified_keys(store)
        assert len(keys) == 18
        assert receiver.wait_for(keys, timeout=30)
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        written = sum(p.reactor.counts.written for p in both)
        assert written == 18 and len(both[0].outbox.deliveries()) == 18
        assert set(receiver.received) == keys and receiver.doubled() == 0
        print(
            f"FAULT two reactors: events={len(store.read_all(0, 100_000))} notified={len(keys)}"
            f" delivered={len(receiver.received)} doubled={receiver.doubled()}"
            f" races lost={[p.reactor.counts.races_lost for p in both]}"
        )
    finally:
        stop.set()
        for p in both:
            p.close()
        store.close()


def test_a_reactor_thread_tells_the_platform_of_a_table_played_while_it_runs(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    parts = Parts(store_url, config_for(receiver))
    stop = threading.Event()
    thread = parts.reactor.start(stop)
    try:
        play_table(TableService(store), "live")
        assert receiver.wait_for(notified_keys(store), timeout=20)
    finally:
        stop.set()
        thread.join(timeout=10)
        parts.close()
        store.close()
    assert not thread.is_alive()


def test_a_reactor_reads_nothing_twice_from_a_checkpoint_it_moved(store_url: str) -> None:
    store = open_store(store_url)
    play_table(TableService(store), "t1")
    parts_a = Parts(store_url, config_for(Receiver(SECRET)))
    try:
        read = parts_a.reactor.catch_up()
        assert read == len(store.read_all(0, 10_000))
        again = Reactor(store, parts_a.outbox, lambda claim: None)
        assert again.catch_up() == 0 and len(parts_a.outbox.deliveries()) == 3
    finally:
        parts_a.close()
        store.close()
