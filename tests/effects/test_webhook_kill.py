"""``paiju reactor`` killed with SIGKILL again and again while tables are played, and started
again each time: every notification arrives, none is skipped (SQLite and PostgreSQL).

At least once: a kill between a post's 2xx and the recording of it makes the next reactor
post that key again after the lease, so the doubles are bounded by the kills (and counted).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from effects_kit import SECRET, Receiver, notified_keys, play_table

from events.store import open_store
from services.tables import TableService

KILLS = 5


def start_reactor(store_url: str, receiver: Receiver) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PAIJU_WEBHOOK_URL": receiver.url,
        "PAIJU_WEBHOOK_SECRET": SECRET,
        "PAIJU_WEBHOOK_BACKOFF_BASE": "0.05",
        "PAIJU_WEBHOOK_BACKOFF_CAP": "0.2",
        "PAIJU_WEBHOOK_TIMEOUT": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "reactor", "--inline", "--lease", "2",
         "--store", store_url],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    assert process.stdout.readline().startswith("paiju reactor:")  # it is tailing the store
    return process


def test_a_reactor_killed_with_sigkill_and_restarted_skips_no_notification(
    store_url: str, receiver: Receiver
) -> None:
    store = open_store(store_url)
    service = TableService(store)
    rng = random.Random(9)
    killed_with_deliveries_left = 0
    try:
        for round_ in range(KILLS):
            reactor = start_reactor(store_url, receiver)
            play_table(service, f"t{round_}a")
            play_table(service, f"t{round_}b")
            time.sleep(rng.uniform(0.0, 0.3))  # a kill at any point of its work
            reactor.send_signal(signal.SIGKILL)
            reactor.wait(timeout=10)
            killed_with_deliveries_left += not (notified_keys(store) <= set(receiver.received))
        last = start_reactor(store_url, receiver)
        keys = notified_keys(store)
        try:
            assert receiver.wait_for(keys, timeout=60)
        finally:
            last.send_signal(signal.SIGTERM)
            last.wait(timeout=20)
        assert len(keys) == 3 * 2 * KILLS
        assert set(receiver.received) == keys and receiver.forged == 0
        assert receiver.doubled() <= KILLS
        print(f"FAULT reactor SIGKILL x{KILLS} ({store_url.split(':')[0]}): "
              f"events={len(store.read_all(0, 100_000))} notified={len(keys)}"
              f" delivered={len(receiver.received)} doubled={receiver.doubled()}"
              f" kills with deliveries still due={killed_with_deliveries_left}")
    finally:
        store.close()
