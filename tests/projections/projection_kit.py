"""Series played through the table service for the projection tests (deterministic bots)."""

from __future__ import annotations

import random
from typing import Any

from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.db import ProjectionDB
from services.bots.winning_bot import winning_command
from services.rules.table import TableState
from services.rules.table.commands import Command, LeaveTable, OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService


def accept(service: TableService, table_id: str, command: Command, command_id: str) -> TableState:
    done = service.handle(table_id, command, command_id=command_id)
    assert isinstance(done, Accepted) and done.state is not None, done
    return done.state


def play_series(
    store: EventStore, table_id: str, variant: str, players: tuple[str, str, str, str],
    hands: int = 2, leaver: int | None = None, seed: int = 1,
) -> TableState:  # fmt: skip
    """Open a table, play ``hands`` hands with winning bots; ``leaver`` leaves a last hand."""
    service, rng = TableService(store), random.Random(seed)
    accept(service, table_id, OpenTable(table_id=table_id, variant=variant, players=players),
           f"{table_id}/open")  # fmt: skip
    state: TableState | None = None
    for hand in range(hands + (leaver is not None)):
        state = accept(service, table_id, StartHand(), f"{table_id}/deal-{hand}")
        if hand == hands:  # the last hand: a seat leaves at once, 托管 plays it out
            state = accept(service, table_id, LeaveTable(seat=leaver), f"{table_id}/leave")  # type: ignore[arg-type]
        for move in range(2000):
            if state.hand_over:
                break
            seat = seats_to_act(state)[0]
            command = winning_command(state, seat, rng)
            state = accept(service, table_id, command, f"{table_id}/{hand}/{move}")
    assert state is not None
    return state


def rows_of(
    db: ProjectionDB, projection: Projection, table: str, **where: Any
) -> list[dict[str, Any]]:
    """Every row of one of the projection's tables in its live build, in key order."""
    build = db.active_build(projection.name)
    assert build is not None, f"{projection.name} has no live build"
    spec = next(s for s in projection.tables if s.name == table)
    with db.reader(projection, build.build) as rows:
        return rows.select(table, where, order=spec.key, limit=100_000)
