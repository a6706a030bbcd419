"""Rooms: how full each room is (tables in play, players seated) and its tables waiting for
players.

A room is the platform's (decision 18, ``services.rooms``); a table's room is the one
``table_opened`` names ("" for none, and for every table opened before rooms).

- a table is in play from ``table_opened``, and from the first deal of each later series,
  until its series ends (``series_ended``), 网管解散 (``table_dissolved``) or 关桌 (``table_closed``): the same tables
  the live list shows;
- its seated players are its four, less the seats that left in this series (托管 plays a
  leaver's seat to the end of the hand, but the player has gone);
- **tables waiting for players**: a room's forming table (``services.rules.events.rooms``, on
  the room's stream ``room:<id>``) waits from the room's ``room_configured``, and from each
  ``room_table_started`` (the room forms its next table), while it has a free seat: a player
  sits (``player_seated``) and stands up (``player_left_room``) before it starts. The forming
  table's row (``rooms_forming``) names its seats, free seats and ready players, and the
  room's settings; the room's ``tables_waiting`` is 1 while it has a free seat, else 0, and
  ``players_waiting`` counts who sits at it. Tables opened with no room events (the platform's
  own, ``POST /v1/tables``) never wait.
"""

from __future__ import annotations

from typing import Any, ClassVar

from events.envelope import RecordedEvent
from readmodels.base import Rows, TableSpec, latest

ROOMS = TableSpec(
    "rooms",
    (
        ("room", "text"),
        ("tables_in_play", "int"),
        ("players_seated", "int"),
        ("tables_waiting", "int"),
        ("players_waiting", "int"),
        ("last_position", "int"),
    ),
    ("room",),
)
FORMING = TableSpec(
    "rooms_forming",
    (("room", "text"), ("table_id", "text"), ("number", "int"), ("seats", "json"),
     ("free_seats", "json"), ("ready", "json"), ("waiting", "int"), ("variant", "text"),
     ("base_stake", "int"), ("minimum_points", "int"), ("last_position", "int")),
    ("room",),
    indexes=(("waiting", "room"),),
)  # fmt: skip
ROOM_EVENTS = frozenset({"room_configured", "player_seated", "player_left_room",
                         "player_readied", "room_table_started"})  # fmt: skip
TABLES = TableSpec(
    "rooms_tables",
    (("table_id", "text"), ("room", "text"), ("in_play", "int"), ("seated", "int")),
    ("table_id",),
)


class Rooms:
    name: ClassVar[str] = "rooms"
    code_version: ClassVar[int] = 4  # 2: forming tables from the rooms' own events; 3: 关桌;
    # 4: a room's last_position the latest whatever order partitions' events arrive in
    tables: ClassVar[tuple[TableSpec, ...]] = (ROOMS, TABLES, FORMING)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        kind, key = event.type, {"table_id": event.stream_id}
        if kind in ROOM_EVENTS and event.stream_id.startswith("room:"):
            self._forming(event, rows)
        elif kind == "table_opened":
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
        elif kind in ("series_ended", "table_dissolved", "table_closed"):
            self._set(rows, event, in_play=0, seated=0)

    def _set(self, rows: Rows, event: RecordedEvent, in_play: int, seated: int) -> None:
        """Set the table's counts; its room moves by the difference."""
        key = {"table_id": event.stream_id}
        table: dict[str, Any] | None = rows.get(TABLES.name, key)
        if table is None:
            return  # not a table's stream
        change = {"tables_in_play": in_play - int(table["in_play"]),
                  "players_seated": seated - int(table["seated"]), "tables_waiting": 0,
                  "players_waiting": 0}  # fmt: skip
        rows.put(TABLES.name, key, {"in_play": in_play, "seated": seated})
        rows.add(ROOMS.name, {"room": table["room"]}, change,
                 {"last_position": latest(rows.get(ROOMS.name, {"room": table["room"]}), event.position)})  # fmt: skip

    def _forming(self, event: RecordedEvent, rows: Rows) -> None:
        """The room's forming table after one of the room's events; the room's counts move by
        the difference."""
        room, p = event.stream_id.removeprefix("room:"), event.payload
        key = {"room": room}
        row: dict[str, Any] = rows.get(FORMING.name, key) or {
            "table_id": f"{room}.1", "number": 1, "seats": [None] * 4, "ready": [],
            "waiting": 0, "variant": "", "base_stake": 1, "minimum_points": 0,
        }  # fmt: skip
        before = (int(row["waiting"]), sum(s is not None for s in row["seats"]))
        seats, ready = list(row["seats"]), list(row["ready"])
        if event.type == "room_configured":
            row.update(variant=p["variant"], base_stake=p["base_stake"],
                       minimum_points=p["minimum_points"])  # fmt: skip
        elif event.type == "player_seated":
            seats[p["seat"]] = p["player"]
        elif event.type == "player_left_room":
            seats[p["seat"]] = None
            ready = [n for n in ready if n != p["seat"]]
        elif event.type == "player_readied":
            ready = sorted({*ready, p["seat"]})
        elif event.type == "room_table_started":
            number = int(row["number"]) + 1
            row.update(number=number, table_id=f"{room}.{number}")
            seats, ready = [None] * 4, []
        free = [n for n, s in enumerate(seats) if s is None]
        row.update(seats=seats, ready=ready, free_seats=free, waiting=1 if free else 0,
                   last_position=event.position)  # fmt: skip
        rows.put(FORMING.name, key, {k: v for k, v in row.items() if k != "room"})
        after = (int(row["waiting"]), len(seats) - len(free))
        rows.add(ROOMS.name, key, {"tables_in_play": 0, "players_seated": 0,
                                   "tables_waiting": after[0] - before[0],
                                   "players_waiting": after[1] - before[1]},
                 {"last_position": latest(rows.get(ROOMS.name, key), event.position)})  # fmt: skip

