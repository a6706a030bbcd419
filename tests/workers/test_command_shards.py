"""Command shards (``PAIJU_COMMAND_SHARDS``): a table's commands travel on one queue chosen by
its id, so with one worker per shard every command of a table meets the fold that worker keeps
of it (no stale fold decided on, no append lost to another worker and made again)."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_reset import fresh_schema
from worker_kit import REDIS_URL, Through, forget_keys, paiju, stop

from events.store import open_store
from services.settings import SettingsError, load_settings
from workers.app import create_app
from workers.client import submit_and_wait
from workers.queues import command_queue, shard_queues

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
PLAYERS = ["ann", "bo", "cy", "di"]
WAIT = 60.0


def test_a_tables_queue_is_the_same_in_every_process_and_the_tables_spread_over_the_shards() -> None:
    tables = [f"room.{n}/table-{n * 7}" for n in range(400)]
    queues = [command_queue(t, 4) for t in tables]
    assert set(queues) == set(shard_queues(4)) == {f"commands.shard.{i}" for i in range(4)}
    assert max(queues.count(q) for q in set(queues)) < 1.5 * len(tables) / 4
    assert command_queue("east.1", 4) == command_queue("east.1", 4) == "commands.shard.3"  # CRC-32, pinned: a release that hashed otherwise would split a table
    assert command_queue("east.1", 1) == "commands" and shard_queues(1) == []


def test_a_worker_given_a_shard_that_is_not_one_is_refused_naming_both() -> None:
    with pytest.raises(SettingsError, match="PAIJU_COMMAND_SHARD: .*shard 2 is not one of the 2 command shards"):
        load_settings(command_shards=2, command_shard=2)


@pytest.fixture(scope="module")
def two_shards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Through, list[Path]]]:
    """Two ``paiju worker`` processes on the shared Redis (a prefix of this run's own) and a
    fresh PostgreSQL schema, each serving one of two shards."""
    prefix = f"paiju-test-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
    with fresh_schema("shards") as schema:
        url = f"{PG_URL}?schema={schema}"
        store = open_store(url)
        root = tmp_path_factory.mktemp("shards")
        env = {**os.environ, "PAIJU_BROKER_URL": REDIS_URL, "PAIJU_KEY_PREFIX": prefix,
               "PAIJU_STORE_URL": url, "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO",
               "PAIJU_COMMAND_SHARDS": "2"}  # fmt: skip
        logs, workers = [root / "shard-0.log", root / "shard-1.log"], []
        try:
            for shard, path in enumerate(logs):
                with path.open("w") as log:
                    workers.append(subprocess.Popen(
                        [*paiju(), "worker", "--concurrency", "1", "--queues", "commands"],
                        env=env | {"PAIJU_COMMAND_SHARD": str(shard)}, stdout=log, stderr=log,
                        start_new_session=True))  # fmt: skip
            settings = load_settings(broker_url=REDIS_URL, key_prefix=prefix, store_url=url,
                                     command_shards=2)  # fmt: skip
            yield Through("shards", create_app(settings), store, logs[0], workers[0].pid), logs
        finally:
            for worker in workers:
                stop(worker)
            store.close()
            forget_keys(prefix)


def test_with_a_worker_per_shard_every_command_of_a_table_is_run_by_one_worker(
    two_shards: tuple[Through, list[Path]],
) -> None:
    through, logs = two_shards
    tables = [f"s-{uuid.uuid4().hex[:10]}" for _ in range(8)]
    for table_id in tables:
        for command, key in (({"command": "open_table", "table_id": table_id, "variant": "harbin",
                               "players": PLAYERS}, "open"), ({"command": "start_hand"}, "deal")):  # fmt: skip
            outcome = submit_and_wait(through.app, through.store, table_id, command,
                                      command_id=f"{table_id}/{key}", timeout=WAIT)  # fmt: skip
            assert outcome.accepted, outcome
    ran_by = [{line["table_id"] for line in Through("", through.app, through.store, path, 0).log_lines()
               if line.get("event") == "command.accepted"} for path in logs]  # fmt: skip
    assert set(tables) <= ran_by[0] | ran_by[1]
    assert not ran_by[0] & ran_by[1]  # no table's commands were run by both
    for table_id in tables:  # each where its shard's worker is
        assert table_id in ran_by[int(command_queue(table_id, 2).rsplit(".", 1)[1])]
