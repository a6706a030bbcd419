"""A room's table started through the workers' ``commands`` queue (the API's path, like every
command): ``OpenTable`` and ``StartHand`` under the service's own ids
(``services.rooms.starter.commands``), each outcome awaited, bounded."""

from __future__ import annotations

from celery import Celery

from events.envelope import Actor
from events.store.base import EventStore
from services.rooms.starter import TableNotStarted, commands
from services.rules.events.rooms import RoomTableStarted
from workers.client import OutcomeTimeoutError, submit_and_wait


class QueuedStarter:
    """Through the workers' ``commands`` queue, awaiting each outcome (bounded)."""

    def __init__(self, app: Celery, store: EventStore, timeout: float = 10.0) -> None:
        self.app, self.store, self.timeout = app, store, timeout

    def start(self, room: str, started: RoomTableStarted) -> None:
        for command_id, command in commands(room, started):
            try:
                outcome = submit_and_wait(
                    self.app, self.store, started.table_id, command, command_id=command_id,
                    actor=Actor.system(), timeout=self.timeout, resend_every=self.timeout / 2,
                )  # fmt: skip
            except OutcomeTimeoutError as error:
                raise TableNotStarted(f"table {started.table_id}: {error}") from None
            if not outcome.accepted:
                raise TableNotStarted(f"table {started.table_id}: {outcome.reason}")
