"""Issue 22, item 3: what is on the commands queue cannot stop a worker. An entry that is not a
task message (not JSON, or JSON of another shape) is logged and dropped and the worker takes
the next command; a task message whose arguments no command can have (a 300-character table
id, a NUL in its command id) is answered or logged as a WARNING, never dropped in silence.

A ``paiju worker`` process on a private redis-server (the test writes raw entries to its queue
list) and a PostgreSQL schema of the test's own.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from fault_kit import Part, PrivateRedis

from events.envelope import InvalidIdError, check_id
from events.store import open_store
from events.store.base import EventStore
from services.settings import load_settings
from services.tables.runner import outcome_store
from workers.app import PaijuCelery, create_app
from workers.client import await_outcome, submit
from workers.queues import QueueNames
from workers.tasks.commands import COMMAND_TASK

PLAYERS = ["ann", "bo", "cy", "di"]
NOT_TASK_MESSAGES = [
    b"not json at all",
    b"\xff\xfe\x00 binary",
    b"[1, 2, 3]",
    b"null",
    b'{"body": "no headers or properties"}',
    b'{"body": "e30=", "headers": {}, "properties": "not a mapping"}',
]


class Worker:
    def __init__(self, part: Part, app: PaijuCelery, store: EventStore, queue_key: str,
                 broker: redis.Redis) -> None:  # fmt: skip
        self.part, self.app, self.store, self.queue_key, self.broker = part, app, store, queue_key, broker

    def log_lines(self) -> list[dict[str, Any]]:
        lines = []
        for text in self.part.log_text().splitlines():
            try:
                line = json.loads(text)
            except ValueError:
                continue
            if isinstance(line, dict):
                lines.append(line)
        return lines

    def open_table(self, table_id: str) -> bool:
        command = {"command": "open_table", "table_id": table_id, "variant": "harbin", "players": PLAYERS}
        submit(self.app, table_id, command, command_id=f"{table_id}/open")
        return await_outcome(self.store, f"{table_id}/open", 60).accepted


@pytest.fixture
def worker(private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path) -> Iterator[Worker]:
    prefix = "poison:"
    env = {**os.environ, "PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": faults_pg_url,
           "PAIJU_KEY_PREFIX": prefix, "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO"}  # fmt: skip
    store = open_store(faults_pg_url)  # migrated before the worker opens it
    part = Part("worker", ["worker", "--concurrency", "1", "--queues", "commands"], env,
                tmp_path)  # fmt: skip
    part.start()
    settings = load_settings(broker_url=private_redis.url, key_prefix=prefix, store_url=faults_pg_url)
    broker = redis.Redis.from_url(private_redis.url)
    try:
        yield Worker(part, create_app(settings), store, prefix + QueueNames.commands.value, broker)
    finally:
        part.stop()
        broker.close()
        store.close()


def test_entries_on_the_commands_queue_that_are_no_task_message_are_logged_dropped_and_the_worker_goes_on(
    worker: Worker,
) -> None:
    assert worker.open_table(f"warm-{uuid.uuid4().hex[:8]}")  # the worker is consuming
    for entry in NOT_TASK_MESSAGES:
        worker.broker.lpush(worker.queue_key, entry)
    after = f"after-{uuid.uuid4().hex[:8]}"
    assert worker.open_table(after), worker.part.log_text()[-3000:]
    assert worker.part.alive()
    dropped = [line for line in worker.log_lines() if line.get("event") == "broker.message_dropped"]
    assert len(dropped) == len(NOT_TASK_MESSAGES), worker.part.log_text()[-3000:]
    assert all(line["level"] == "warning" and line["queue"] == "commands" for line in dropped)
    assert dropped[0]["entry"].startswith("not json at all")
    assert worker.broker.llen(worker.queue_key) == 0


def _answered_or_warned(worker: Worker, command_id: str, task_id: str) -> bool:
    try:
        check_id("command_id", command_id)
    except InvalidIdError:
        pass  # no outcome can be stored under it: only a warning can answer
    else:
        if outcome_store(worker.store).load_outcome(command_id) is not None:
            return True
    return any(line.get("level") == "warning" and line.get("task_id") == task_id
               for line in worker.log_lines())  # fmt: skip


@pytest.mark.parametrize(
    ("table_id", "command_id"),
    [("t" * 300, "long-table/open"), ("nul-table", "nul\x00id"), ("t" * 300, "both\x00")],
    ids=["300-character table id", "NUL in the command id", "both"],
)
def test_a_task_whose_arguments_no_command_can_have_is_answered_or_warned_never_silent(
    worker: Worker, table_id: str, command_id: str
) -> None:
    assert worker.open_table(f"warm-{uuid.uuid4().hex[:8]}")
    command = {"command": "open_table", "table_id": table_id, "variant": "harbin", "players": PLAYERS}
    kwargs = {"table_id": table_id, "command": command, "command_id": command_id}
    task_id = worker.app.send_task(COMMAND_TASK, kwargs=kwargs).id  # as a raw client could
    deadline = time.monotonic() + 30
    while not _answered_or_warned(worker, command_id, task_id) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _answered_or_warned(worker, command_id, task_id), worker.part.log_text()[-3000:]
    assert worker.open_table(f"after-{uuid.uuid4().hex[:8]}") and worker.part.alive()
