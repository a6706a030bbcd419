"""Bots that play tables through the queue as a platform would: ``submit`` a command, await its
outcome, and on a timeout send the same command again under the same id (the first outcome
is the answer either way). One command in flight per table, each table its own thread."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from events.outcomes import OutcomeTimeoutError
from events.store.base import EventStore
from services.bots.winning_bot import winning_command
from services.rules.table.commands import Command, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import TableService
from workers.client import await_outcome, submit
from workers.tasks.commands import COMMAND_TASK

PLAYERS = ["ann", "bo", "cy", "di"]


@dataclass
class Platform:
    app: Any
    store: EventStore
    patience: float = 3.0  # seconds before a command is sent again
    resends_allowed: int = 30
    sends_per_command: int = 1  # 2: every command put on the queue twice
    same_message: bool = False  # the copies are one message (one task id), as a redelivery is
    acknowledged: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    unanswered: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    resent: int = 0
    sent: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def deliver(self, table_id: str, command: dict[str, Any] | Command, command_id: str) -> bool:
        """Send until an outcome is seen (bounded); True if it was accepted."""
        for attempt in range(self.resends_allowed + 1):
            with self._lock:
                self._send(table_id, command, command_id)
                self.resent += attempt > 0
            try:
                outcome = await_outcome(self.store, command_id, self.patience)
            except OutcomeTimeoutError:
                continue
            with self._lock:
                if outcome.accepted:
                    self.acknowledged[command_id] = (outcome.first_version, outcome.last_version)
                else:
                    self.refused.append(f"{command_id}: {outcome.code}: {outcome.reason}")
            return outcome.accepted
        with self._lock:
            self.unanswered.append(command_id)
        return False

    def _send(self, table_id: str, command: dict[str, Any] | Command, command_id: str) -> None:
        if not self.same_message:
            for _ in range(self.sends_per_command):
                submit(self.app, table_id, command, command_id=command_id)
                self.sent += 1
            return
        data = command.model_dump(mode="json") if isinstance(command, Command) else command
        task_id = str(uuid.uuid4())
        for _ in range(self.sends_per_command):  # what the broker does when it redelivers
            self.app.send_task(
                COMMAND_TASK, task_id=task_id,
                kwargs={"table_id": table_id, "command": data, "command_id": command_id},
            )
            self.sent += 1

    def play(self, table_id: str, commands: int, seed: int) -> None:
        """Open ``table_id`` and play up to ``commands`` commands at it, dealing again after
        each settled hand, until ``stop`` is set."""
        service = TableService(self.store)
        rng = random.Random(seed)
        opening = {"command": "open_table", "table_id": table_id, "variant": "harbin",
                   "players": PLAYERS}
        if not self.deliver(table_id, opening, f"{table_id}/0"):
            return
        for n in range(1, commands):
            if self.stop.is_set():
                return
            state = service.load(table_id)
            to_act = seats_to_act(state)
            if state.hand_over or state.hand is None or not to_act:
                command: Command = StartHand()
            else:
                command = winning_command(state, to_act[0], rng)
            if not self.deliver(table_id, command, f"{table_id}/{n}"):
                return

    def play_all(self, tables: list[str], commands: int) -> Callable[[float], None]:
        """Start a thread per table; returns ``join(timeout)``."""
        threads = [
            threading.Thread(target=self.play, args=(t, commands, n), daemon=True)
            for n, t in enumerate(tables)
        ]
        for thread in threads:
            thread.start()

        def join(timeout: float) -> None:
            for thread in threads:
                thread.join(timeout)

        return join
