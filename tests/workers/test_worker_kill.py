"""A whole worker (main process and pool) killed with SIGKILL in the middle of commands, again and
again, while another worker keeps serving: every command sent is answered, none recorded before
the kill is lost, and no event is recorded twice. Bots play several tables through the queue, one command in flight per
table; what the killed worker held comes back after the visibility timeout (5 s here), and
the one message Redis may have handed it as it died (popped, not yet read) is sent again by
the driver under the same command id, as any client does when no outcome comes.

``PAIJU_FAULT_KILLS`` sets the number of kills: 20 by default (about a minute); docs/faults.md
has a run of 50.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from worker_kit import REDIS_URL, forget_keys, paiju, stop

from events.store import open_store
from events.store.base import EventStore
from services.bots.winning_bot import winning_command
from services.rules.table.commands import Command, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import TableService
from services.tables.runner import outcome_store
from workers.app import create_app
from workers.client import await_outcome, submit
from workers.settings import load_settings

KILLS = int(os.environ.get("PAIJU_FAULT_KILLS", "20"))
TABLES = 6
RESEND = 8.0  # the visibility timeout (5 s), a sweep, and some slack
PLAYERS = ["ann", "bo", "cy", "di"]


class Driver:
    """Bots at ``TABLES`` tables: each table's next command once the last one has its outcome."""

    def __init__(self, app: object, store: EventStore, run: str) -> None:
        self.app, self.store = app, store
        self.service = TableService(store)
        self.rng = random.Random(9)
        self.tables = [f"kill-{run}-{n}" for n in range(TABLES)]
        self.sent: dict[str, list[str]] = {t: [] for t in self.tables}
        self.last: dict[str, tuple[dict[str, object] | Command, float]] = {}
        self.refused: list[str] = []
        self.resent = 0
        self.stop = threading.Event()
        self.draining = threading.Event()  # no new commands: only the unanswered sent again

    def send(self, table_id: str, command: dict[str, object] | Command) -> None:
        command_id = f"{table_id}/{len(self.sent[table_id])}"
        submit(self.app, table_id, command, command_id=command_id)  # type: ignore[arg-type]
        self.sent[table_id].append(command_id)
        self.last[table_id] = (command, time.monotonic())

    def resend_if_unanswered(self, table_id: str) -> None:
        """As a client does: the same command under the same id, after ``RESEND`` s."""
        command, at = self.last[table_id]
        if time.monotonic() - at > RESEND:
            submit(self.app, table_id, command,  # type: ignore[arg-type]
                   command_id=self.sent[table_id][-1])
            self.last[table_id] = (command, time.monotonic())
            self.resent += 1

    def run(self) -> None:
        for table_id in self.tables:
            self.send(table_id, {"command": "open_table", "table_id": table_id,
                                 "variant": "harbin", "players": PLAYERS})
        while not self.stop.is_set():
            moved = False
            for table_id in self.tables:
                last = outcome_store(self.store).load_outcome(self.sent[table_id][-1])
                if last is None:
                    self.resend_if_unanswered(table_id)
                    continue
                if self.draining.is_set():
                    continue
                if not last.accepted:
                    self.refused.append(f"{last.command_id}: {last.reason}")
                    continue
                state = self.service.load(table_id)
                to_act = seats_to_act(state)
                if state.hand_over or not to_act:  # opened, or the hand settled: deal
                    self.send(table_id, StartHand())
                else:
                    self.send(table_id, winning_command(state, to_act[0], self.rng))
                moved = True
            if not moved:
                time.sleep(0.01)


@pytest.fixture
def killed_setup(pg_schema_url: str) -> Iterator[tuple[dict[str, str], EventStore]]:
    prefix = f"paiju-test-kill-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
    env = {**os.environ, "PAIJU_BROKER_URL": REDIS_URL, "PAIJU_KEY_PREFIX": prefix,
           "PAIJU_STORE_URL": pg_schema_url, "PAIJU_VISIBILITY_TIMEOUT": "5",
           "PAIJU_LOG_FORMAT": "json", "PAIJU_LOG_LEVEL": "INFO"}
    store = open_store(pg_schema_url)
    try:
        yield env, store
    finally:
        store.close()
        forget_keys(prefix)


def start_worker(env: dict[str, str], log: Path, concurrency: int) -> subprocess.Popen[bytes]:
    with log.open("w") as out:
        return subprocess.Popen(
            [*paiju(), "worker", "--concurrency", str(concurrency), "--queues", "commands",
             "--without-mingle", "--without-gossip"],
            env=env, stdout=out, stderr=out, start_new_session=True,
        )


def took_a_message(log: Path, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if "received" in log.read_text("utf-8", "replace"):
            return True
        time.sleep(0.02)
    return False


def test_a_worker_killed_again_and_again_mid_commands_loses_no_sent_command_and_doubles_no_event(
    killed_setup: tuple[dict[str, str], EventStore], tmp_path: Path
) -> None:
    env, store = killed_setup
    settings = load_settings(broker_url=env["PAIJU_BROKER_URL"],
                             key_prefix=env["PAIJU_KEY_PREFIX"], store_url=env["PAIJU_STORE_URL"])
    steady = start_worker(env, tmp_path / "steady.log", 1)
    driver = Driver(create_app(settings), store, uuid.uuid4().hex[:8])
    driving = threading.Thread(target=driver.run, daemon=True)
    driving.start()
    kills, mid_task = 0, 0
    rng = random.Random(4)
    try:
        deadline = time.monotonic() + 600
        while kills < KILLS and time.monotonic() < deadline:
            log = tmp_path / f"victim-{kills}.log"
            victim = start_worker(env, log, 2)
            if took_a_message(log, 20):
                time.sleep(rng.uniform(0, 0.05))
                mid_task += "succeeded" not in log.read_text("utf-8", "replace").split(
                    "received")[-1]
            os.killpg(victim.pid, signal.SIGKILL)  # the worker this test started, and its pool
            victim.wait(10)
            kills += 1
        driver.draining.set()
        for ids in driver.sent.values():
            outcome_store(store).wait_for_outcome(ids[-1], 60)
    finally:
        driver.stop.set()
        driving.join(30)
        stop(steady)
    sent = [c for ids in driver.sent.values() for c in ids]
    outcomes = {c: outcome_store(store).load_outcome(c) for c in sent}
    lost = [c for c, o in outcomes.items() if o is None]
    doubled = 0
    for table_id in driver.tables:
        events = store.read_stream(table_id)
        runs = [e.command_id for i, e in enumerate(events)
                if i == 0 or e.command_id != events[i - 1].command_id]
        doubled += len(runs) - len(set(runs))
        accepted = [outcomes[c] for c in driver.sent[table_id] if outcomes[c] is not None]
        spans = sum((o.last_version or 0) - (o.first_version or 1) + 1
                    for o in accepted if o is not None and o.accepted)
        doubled += len(events) - spans
    print(f"\nkills={kills} (a task running at {mid_task}) tables={TABLES} commands sent="
          f"{len(sent)} events={sum(store.stream_version(t) for t in driver.tables)} "
          f"resent={driver.resent} lost={len(lost)} doubled={doubled} refused={len(driver.refused)}")
    assert kills == KILLS
    assert lost == []
    assert doubled == 0
    assert driver.refused == []
    assert [await_outcome(store, c, 1).accepted for c in sent] == [True] * len(sent)
