"""A prefork worker's metrics: what two pool processes did, added up by its main process."""

from __future__ import annotations

import json
import os
import signal
import uuid
from pathlib import Path

from celery import Celery
from ops_kit import Part, PrivateRedis, free_port, samples, scrape, until

from events.store import open_store
from events.store.base import EventStore
from services.settings import load_settings
from workers.app import create_app
from workers.client import await_outcome, submit

BATCH = 12
MAX_BATCHES = 10


def _pids_that_ran_commands(log: str) -> set[int]:
    pids = set()
    for line in log.splitlines():
        if '"command.' in line:
            record = json.loads(line)
            if record.get("event") in ("command.accepted", "command.refused"):
                pids.add(int(record["pid"]))
    return pids


def _send_batch(app: Celery, store: EventStore, run: str, sent: dict[str, int]) -> None:
    """Open BATCH tables (every third command invalid), then send one of them again; wait for
    every outcome. ``sent`` counts them by the outcome they must get."""
    ids = []
    for n in range(BATCH):
        table, command_id = f"m-{run}-{n}", f"c-{run}-{n}"
        command = {"command": "open_table", "table_id": table, "variant": "harbin",
                   "players": ["a", "b", "c", "d"]} if n % 3 else {
                   "command": "open_table", "table_id": table}  # fmt: skip
        submit(app, table, command, command_id=command_id)
        ids.append((command_id, table, command))
        sent["accepted" if n % 3 else "invalid_command"] += 1
    for command_id, _, _ in ids:
        await_outcome(store, command_id, timeout=30)
    command_id, table, command = ids[1]  # sent again: answered with its first outcome
    submit(app, table, command, command_id=command_id)
    sent["duplicate"] += 1
    await_outcome(store, command_id, timeout=30)


def _counted(address: str) -> dict[str, float]:
    found = samples(scrape(address), "paiju_commands_total")
    return {dict(labels)["outcome"]: value for labels, value in found.items()}


def _worker(private_redis: PrivateRedis, store_url: str, tmp_path: Path, port: int,
            metrics_dir: Path) -> Part:  # fmt: skip
    env = {**os.environ, "PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": store_url,
           "PAIJU_METRICS_PORT": str(port), "PAIJU_METRICS_DIR": str(metrics_dir),
           "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO"}  # fmt: skip
    return Part("worker", ["worker", "--pool", "prefork", "--concurrency", "2", "--queues",
                           "commands", "--without-mingle", "--without-gossip"], env, tmp_path)  # fmt: skip


def test_the_command_counts_of_two_prefork_children_add_up_to_what_was_sent(
    private_redis: PrivateRedis, store_url: str, tmp_path: Path
) -> None:
    port, metrics_dir = free_port(), tmp_path / "metrics"
    worker = _worker(private_redis, store_url, tmp_path, port, metrics_dir)
    (metrics_dir).mkdir()
    (metrics_dir / "counter_999999.db").write_bytes(b"left by an earlier run")
    worker.start()
    app = create_app(load_settings(broker_url=private_redis.url, store_url=store_url))
    store = open_store(store_url)
    run = uuid.uuid4().hex[:6]
    sent = {"accepted": 0, "invalid_command": 0, "duplicate": 0}
    try:
        for batch in range(MAX_BATCHES):  # until both children have run commands (bounded)
            _send_batch(app, store, f"{run}-{batch}", sent)
            if len(_pids_that_ran_commands(worker.log_text())) >= 2:
                break
        children = _pids_that_ran_commands(worker.log_text())
        address = f"http://127.0.0.1:{port}/metrics"
        assert until(lambda: _counted(address) == sent, 30), (_counted(address), sent, worker.log_text()[-3000:])
        text = scrape(address)
    finally:
        worker.stop()
        store.close()
    assert len(children) == 2, worker.log_text()[-3000:]
    files = {p.name for p in metrics_dir.glob("counter_*.db")}
    assert {f"counter_{pid}.db" for pid in children} <= files
    assert "counter_999999.db" not in files  # an earlier run's files are wiped at start
    by_command = samples(text, "paiju_commands_total")
    assert by_command[(("command", "open_table"), ("outcome", "accepted"))] == sent["accepted"]
    latency = samples(text, "paiju_command_duration_seconds_count")
    assert sum(latency.values()) == sum(sent.values())


def test_a_killed_pool_process_keeps_its_counts_and_its_replacement_adds_to_them(
    private_redis: PrivateRedis, store_url: str, tmp_path: Path
) -> None:
    port = free_port()
    worker = _worker(private_redis, store_url, tmp_path, port, tmp_path / "metrics")
    worker.start()
    app = create_app(load_settings(broker_url=private_redis.url, store_url=store_url))
    store = open_store(store_url)
    address, sent = f"http://127.0.0.1:{port}/metrics", {"accepted": 0, "invalid_command": 0,
                                                         "duplicate": 0}  # fmt: skip
    try:
        _send_batch(app, store, f"{uuid.uuid4().hex[:6]}-before", sent)
        assert until(lambda: _counted(address) == sent, 30), (_counted(address), sent)
        assert until(lambda: len(worker.children()) == 2, 10)
        first = set(worker.children())
        os.kill(sorted(first)[0], signal.SIGKILL)  # a pool process of the worker this test started
        assert until(lambda: len(set(worker.children()) - first) == 1, 30), worker.log_text()[-2000:]
        _send_batch(app, store, f"{uuid.uuid4().hex[:6]}-after", sent)
        assert until(lambda: _counted(address) == sent, 30), (_counted(address), sent)
    finally:
        worker.stop()
        store.close()
