"""A prefork worker's metrics: what two pool processes did, added up by its main process."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from ops_kit import Part, PrivateRedis, free_port, samples, scrape, until

from events.store import open_store
from workers.app import create_app
from workers.client import await_outcome, submit
from workers.settings import load_settings

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


def test_the_command_counts_of_two_prefork_children_add_up_to_what_was_sent(
    private_redis: PrivateRedis, store_url: str, tmp_path: Path
) -> None:
    port, metrics_dir = free_port(), tmp_path / "metrics"
    env = {**os.environ, "PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": store_url,
           "PAIJU_METRICS_PORT": str(port), "PAIJU_METRICS_DIR": str(metrics_dir),
           "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO"}  # fmt: skip
    worker = Part("worker", ["worker", "--pool", "prefork", "--concurrency", "2", "--queues",
                             "commands", "--without-mingle", "--without-gossip"], env, tmp_path)  # fmt: skip
    (metrics_dir).mkdir()
    (metrics_dir / "counter_999999.db").write_bytes(b"left by an earlier run")
    worker.start()
    app = create_app(load_settings(broker_url=private_redis.url, store_url=store_url))
    store = open_store(store_url)
    run = uuid.uuid4().hex[:6]
    sent = {"accepted": 0, "invalid_command": 0, "duplicate": 0}
    try:
        for batch in range(MAX_BATCHES):  # until both children have run commands (bounded)
            ids = []
            for n in range(BATCH):
                table, command_id = f"m-{run}-{batch}-{n}", f"c-{run}-{batch}-{n}"
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
            if len(_pids_that_ran_commands(worker.log_text())) >= 2:
                break
        children = _pids_that_ran_commands(worker.log_text())
        address = f"http://127.0.0.1:{port}/metrics"

        def counted() -> dict[str, float]:
            found = samples(scrape(address), "paiju_commands_total")
            return {dict(labels)["outcome"]: value for labels, value in found.items()}

        assert until(lambda: counted() == sent, 30), (counted(), sent, worker.log_text()[-3000:])
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
