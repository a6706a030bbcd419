"""Issue 22, item 5: how long a command waits for its answer when the whole worker that took it
is killed in the middle of it, under the visibility timeout (default 60 s).

The worker (main and pool, SIGKILL to its session) is killed while its append waits on the
store's append lock, which the test holds, so the kill lands mid-command every time (its
server backend ended too, so nothing of the command is recorded); a new worker is started at
once, as a supervisor would. kombu keeps the unacknowledged message in
Redis and gives it back once the visibility timeout has passed, when a worker sweeps for it
(every tenth of the timeout, ``workers/app.py``); its second run answers the command.

The suite runs it at a 12 s timeout (the path is the same, and a minute of waiting is a fifth
of the suite's budget); ``PAIJU_TEST_VISIBILITY_TIMEOUT=60`` runs it at the default, which is
how ``docs/faults.md`` measured it.
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import psycopg
from fault_kit import Part, PrivateRedis, count_log

from events.store import open_store
from services.settings import load_settings
from workers.app import create_app
from workers.client import await_outcome, submit

PLAYERS = ["ann", "bo", "cy", "di"]
HOLD_APPENDS = "SELECT pg_advisory_xact_lock(hashtext('paiju_append:' || current_schema()))"
WAITING_ON_ME = "SELECT pid FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))"


def _waiting_on(conn: psycopg.Connection[tuple[int]], timeout: float) -> list[int]:
    """The backends that wait on a lock ``conn`` holds, once there is one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = [row[0] for row in conn.execute(WAITING_ON_ME).fetchall()]
        if pids:
            return pids
        time.sleep(0.02)
    return []


def test_a_worker_killed_mid_command_has_it_answered_once_after_the_visibility_timeout(
    private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path
) -> None:
    timeout = int(os.environ.get("PAIJU_TEST_VISIBILITY_TIMEOUT", "12"))
    prefix = f"vis{uuid.uuid4().hex[:6]}:"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_STORE_URL": faults_pg_url, "PAIJU_BROKER_URL": private_redis.url,
           "PAIJU_KEY_PREFIX": prefix, "PAIJU_LOG_FORMAT": "json",
           "PAIJU_VISIBILITY_TIMEOUT": str(timeout)}  # fmt: skip
    store = open_store(faults_pg_url)
    app = create_app(load_settings(broker_url=private_redis.url, key_prefix=prefix,
                                   store_url=faults_pg_url, visibility_timeout=timeout))  # fmt: skip
    worker = Part("worker", ["worker", "--concurrency", "1", "--queues", "commands"], env, tmp_path)
    schema = parse_qs(urlparse(faults_pg_url).query)["schema"][0]
    table_id = f"vis-{uuid.uuid4().hex[:8]}"
    worker.start()
    try:
        opened = {"command": "open_table", "table_id": table_id, "variant": "harbin",
                  "players": PLAYERS}  # fmt: skip
        submit(app, table_id, opened, command_id=f"{table_id}/open")
        assert await_outcome(store, f"{table_id}/open", 60).accepted
        with psycopg.connect(faults_pg_url.split("?")[0], autocommit=False) as holder:
            holder.execute("SELECT set_config('search_path', %s, true)", (schema,))
            holder.execute(HOLD_APPENDS)
            submit(app, table_id, {"command": "start_hand"}, command_id=f"{table_id}/deal")
            waiting = _waiting_on(holder, 30)
            assert waiting, worker.log_text()  # the worker is mid-command
            worker.kill_group()
            killed = time.monotonic()
            # Its server backend would otherwise run the append once the lock is free, outcome
            # and all (the statement carries it), and answer the command with no redelivery:
            # ended here, so the dead worker recorded nothing and the queue must answer it.
            for pid in waiting:
                holder.execute("SELECT pg_terminate_backend(%s)", (pid,))
            worker.start()  # at once, as a supervisor restarts it
            holder.rollback()
        outcome = await_outcome(store, f"{table_id}/deal", timeout * 2)
        answered_after = time.monotonic() - killed
        count = count_log(store, [table_id])
    finally:
        worker.stop()
        store.close()
    print(
        f"\nworker killed mid-command, visibility timeout {timeout} s (swept every"
        f" {max(1, timeout // 10)} s): answered {answered_after:.1f} s after the kill,"
        f" {outcome.status}; doubled command ids {len(count.doubled_command_ids)}"
    )
    assert outcome.accepted
    assert timeout - 2 < answered_after < timeout + timeout // 10 + 15  # the timeout, a sweep, a restart
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == []
