"""The reactor dispatching to a real Celery worker on the effects queue: Paiju's own app
(``workers.app.create_app``) on the in-memory transport with a worker thread in this process,
as ``paiju serve``'s embedded mode runs it."""

from __future__ import annotations

import threading

from effects_kit import SECRET, Receiver, notified_keys, play_table

from events.store import open_store
from services.settings import load_settings
from services.tables import TableService
from workers.app import create_app
from workers.effects.outbox import Claim
from workers.effects.outbox_open import open_outbox
from workers.embedded import EmbeddedWorker
from workers.parts import parts_of
from workers.queues import QueueNames
from workers.reactor.runner import Reactor
from workers.reactor.wiring import celery_dispatch


def test_deliveries_dispatched_twice_to_the_effects_queue_are_posted_by_the_worker_once(
    store_url: str, receiver: Receiver
) -> None:
    settings = load_settings(
        store_url=store_url, broker_url="memory://", webhook_url=receiver.url,
        webhook_secret=SECRET, webhook_backoff_base=0.05, webhook_backoff_cap=0.2,
    )  # fmt: skip
    app = create_app(settings)
    send = celery_dispatch(app)

    def twice(claim: Claim) -> None:  # a broker that delivers every message twice
        send(claim)
        send(claim)

    store = open_store(store_url)
    outbox = open_outbox(store_url)
    reactor = Reactor(store, outbox, twice, idle_seconds=0.2)
    stop = threading.Event()
    try:
        with EmbeddedWorker(app, concurrency=2, queues=[QueueNames.effects.value]):
            thread = reactor.start(stop)
            service = TableService(store)
            for n in range(3):
                play_table(service, f"t{n}")
            keys = notified_keys(store)
            assert receiver.wait_for(keys, timeout=30)
            stop.set()
            thread.join(timeout=10)
        assert set(receiver.received) == keys and receiver.doubled() == 0
        assert {d.status for d in outbox.deliveries()} == {"delivered"}
        assert reactor.counts.dispatched == len(keys)  # each claim sent as two messages
    finally:
        stop.set()
        parts_of(app).close()
        outbox.close()
        store.close()
