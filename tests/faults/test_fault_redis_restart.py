"""Redis restarted empty with 100 turn timers pending: every wait times out once, none twice.

A hundred tables are dealt, each with a turn of 2 to 4 s whose seat never moves (so the
timeouts go on from seat to seat; the claim and 托管 windows are a minute). ``paiju
timekeeper --via queue`` fires them and a ``paiju worker`` plays them, on a private
redis-server. Once the first timeouts are in, the worker is frozen (SIGSTOP) until timeouts
pile up in the queue, and that Redis is shut down without saving and started again, empty:
the queued messages and the one the worker held are gone. The timer rows are in the store,
so a lease that runs out (2 s here) sends each lost timeout again. A part that dies meanwhile
(kombu may crash on the restart) is started again, as a supervisor would. ``--via inline``:
the same, the timeouts run by the timekeeper itself (Redis carries none of them).
"""

from __future__ import annotations

import os
import random
import signal
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from fault_kit import Part, PrivateRedis, count_log

from events.store import open_store
from events.store.base import EventStore
from services.rules.table.commands import OpenTable, StartHand
from services.tables import Accepted, TableService
from services.tables.timers import timeout_command_id

TABLES = 100
LEASE = 2
PLAYERS = ("ann", "bo", "cy", "di")


def deal(store: EventStore, tables: list[str]) -> dict[str, str]:
    """Open and deal each table (turn 2-4 s); each table's turn timeout's command id."""
    service = TableService(store)
    rng = random.Random(100)
    waits = {}
    for table_id in tables:
        timing = {"turn": rng.randint(2, 4), "claim": 60, "autoplay_window": 60}
        opened = OpenTable(table_id=table_id, variant="harbin", players=PLAYERS, timing=timing)
        assert isinstance(service.handle(table_id, opened, command_id=f"{table_id}/open"), Accepted)
        assert isinstance(service.handle(table_id, StartHand(), command_id=f"{table_id}/deal"),
                          Accepted)  # fmt: skip
        (timer,) = store.timers_of(table_id)  # type: ignore[attr-defined]
        waits[table_id] = timeout_command_id(table_id, timer.key)
    return waits


def timed_out(store: EventStore, waits: dict[str, str]) -> Counter[str]:
    """How often each wait's timeout is in its table's stream."""
    found: Counter[str] = Counter()
    for table_id, command_id in waits.items():
        found[command_id] += sum(
            1 for e in store.read_stream(table_id)
            if e.type == "wait_timed_out" and e.command_id == command_id
        )  # fmt: skip
    return found


def restart_with_timeouts_queued(redis: PrivateRedis, worker: Part, queued: bool) -> int:
    """Redis restarted empty while it holds timeouts (``queued``: the worker frozen until ten
    wait in the queue); how many messages that lost."""
    client = redis.client()
    if queued:
        os.killpg(worker.pid, signal.SIGSTOP)  # the worker this test started, and its pool
        deadline = time.monotonic() + 15
        while client.llen("paiju:commands") < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
    lost = int(client.llen("paiju:commands")) + int(client.hlen("paiju:unacked"))
    redis.restart_empty()
    if queued:
        os.killpg(worker.pid, signal.SIGCONT)
    return lost


def keep_running(parts: list[Part]) -> int:
    """Start again any part that died; how many were."""
    dead = [part for part in parts if not part.alive()]
    for part in dead:
        part.start()
    return len(dead)


@pytest.mark.parametrize("via", ["queue", "inline"])
def test_redis_restarted_empty_with_100_timers_pending_misses_none_and_doubles_none(
    via: str, private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path
) -> None:
    env = {**os.environ, "PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": faults_pg_url,
           "PAIJU_VISIBILITY_TIMEOUT": "5", "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO"}
    store = open_store(faults_pg_url)
    worker = Part("worker", ["worker", "--pool", "prefork", "--concurrency", "2",
                             "--queues", "commands"], env, tmp_path)
    timekeeper = Part("timekeeper", ["timekeeper", "--via", via, "--lease", str(LEASE)], env,
                      tmp_path)
    worker.start()
    assert worker.wait_for_log("ready.", 60), worker.log_text()
    timekeeper.start()
    tables = [f"rr-{uuid.uuid4().hex[:6]}-{n}" for n in range(TABLES)]
    waits = deal(store, tables)
    restarted_at = None
    lost = 0
    revived = 0
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            done = sum(1 for n in timed_out(store, waits).values() if n)
            if restarted_at is None and done >= 5:  # some fired, most pending or in flight
                restarted_at = done
                lost = restart_with_timeouts_queued(private_redis, worker, via == "queue")
            revived += keep_running([worker, timekeeper])
            if done == TABLES:
                break
            time.sleep(0.1)
        time.sleep(LEASE + 1)  # a lease that runs out now would fire a second time
        revived += keep_running([worker, timekeeper])
    finally:
        timekeeper.stop()
        worker.stop()
    found = timed_out(store, waits)
    count = count_log(store, tables)
    every_timeout = Counter(
        e.command_id for t in tables for e in store.read_stream(t) if e.type == "wait_timed_out"
    )
    store.close()
    missed = [c for c in waits.values() if found[c] == 0]
    doubled = [c for c in waits.values() if found[c] > 1]
    print(
        f"\nredis restarted empty (--via {via}) with {TABLES} timers due in 2-4 s, after"
        f" {restarted_at} had fired, losing {lost} queued messages: timed out {sum(1 for c in waits.values() if found[c])},"
        f" missed {len(missed)}, doubled {len(doubled)}; parts that died and were started again"
        f" {revived}; all timeouts (later turns too) {len(every_timeout)}, of them twice"
        f" {sum(1 for n in every_timeout.values() if n > 1)}; events {count.events}, doubled"
        f" command ids {len(count.doubled_command_ids)}"
    )
    assert private_redis.restarts == 1 and restarted_at is not None and restarted_at < TABLES
    assert missed == [] and doubled == []
    assert lost >= 10 or via == "inline"
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == []
    assert set(every_timeout.values()) == {1} and len(every_timeout) >= TABLES
