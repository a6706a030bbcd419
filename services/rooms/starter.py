"""Opening a table a room started, and dealing its first hand: through a ``TableService`` in
this process, or through the workers' command queue (``workers.room_starter``, the API's path,
like every command).

Both send ``OpenTable`` and ``StartHand`` under the service's own command ids derived from the
table id (``p:open:...``, out of every client's reach: a seat that could name them first would
stop the room), so starting a table again (after a crash between the room's ``room_table_started`` and the
table's opening, ``RoomService.ensure_started``) records nothing twice.
"""

from __future__ import annotations

from typing import Protocol

from events.envelope import Actor
from services.rules.events.rooms import RoomTableStarted
from services.rules.table.commands import Command, OpenTable, StartHand
from services.tables.command_ids import service_command_id
from services.tables.service import Rejected, TableService


class TableNotStarted(RuntimeError):
    """The table could not be opened or dealt now; starting it again is safe."""


class TableStarter(Protocol):
    def start(self, room: str, started: RoomTableStarted) -> None: ...


def commands(room: str, started: RoomTableStarted) -> list[tuple[str, Command]]:
    table_id = started.table_id
    opened = OpenTable(
        table_id=table_id, variant=started.variant, players=started.players,
        base_stake=started.base_stake, options=dict(started.options),
        timing=dict(started.timing), room=room,
    )  # fmt: skip
    return [
        (service_command_id("open", table_id), opened),
        (service_command_id("deal", table_id, "1"), StartHand()),
    ]


class DirectStarter:
    """Through a ``TableService`` of this process (tests, tools, one-process use)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def start(self, room: str, started: RoomTableStarted) -> None:
        for command_id, command in commands(room, started):
            result = self.service.handle(started.table_id, command, command_id=command_id,
                                         actor=Actor.system())  # fmt: skip
            if isinstance(result, Rejected):
                raise TableNotStarted(f"table {started.table_id}: {result.reason}")
