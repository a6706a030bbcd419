"""The platform's receiver down for 20 s (a minute in ``make faults``): every notification arrives once it is back, and
none twice for the same key. SQLite and PostgreSQL side by side, in the same minute."""

from __future__ import annotations

import threading
import time

from effects_kit import (
    SECRET,
    Parts,
    Receiver,
    config_for,
    empty_pg_url,
    notified_keys,
    play_table,
)
from fault_scale import sized

from events.store import open_store
from services.tables import TableService

OUTAGE_SECONDS = sized(20, 60)  # make test, make faults
TABLES = 4


def test_a_receiver_down_for_a_while_gets_every_notification_once_it_is_back(
    tmp_path: object, pg_schema: str
) -> None:
    urls = {"sqlite": f"sqlite:///{tmp_path}/outage.sqlite3", "postgres": empty_pg_url(pg_schema)}
    receivers = {kind: Receiver(SECRET) for kind in urls}
    for receiver in receivers.values():
        receiver.start()  # to learn its port
        receiver.stop()  # and down it goes
    # retries every few seconds while it is down: 1 s, 2 s, 4 s, then about every 4-8 s
    parts = {
        kind: Parts(url, config_for(receivers[kind], backoff_base=1.0, backoff_cap=8.0,
                                    max_attempts=100))
        for kind, url in urls.items()
    }  # fmt: skip
    stop = threading.Event()
    threads = [p.reactor.start(stop) for p in parts.values()]
    stores = {kind: open_store(url) for kind, url in urls.items()}
    try:
        down_since = time.monotonic()
        for kind, store in stores.items():
            service = TableService(store)
            for n in range(TABLES):
                play_table(service, f"{kind}-{n}")
        stop.wait(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_since)))
        tried = {kind: [d.attempts for d in p.outbox.deliveries()] for kind, p in parts.items()}
        for receiver in receivers.values():
            receiver.start()  # back, on the same port
        for kind, store in stores.items():
            keys = notified_keys(store)
            assert len(keys) == 3 * TABLES
            assert receivers[kind].wait_for(keys, timeout=60), kind
            assert set(receivers[kind].received) == keys
            assert receivers[kind].doubled() == 0
            # the retries happened during the outage, not only after it
            assert len(tried[kind]) == len(keys) and min(tried[kind]) >= 3, tried[kind]
            print(
                f"FAULT receiver down {OUTAGE_SECONDS} s ({kind}): "
                f"events={len(store.read_all(0, 100_000))} notified={len(keys)} "
                f"delivered={len(receivers[kind].received)} doubled={receivers[kind].doubled()}"
                f" failed attempts during the outage={sum(tried[kind])}"
                f" (per delivery {min(tried[kind])}-{max(tried[kind])})"
            )
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
        for p in parts.values():
            p.close()
        for store in stores.values():
            store.close()
        for receiver in receivers.values():
            receiver.stop()
