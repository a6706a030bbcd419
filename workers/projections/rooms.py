"""Rooms: how full each room is (tables in play, players seated) and its tables waiting for
players.

A room is the platform's (decision 18); until the API brings rooms of their own, a table's
room is the one ``table_opened`` names ("" for none, and for every table opened before rooms).

- a table is in play from ``table_opened``, and from the first deal of each later series,
  until its series ends (``series_ended``) or 网管解散 (``table_dissolved``): the same tables
  the live list shows;
- its seated players are its four, less the seats that left in this series (托管 plays a
  leaver's seat to the end of the hand, but the player has gone);
- **tables waiting for players**: none can exist yet, for a table opens with its four players
  seated. The API issue adds seating (a player sits down at a table of a room, stands up, is
  ready): this model will count a table as waiting from its opening with a free seat until its
  fourth player sits, from those events. Until then the column is 0, and kept so that readers
  and the API can rely on it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from events.envelope import RecordedEvent
from workers.projections.base import Rows, TableSpec

ROOMS = TableSpec(
    "rooms",
    (
        ("room", "text"),
        ("tables_in_play", "int"),
        ("players_seated", "int"),
        ("tables_waiting", "int"),
        ("last_position", "int"),
    ),
    ("room",),
)
TABLES = TableSpec(
    "rooms_tables",
    (("table_id", "text"), ("room", "text"), ("in_play", "int"), ("seated", "int")),
    ("table_id",),
)


class Rooms:
    name: ClassVar[str] = "rooms"
    code_version: ClassVar[int] = 1
    tables: ClassVar[tuple[TableSpec, ...]] = (ROOMS, TABLES)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        kind, key = event.type, {"table_id": event.stream_id}
        if kind == "table_opened":
            room = event.payload.get("room", "")
            rows.put(TABLES.name, key, {"room": room, "in_play": 0, "seated": 0})
            self._set(rows, event, in_play=1, seated=4)
        elif kind == "hand_started":
            table = rows.get(TABLES.name, key)
            if table is not None and not table["in_play"]:  # a new series' first deal
                self._set(rows, event, in_play=1, seated=4)
        elif kind == "seat_left":
            table = rows.get(TABLES.name, key)
            if table is not None and table["in_play"]:
                self._set(rows, event, in_play=1, seated=int(table["seated"]) - 1)
        elif kind in ("series_ended", "table_dissolved"):
            self._set(rows, event, in_play=0, seated=0)

    def _set(self, rows: Rows, event: RecordedEvent, in_play: int, seated: int) -> None:
        """Set the table's counts; its room moves by the difference."""
        key = {"table_id": event.stream_id}
        table: dict[str, Any] | None = rows.get(TABLES.name, key)
        if table is None:
            return  # not a table's stream
        change = {"tables_in_play": in_play - int(table["in_play"]),
                  "players_seated": seated - int(table["seated"]), "tables_waiting": 0}  # fmt: skip
        rows.put(TABLES.name, key, {"in_play": in_play, "seated": seated})
        rows.add(ROOMS.name, {"room": table["room"]}, change, {"last_position": event.position})
