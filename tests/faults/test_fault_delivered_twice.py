"""Every command delivered twice: nothing recorded twice, and both deliveries answered alike.

Bots play tables through a ``paiju worker`` with two pool processes (so the two copies of a
command may run at the same moment): each command goes on the queue twice, either as two
messages under one command id (a client that sent again) or as one message twice, same task
id (what the broker does when it redelivers). The worker logs each delivery's answer; the
two answers of a command name the same versions, the first delivery's.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections import defaultdict
from pathlib import Path

import pytest
from fault_bots import Platform
from fault_kit import Part, PrivateRedis, count_log
from fault_scale import sized

from events.store import open_store
from services.settings import load_settings
from workers.app import create_app

TABLES = 4
COMMANDS_PER_TABLE = sized(20, 40)  # make test, make faults


def answers(log: str) -> dict[str, list[tuple[int | None, int | None]]]:
    """Each command id's answers as the worker logged them (one line per delivery run)."""
    found: dict[str, list[tuple[int | None, int | None]]] = defaultdict(list)
    for text in log.splitlines():
        try:
            line = json.loads(text)
        except ValueError:
            continue
        if isinstance(line, dict) and line.get("event") in ("command.accepted", "command.refused"):
            found[line["command_id"]].append((line.get("first_version"), line.get("last_version")))
    return found


@pytest.mark.parametrize("store_kind", ["postgresql", "sqlite"])
@pytest.mark.parametrize("copies", ["two_messages", "one_message_twice"])
def test_every_command_delivered_twice_is_recorded_once_and_answered_alike(
    copies: str, store_kind: str, private_redis: PrivateRedis, faults_pg_url: str,
    tmp_path: Path,
) -> None:
    store_url = faults_pg_url if store_kind == "postgresql" else f"sqlite:///{tmp_path}/s.sqlite3"
    env = {**os.environ, "PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": store_url,
           "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO"}
    store = open_store(store_url)
    app = create_app(load_settings(broker_url=private_redis.url, store_url=store_url))
    worker = Part("worker", ["worker", "--pool", "prefork", "--concurrency", "2",
                             "--queues", "commands"], env, tmp_path)
    worker.start()
    platform = Platform(app, store, patience=30, resends_allowed=0, sends_per_command=2,
                        same_message=copies == "one_message_twice")
    tables = [f"twice-{uuid.uuid4().hex[:6]}-{n}" for n in range(TABLES)]
    try:
        platform.play_all(tables, COMMANDS_PER_TABLE)(120)
        deadline = time.monotonic() + 30  # the second copies of the last commands
        while time.monotonic() < deadline:
            seen = answers(worker.log_text())
            if all(len(seen[c]) >= 2 for c in platform.acknowledged):
                break
            time.sleep(0.1)
    finally:
        worker.stop()
    seen = answers(worker.log_text())
    count = count_log(store, tables)
    store.close()
    answered_twice = [c for c in platform.acknowledged if len(seen[c]) == 2]
    differing = [c for c, versions in platform.acknowledged.items()
                 if set(seen[c]) != {versions}]
    print(
        f"\ndelivered twice ({copies}, {store_kind}): commands {len(platform.acknowledged)},"
        f" messages {platform.sent}, answered twice {len(answered_twice)}, answers differing"
        f" {len(differing)}; events {count.events}, doubled command ids"
        f" {len(count.doubled_command_ids)}, version gaps {len(count.version_gaps)}, tables not"
        f" replaying {len(count.not_replaying)}"
    )
    assert len(platform.acknowledged) == TABLES * COMMANDS_PER_TABLE
    assert platform.unanswered == [] and platform.refused == []
    assert len(answered_twice) == len(platform.acknowledged)
    assert differing == []
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == []
    assert set(platform.acknowledged) <= count.command_ids
