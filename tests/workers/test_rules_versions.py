"""A rolling upgrade of the rules, with real workers: two ``paiju worker`` processes on a private
redis-server, one of the old code (it knows only ``paiju-rules/1``), one upgraded (it knows that
and a newer version, under which it opens new tables). Every command is decided by a worker that
has its table's version, none is lost, none is decided twice; the old worker hands back what it
cannot decide, to that version's queue, and records nothing for it; there the command waits
until the upgraded worker starts and takes it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rules_versions_kit import NEWER_ID, newer
from worker_kit import paiju, stop

from events.store import open_store
from events.store.base import EventStore
from services.rules import RULES_VERSION
from services.rules.table.commands import OpenTable
from services.rules.variants import versions as rv
from services.settings import load_settings
from services.tables import TableService
from services.tables.runner import outcome_store
from workers.app import create_app
from workers.client import await_outcome, submit

PLAYERS = ("ann", "bo", "cy", "di")
PER_VERSION = 4  # tables opened here under each version before the workers start
OPENED_BY_WORKERS = 6  # tables the two workers open, each under its own current version
KIT = Path(__file__).with_name("rules_versions_kit.py")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root, port = tmp_path_factory.mktemp("redis"), free_port()
    with (root / "redis.log").open("w") as log:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(root), "--maxmemory-policy", "noeviction"],
            stdout=log, stderr=log, start_new_session=True,
        )  # fmt: skip
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=2)
    try:
        for _ in range(200):  # at most 10 s to start
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        server.terminate()
        server.wait(10)


def start_worker(argv: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    with log_path.open("w") as log:
        return subprocess.Popen(
            [*argv, "worker", "--concurrency", "1", "--queues", "commands", "--without-mingle",
             "--without-gossip"],
            env=env, stdout=log, stderr=log, start_new_session=True,
        )  # fmt: skip


def log_lines(path: Path) -> list[dict[str, object]]:
    lines = []
    for text in path.read_text("utf-8", "replace").splitlines():
        with contextlib.suppress(ValueError):
            line = json.loads(text)
            if isinstance(line, dict):
                lines.append(line)
    return lines


def logged(path: Path, event: str) -> set[str]:
    """The command ids the worker logged ``event`` for."""
    return {str(line.get("command_id")) for line in log_lines(path) if line.get("event") == event}


def wait_until(check, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def opened_version(store: EventStore, table_id: str) -> str:
    (opening, *_) = store.read_stream(table_id)
    return str(opening.payload.get("rules_version", rv.BEFORE_VERSIONS))


def dice_of(store: EventStore, table_id: str) -> int:
    deals = [e for e in store.read_stream(table_id) if e.type == "hand_started"]
    assert len(deals) == 1, (table_id, len(deals))  # dealt once, never twice
    return len(deals[0].payload["dice"])


def test_an_old_and_an_upgraded_worker_each_decide_only_tables_of_versions_they_have(
    private_redis: str, pg_schema_url: str, tmp_path: Path
) -> None:
    run = uuid.uuid4().hex[:8]
    store = open_store(pg_schema_url)
    env = {
        **os.environ, "PAIJU_BROKER_URL": private_redis, "PAIJU_KEY_PREFIX": f"rv-{run}:",
        "PAIJU_STORE_URL": pg_schema_url, "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO",
    }  # fmt: skip
    app = create_app(
        load_settings(broker_url=private_redis, key_prefix=f"rv-{run}:", store_url=pg_schema_url)
    )
    old_tables = [f"rv-{run}-a{n}" for n in range(PER_VERSION)]
    new_tables = [f"rv-{run}-b{n}" for n in range(PER_VERSION)]
    with rv.known_only(rv.ENGINE, newer()):  # this test process opens under either version
        for version, tables in ((RULES_VERSION, old_tables), (NEWER_ID, new_tables)):
            opener = TableService(store, rules_version=version)
            for table_id in tables:
                command = OpenTable(table_id=table_id, variant="shanghai", players=PLAYERS)
                assert opener.handle(table_id, command, command_id=f"{table_id}/open").events
    old_log, new_log = tmp_path / "old.log", tmp_path / "new.log"
    old = start_worker(paiju(), env, old_log)
    new: subprocess.Popen[bytes] | None = None
    try:
        # Only the old worker runs: it deals the old tables and hands the new ones back.
        for table_id in old_tables + new_tables:
            submit(app, table_id, {"command": "start_hand"}, command_id=f"{table_id}/deal")
        assert all(await_outcome(store, f"{t}/deal", 60).accepted for t in old_tables)
        new_deals = {f"{t}/deal" for t in new_tables}
        assert wait_until(lambda: new_deals <= logged(old_log, "command.handed_back"), 60)
        outcomes = outcome_store(store)
        assert [outcomes.load_outcome(c) for c in sorted(new_deals)] == [None] * PER_VERSION
        assert [store.stream_version(t) for t in new_tables] == [1] * PER_VERSION

        # The upgraded worker joins: it takes what was handed back; then both open tables.
        new = start_worker([sys.executable, str(KIT)], env, new_log)
        assert all(await_outcome(store, c, 60).accepted for c in sorted(new_deals))
        mixed = [f"rv-{run}-m{n}" for n in range(OPENED_BY_WORKERS)]
        for table_id in mixed:
            opening = {"command": "open_table", "table_id": table_id, "variant": "shanghai",
                       "players": list(PLAYERS)}  # fmt: skip
            submit(app, table_id, opening, command_id=f"{table_id}/open")
        assert all(await_outcome(store, f"{t}/open", 60).accepted for t in mixed)
        for table_id in mixed:
            submit(app, table_id, {"command": "start_hand"}, command_id=f"{table_id}/deal")
        assert all(await_outcome(store, f"{t}/deal", 60).accepted for t in mixed)
        newer_deals = {f"{t}/deal" for t in new_tables + mixed if opened_version(store, t) == NEWER_ID}
        # a worker logs a command after it records its outcome: wait for the lines (bounded)
        assert wait_until(lambda: newer_deals <= logged(new_log, "command.accepted"), 30)
    finally:
        workers = [w for w in (old, new) if w is not None]
        for worker in workers:  # both at once: a warm shutdown takes seconds
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            stop(worker)  # waits for it; kills it if it hangs
    tables = old_tables + new_tables + mixed
    versions = {t: opened_version(store, t) for t in tables}
    assert {versions[t] for t in old_tables} == {RULES_VERSION}
    assert {versions[t] for t in new_tables} == {NEWER_ID}
    # each table dealt once, under its own rules: two dice in paiju-rules/1, four in the newer
    assert {t: dice_of(store, t) for t in tables} == {
        t: 2 if versions[t] == RULES_VERSION else 4 for t in tables
    }
    # every event stamped with its table's version, and never decided by a worker without it
    assert all({e.rules_version for e in store.read_stream(t)} == {versions[t]} for t in tables)
    decided_by_old = logged(old_log, "command.accepted")
    newer_commands = {f"{t}/deal" for t in tables if versions[t] == NEWER_ID}
    assert newer_commands == newer_deals
    assert not decided_by_old & newer_commands
    hand_backs = [line for line in log_lines(old_log) if line.get("event") == "command.handed_back"]
    assert {line["handed_back"] for line in hand_backs} == {1}  # once each, to its version's queue
    assert newer_commands <= logged(new_log, "command.accepted")
    assert [store.stream_version(t) for t in tables] == [
        len(store.read_stream(t)) for t in tables
    ]  # no gaps, nothing appended twice
    store.close()
