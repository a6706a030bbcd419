"""The reactor dispatching to a real Celery worker on the effects queue (the in-memory
transport, a worker thread in this process, as ``paiju serve``'s embedded mode runs it)."""

from __future__ import annotations

import threading

from celery import Celery
from celery.contrib.testing.worker import start_worker
from effects_kit import Receiver, config_for, notified_keys, play_table

from events.store import open_store
from services.tables import TableService
from workers.effects import tasks
from workers.effects.outbox import Claim, open_outbox
from workers.reactor.runner import Reactor

QUEUE = "effects"


def test_deliveries_dispatched_twice_to_the_effects_queue_are_posted_by_the_worker_once(
    store_url: str, receiver: Receiver
) -> None:
    app = Celery("paiju-effects-test", broker="memory://", set_as_current=False)
    app.conf.update(
        broker_transport_options={"polling_interval": 0.02},
        task_acks_late=True,
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,
        worker_hijack_root_logger=False,
    )
    tasks.register(app, store_url, config_for(receiver))
    store = open_store(store_url)
    outbox = open_outbox(store_url)
    send = tasks.celery_dispatch(app, QUEUE)

    def twice(claim: Claim) -> None:  # a broker that delivers every message twice
        send(claim)
        send(claim)

    reactor = Reactor(store, outbox, twice, idle_seconds=0.2)
    stop = threading.Event()
    try:
        with start_worker(app, pool="threads", concurrency=2, queues=[QUEUE],
                          perform_ping_check=False, shutdown_timeout=10):  # fmt: skip
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
        tasks.RESOURCES.close()
        outbox.close()
        store.close()
