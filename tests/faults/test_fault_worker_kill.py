"""``kill -9`` of a worker in the middle of commands, 16 times (50 in ``make faults``): no acknowledged command lost, no
event recorded twice.

Bots play six tables through ``submit``/``await_outcome`` (a command whose outcome does not come
within 3 s is sent again under the same id, as a platform would). Two ``paiju worker``s
(prefork, one pool process each) serve a private redis-server with a 5 s visibility timeout;
a killer loop SIGKILLs, in turn, a worker's pool process (the main process gives its message
back and forks another) and a whole worker (main and pool: its process group; the message it
held stays unacknowledged until the visibility timeout gives it back), and restarts a killed
worker at once, as a supervisor would.
"""

from __future__ import annotations

import os
import random
import signal
import time
import uuid
from pathlib import Path

from fault_bots import Platform
from fault_kit import Part, PrivateRedis, count_log
from fault_scale import sized

from events.store import open_store
from services.settings import load_settings
from workers.app import create_app

KILLS = sized(16, 50)  # make test, make faults
TABLES = 6
COMMANDS_PER_TABLE = 2000  # more than the kills leave time for: the bots play until stopped
VISIBILITY = 5


def test_a_worker_killed_over_and_over_mid_commands_loses_no_acknowledged_command_and_doubles_nothing(
    private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "PAIJU_BROKER_URL": private_redis.url,
        "PAIJU_STORE_URL": faults_pg_url,
        "PAIJU_VISIBILITY_TIMEOUT": str(VISIBILITY),
        "PAIJU_LOG_FORMAT": "json",
        "PAIJU_LOG_LEVEL": "INFO",
    }
    store = open_store(faults_pg_url)  # migrated before any worker opens it
    app = create_app(load_settings(broker_url=private_redis.url, store_url=faults_pg_url,
                                   visibility_timeout=VISIBILITY))
    argv = ["worker", "--pool", "prefork", "--concurrency", "1", "--queues", "commands"]
    workers = [Part(f"worker-{n}", argv, env, tmp_path) for n in range(2)]
    for worker in workers:
        worker.start()
    platform = Platform(app, store)
    run = uuid.uuid4().hex[:6]
    tables = [f"kill9-{run}-{n}" for n in range(TABLES)]
    join = platform.play_all(tables, COMMANDS_PER_TABLE)
    rng = random.Random(50)
    kills = {"pool": 0, "group": 0}
    holding = 0  # kills while the broker had a message out to a worker, unacknowledged
    started = time.monotonic()
    try:
        for n in range(KILLS):
            worker = workers[(n // 2) % 2]
            if not worker.alive():  # died of an earlier kill (say, in its start-up)
                worker.start()
            received = worker.log_text().count("received")
            assert worker.wait_for_log_count("received", received + 1, 60), worker.log_text()
            time.sleep(rng.uniform(0, 0.02))  # commands take milliseconds
            holding += private_redis.client().hlen("paiju:unacked") > 0
            if n % 2 == 0 and (pool := worker.children()):
                os.kill(pool[0], signal.SIGKILL)  # a pool process of a worker this test started
                kills["pool"] += 1
            else:
                worker.kill_group()  # main process and pool
                kills["group"] += 1
                worker.start()
        killing = time.monotonic() - started
    finally:
        platform.stop.set()
        join(60)
        for worker in workers:
            worker.stop()
    # killed workers' messages not given back yet (workers sweep every tenth of the timeout)
    stranded = private_redis.client().hlen("paiju:unacked")
    count = count_log(store, tables)
    lost = sorted(set(platform.acknowledged) - count.command_ids)
    print(
        f"\nkill -9 x{KILLS} ({kills['pool']} pool processes, {kills['group']} whole workers;"
        f" {holding} with a message unacknowledged) in {killing:.0f} s: commands sent"
        f" {platform.sent}, sent again after a timeout {platform.resent} (still unacknowledged at"
        f" the end: {stranded}), acknowledged"
        f" {len(platform.acknowledged)}, lost {len(lost)}, unanswered"
        f" {len(platform.unanswered)}; events {count.events}, doubled command ids"
        f" {len(count.doubled_command_ids)}, version gaps {len(count.version_gaps)},"
        f" tables not replaying {len(count.not_replaying)} ({count.batches_replayed} batches"
        f" decided again)"
    )
    store.close()
    assert sum(kills.values()) == KILLS and kills["pool"] and kills["group"]
    assert lost == []
    assert platform.unanswered == [] and platform.refused == []
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == [] and count.batches_replayed > KILLS
    assert len(platform.acknowledged) > KILLS  # play went on between the kills
