"""Issue 22, item 5: a timekeeper killed while it holds leased timers. Another timekeeper fires
each of them once, and not before its lease has run out; what the dead one had sent is answered
by the outcome when a worker runs it late, never doubled.

To hold the first timekeeper between its claim and its firing, it fires ``--via queue`` into a
private redis-server the test has frozen (SIGSTOP): its firing threads wait on Redis with their
timers leased. It is killed there (SIGKILL), Redis goes on (SIGCONT), and a second timekeeper
fires inline from the same PostgreSQL schema.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fault_kit import Part, PrivateRedis, count_log

from events.store import open_store
from events.store.timers import DueTimer
from services.rules.table.commands import OpenTable, StartHand
from services.tables import Accepted, TableService
from services.tables.timers import timeout_command_id
from workers.queues import QueueNames

TABLES = 8
LEASE = 6
QUICK = {"turn": 1, "claim": 1, "autoplay_window": 1, "reconnect_grace": 1}
PLAYERS = ("ann", "bo", "cy", "di")
EARLY = timedelta(seconds=0.05)  # the events' clock and the lease's are the same machine's


def _leased(store: object, tables: list[str]) -> dict[str, DueTimer]:
    """The tables' timers leased now, by the command id they fire under."""
    now = datetime.now(UTC)
    return {timeout_command_id(t.stream_id, t.key): t for table_id in tables
            for t in store.timers_of(table_id)  # type: ignore[attr-defined]
            if t.attempts > 0 and t.lease_until > now}  # fmt: skip


def _wait_for_held(store: object, tables: list[str], timeout: float) -> dict[str, DueTimer]:
    """The timers the frozen timekeeper holds, once its claims have stopped changing."""
    deadline, held, since = time.monotonic() + timeout, {}, time.monotonic()
    while time.monotonic() < deadline:
        now_held = _leased(store, tables)
        if now_held.keys() != held.keys():
            held, since = now_held, time.monotonic()
        elif held and time.monotonic() - since > 1.0:
            return held
        time.sleep(0.05)
    return held


def test_a_timekeeper_killed_holding_leased_timers_leaves_each_to_fire_once_after_its_lease(
    private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path
) -> None:
    prefix = f"tkk{uuid.uuid4().hex[:6]}:"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_STORE_URL": faults_pg_url, "PAIJU_BROKER_URL": private_redis.url,
           "PAIJU_KEY_PREFIX": prefix, "PAIJU_LOG_FORMAT": "json"}  # fmt: skip
    store = open_store(faults_pg_url)
    service = TableService(store)
    tables = [f"tkk-{uuid.uuid4().hex[:6]}-{n}" for n in range(TABLES)]
    first = Part("timekeeper-a", ["timekeeper", "--via", "queue", "--lease", str(LEASE)], env,
                 tmp_path)  # fmt: skip
    second = Part("timekeeper-b", ["timekeeper", "--lease", str(LEASE)], env, tmp_path)
    worker = Part("worker", ["worker", "--concurrency", "1", "--queues", "commands"], env,
                  tmp_path)  # fmt: skip
    assert private_redis.process is not None
    first.start()
    try:
        assert first.wait_for_log("firing queue", 30), first.log_text()
        os.kill(private_redis.process.pid, signal.SIGSTOP)
        for table_id in tables:
            opened = OpenTable(table_id=table_id, variant="harbin", players=PLAYERS, timing=QUICK)
            assert isinstance(service.handle(table_id, opened, command_id=f"{table_id}/o"),
                              Accepted)  # fmt: skip
            assert isinstance(service.handle(table_id, StartHand(), command_id=f"{table_id}/d"),
                              Accepted)  # fmt: skip
        held = _wait_for_held(store, tables, 20)
        first.kill_group()
        killed_at = datetime.now(UTC)
        os.kill(private_redis.process.pid, signal.SIGCONT)
        second.start()
        deadline = time.monotonic() + 3 * LEASE
        fired: dict[str, datetime] = {}
        while len(fired) < len(held) and time.monotonic() < deadline:
            fired = {e.command_id: e.recorded_at for t in tables for e in store.read_stream(t)
                     if e.type == "wait_timed_out" and e.command_id in held}  # fmt: skip
            time.sleep(0.1)
        sent_by_the_dead = private_redis.client().llen(prefix + QueueNames.commands.value)
        worker.start()  # what the dead timekeeper sent, run late
        assert worker.wait_for_log_count("succeeded", sent_by_the_dead, 60), worker.log_text()
        second.stop()
        timeouts = Counter(e.command_id for t in tables for e in store.read_stream(t)
                           if e.type == "wait_timed_out")  # fmt: skip
        count = count_log(store, tables)
    finally:
        for part in (first, second, worker):
            part.stop()
        store.close()
    late = {cid: (fired[cid] - held[cid].lease_until).total_seconds() for cid in fired}
    print(
        f"\ntimekeeper killed holding {len(held)} leased timers (lease {LEASE} s), killed"
        f" {max((t.lease_until - killed_at).total_seconds() for t in held.values()):.2f} s"
        f" before the last lease ran out; fired by the other after their lease by"
        f" {min(late.values()):.2f}-{max(late.values()):.2f} s; messages the dead one had"
        f" sent: {sent_by_the_dead}; timeouts {len(timeouts)}, twice"
        f" {sum(1 for n in timeouts.values() if n > 1)}"
    )
    assert held, "the frozen timekeeper held no timer"
    assert fired.keys() == held.keys()  # every held timer fired
    assert all(fired[cid] >= held[cid].lease_until - EARLY for cid in held)  # not before
    assert max(late.values()) < LEASE  # and soon after
    assert set(timeouts.values()) == {1}  # each once, the late messages included
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == []
