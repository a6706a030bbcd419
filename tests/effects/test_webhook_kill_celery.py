"""``paiju reactor`` dispatching to the effects queue on Redis, killed with SIGKILL again and
again while tables are played, and started again each time; a Celery worker (on the machine's
Redis, under a key prefix of this test's own) posts. The reactor itself posts nothing, so its
crashes skip none and double none (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid

import redis
from effects_kit import SECRET, Receiver, notified_keys, play_table

from events.store import open_store
from services.settings import load_settings
from services.tables import TableService
from workers.app import create_app
from workers.embedded import EmbeddedWorker
from workers.parts import parts_of
from workers.queues import QueueNames

REDIS_URL = os.environ.get("PAIJU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
KILLS = 5


def start_reactor(env: dict[str, str]) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "services.cli.main", "reactor", "--lease", "3"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    banner = process.stdout.readline()
    assert banner.startswith("paiju reactor:") and "effects queue" in banner, banner
    return process


def test_a_reactor_dispatching_to_celery_killed_with_sigkill_skips_none_and_doubles_none(
    store_url: str, receiver: Receiver
) -> None:
    prefix = f"paiju-effects-test-{uuid.uuid4().hex[:8]}:"
    env = {
        **os.environ,
        "PAIJU_STORE_URL": store_url,
        "PAIJU_BROKER_URL": REDIS_URL,
        "PAIJU_KEY_PREFIX": prefix,
        "PAIJU_WEBHOOK_URL": receiver.url,
        "PAIJU_WEBHOOK_SECRET": SECRET,
        "PAIJU_WEBHOOK_BACKOFF_BASE": "0.05",
        "PAIJU_WEBHOOK_BACKOFF_CAP": "0.2",
        "PAIJU_WEBHOOK_TIMEOUT": "1",
        "PAIJU_LOG_LEVEL": "WARNING",
    }
    settings = load_settings(
        store_url=store_url, broker_url=REDIS_URL, key_prefix=prefix, webhook_url=receiver.url,
        webhook_secret=SECRET, webhook_timeout=1.0,
    )  # fmt: skip
    app = create_app(settings)
    store = open_store(store_url)
    service = TableService(store)
    rng = random.Random(11)
    try:
        with EmbeddedWorker(app, concurrency=2, queues=[QueueNames.effects.value]):
            for round_ in range(KILLS):
                reactor = start_reactor(env)
                play_table(service, f"t{round_}a")
                play_table(service, f"t{round_}b")
                time.sleep(rng.uniform(0.0, 0.3))  # a kill at any point of its work
                reactor.send_signal(signal.SIGKILL)
                reactor.wait(timeout=10)
            last = start_reactor(env)
            keys = notified_keys(store)
            try:
                assert receiver.wait_for(keys, timeout=60)
            finally:
                last.send_signal(signal.SIGTERM)
                last.wait(timeout=20)
        assert len(keys) == 3 * 2 * KILLS
        assert set(receiver.received) == keys and receiver.forged == 0
        assert receiver.doubled() == 0
        print(f"FAULT reactor SIGKILL x{KILLS}, Celery dispatch ({store_url.split(':')[0]}): "
              f"events={len(store.read_all(0, 100_000))} notified={len(keys)}"
              f" delivered={len(receiver.received)} doubled={receiver.doubled()}")
    finally:
        parts_of(app).close()
        store.close()
        broker = redis.Redis.from_url(REDIS_URL)
        for key in broker.scan_iter(match=f"{prefix}*"):  # leave the shared Redis as it was
            broker.delete(key)
        broker.close()
