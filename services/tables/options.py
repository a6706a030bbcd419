"""What a seat may do now, in one frame: the one-request protocol's answer to "my move?".

A seat's live stream carries these options on the last event of each delivery, and a command's
answer carries them for its sender, so a client in play never reads ``GET …/view`` or
``GET …/legal`` (they stay for a resync and for debugging):

- ``version``: the table's version they are legal at, to send back as ``If-Match``;
- ``commands``: the legal commands (``legal_commands``), exactly as ``GET …/legal`` lists them;
- ``deadline``: the wait the seat is under, if any: its kind (``turn``, ``claim``,
  ``autoplay_window``), its seconds, the version it began at and, where known, ``due_at`` (the
  time of that version's event plus the seconds: when the turn timer fires, give or take the
  append that started it);
- ``view``: the seat's view (``player_view``) when it has something to choose (any command but
  requesting 托管 or leaving): a client chooses its discard from its own tiles without asking.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel

from events.store.base import EventStore
from services.rules.table import TableState
from services.rules.table.deadlines import deadlines
from services.rules.table.legal import legal_commands
from services.rules.table.views import player_view

ALWAYS_OPEN = frozenset({"request_autoplay", "leave_table"})
"""Commands a seat may give whenever it sits at a table: offered, but not a choice to make."""

BeganAt = Callable[[int], datetime | None]
"""The time of the event at a version of the table (None: not known here)."""


class Deadline(BaseModel):
    """The wait a seat is under: its kind, its seconds, the version it began at and, where
    known, when it runs out (``due_at``, that version's time plus the seconds)."""

    wait: str
    seconds: int
    since_version: int
    due_at: datetime | None = None


class SeatOptions(BaseModel):
    """What the seat may do now (``services.tables.options``): send a command with
    ``If-Match: "version"``; ``view`` is the seat's view when it has a choice to make."""

    version: int
    commands: list[dict[str, Any]]
    deadline: Deadline | None = None
    view: dict[str, Any] | None = None


def seat_deadline(table: TableState, seat: int, began_at: BeganAt) -> dict[str, Any] | None:
    """The wait on ``seat`` now (its turn, a claim window it is asked in, its 托管 window)."""
    for deadline in deadlines(table):
        if deadline.wait == "reconnect_grace" or seat not in deadline.seats:
            continue
        began = began_at(deadline.version)
        due = None if began is None else began + timedelta(seconds=deadline.seconds)
        return {
            "wait": deadline.wait,
            "seconds": deadline.seconds,
            "since_version": deadline.version,
            "due_at": None if due is None else due.isoformat(),
        }
    return None


def seat_options(table: TableState, seat: int, began_at: BeganAt) -> dict[str, Any]:
    """What ``seat`` may do at ``table.version``: its commands, its deadline, and its view
    when it has a choice to make."""
    commands = [c.model_dump(mode="json") for c in legal_commands(table, seat)]
    options: dict[str, Any] = {
        "version": table.version,
        "commands": commands,
        "deadline": seat_deadline(table, seat, began_at),
    }
    if any(c["command"] not in ALWAYS_OPEN for c in commands):
        options["view"] = player_view(table, seat)
    return options


class EventTimes:
    """The times of a table's recent events, as a stream read them (``note``); one it did not
    read (a wait that began before the stream opened) is read from the store once."""

    KEPT = 64

    def __init__(self, store: EventStore, table_id: str) -> None:
        self.store, self.table_id = store, table_id
        self._times: dict[int, datetime] = {}

    def note(self, times: Iterable[tuple[int, datetime]]) -> None:
        self._times.update(times)
        if len(self._times) > self.KEPT:
            for version in sorted(self._times)[: len(self._times) - self.KEPT]:
                del self._times[version]

    def __call__(self, version: int) -> datetime | None:
        found = self._times.get(version)
        if found is None and version > 0:
            recorded = self.store.read_event(self.table_id, version)
            if recorded is not None:
                found = self._times[version] = recorded.recorded_at
        return found
