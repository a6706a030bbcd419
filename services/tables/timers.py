"""A table's waits as the store's durable timers, and the command a due timer gives.

Every append the service makes carries the table's waits after it (``deadlines``), so the
store keeps one timer row per wait in the same transaction: a wait that goes on (same kind,
seat and starting version) keeps its due time, a new one starts its clock, an ended one is
removed. A due timer fires ``TimeOut`` with the version its wait began at and a command id
made from the table and the timer's key (``runner.fire_timer``), so a timer fired twice (two
timekeepers, a lease that ran out) is recorded once, and one that fires after the seat acted
is refused by the rules and changes nothing.
"""

from __future__ import annotations

from events.store.timers import Timer
from services.rules.table import TableState
from services.rules.table.deadlines import Deadline, deadlines
from services.tables.codec import command_record
from services.tables.command_ids import service_command_id


def timer_key(deadline: Deadline) -> str:
    """``turn:2:v41``: the wait, whose it is (``all`` for a claim window) and where it began.
    A claim window keeps its key while seats answer, so its clock is not restarted."""
    whose = "all" if deadline.wait == "claim" else str(deadline.seats[0])
    return f"{deadline.wait}:{whose}:v{deadline.version}"


def table_timers(table: TableState) -> list[Timer]:
    """The timers a table needs now: one per wait it announces."""
    return [
        Timer(timer_key(d), float(d.seconds), command_record(d.timeout)) for d in deadlines(table)
    ]


def timeout_command_id(table_id: str, key: str) -> str:
    """The one command id a timer fires under, however often it fires: the service's own
    (``p:timeout:...``), which no client's Idempotency-Key can name."""
    return service_command_id("timeout", table_id, key)
