"""A worker's pool process killed (``kill -9``) in the middle of commands: every command sent is
answered, none is applied twice (``acks_late``, ``reject_on_worker_lost``, the command id)."""

from __future__ import annotations

import os
import signal
import time
import uuid

from worker_kit import Through

from services.tables.runner import outcome_store
from workers.client import await_outcome, submit

PLAYERS = ["ann", "bo", "cy", "di"]
COMMANDS = 40
KILLS = 3


def test_a_pool_process_killed_mid_commands_loses_none_and_doubles_none(
    redis_postgres: Through,
) -> None:
    through = redis_postgres
    run = uuid.uuid4().hex[:8]
    # The worker up first: Celery gives up on a pool whose process dies while it starts.
    warm = f"crash-{run}-warm"
    submit(through.app, warm, {"command": "open_table", "table_id": warm, "variant": "harbin",
                               "players": PLAYERS}, command_id=f"{warm}/open")
    assert await_outcome(through.store, f"{warm}/open", 60).accepted
    tables = [f"crash-{run}-{n}" for n in range(COMMANDS)]
    for table_id in tables:
        submit(
            through.app, table_id,
            {"command": "open_table", "table_id": table_id, "variant": "harbin",
             "players": PLAYERS},
            command_id=f"{table_id}/open",
        )
    killed = 0
    deadline = time.monotonic() + 30
    while killed < KILLS and time.monotonic() < deadline:
        pool = through.pool_processes()
        if pool:
            os.kill(pool[0], signal.SIGKILL)  # a pool process of the worker this test started
            killed += 1
        time.sleep(0.15)
    assert killed == KILLS
    outcomes = [await_outcome(through.store, f"{t}/open", 120) for t in tables]
    assert [o.status for o in outcomes] == ["accepted"] * COMMANDS
    assert [through.store.stream_version(t) for t in tables] == [1] * COMMANDS
    assert all(outcome_store(through.store).load_outcome(o.command_id) == o for o in outcomes)
