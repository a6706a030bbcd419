"""Penalties and disputes (逃跑处罚, for support): every adjudicated penalty, as it was decided.

One row per ``penalty_adjudicated``: the rule that decided it (the variant's ``escape`` hook
names it, e.g. 上海's 主动逃跑 66 × 底注), the seat and its player, the cause (left, dropped,
timeouts), the amount to every seat and who sat there, the table, its variant and room, the
hand it fell in, and the event's global position, stream version and recorded time, so that
support can answer "why was I charged" and find the very event. ``penalty_parties`` holds a
line per seat the penalty moved (the penalized seat and those compensated), to find every
penalty that touched a player.
"""

from __future__ import annotations

from typing import ClassVar

from events.envelope import RecordedEvent
from readmodels.base import Rows, TableSpec
from readmodels.seating import (
    hand_number,
    hand_started,
    hands_spec,
    seats_of,
    seats_spec,
    table_opened,
)

SEATS = seats_spec("penalties_seats")
HANDS = hands_spec("penalties_hands")
PENALTIES = TableSpec(
    "penalties",
    (
        ("position", "int"),
        ("table_id", "text"),
        ("version", "int"),  # the event's version in the table's stream
        ("variant", "text"),
        ("room", "text"),
        ("hand_number", "int"),
        ("seat", "int"),
        ("player", "text"),
        ("cause", "text"),  # left | dropped | timeouts
        ("rule", "text"),
        ("charged", "int"),  # what the penalized seat paid (negative)
        ("amounts", "json"),  # per seat
        ("players", "json"),  # who sat at each seat
        ("recorded_at", "text"),
    ),
    ("position",),
    indexes=(("player", "position"), ("table_id", "position")),
)
PARTIES = TableSpec(
    "penalty_parties",
    (
        ("position", "int"),
        ("seat", "int"),
        ("player", "text"),
        ("amount", "int"),
        ("penalized", "int"),
    ),  # fmt: skip
    ("position", "seat"),
    indexes=(("player", "position"),),
)


class Penalties:
    name: ClassVar[str] = "penalties"
    code_version: ClassVar[int] = 1
    tables: ClassVar[tuple[TableSpec, ...]] = (SEATS, HANDS, PENALTIES, PARTIES)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        if event.type == "table_opened":
            table_opened(rows, SEATS, HANDS, event)
        elif event.type == "hand_started":
            hand_started(rows, HANDS, event)
        elif event.type == "penalty_adjudicated":
            self._adjudicated(rows, event)

    def _adjudicated(self, rows: Rows, event: RecordedEvent) -> None:
        p = event.payload
        seats = seats_of(rows, SEATS.name, event.stream_id)
        amounts = [int(a) for a in p["amounts"]]
        penalized = int(p["seat"])
        rows.insert(PENALTIES.name, {
            "position": event.position, "table_id": event.stream_id, "version": event.version,
            "variant": seats[0]["variant"], "room": seats[0]["room"],
            "hand_number": hand_number(rows, HANDS, event.stream_id), "seat": penalized,
            "player": seats[penalized]["player"], "cause": p["cause"], "rule": p["rule"],
            "charged": amounts[penalized], "amounts": amounts,
            "players": [s["player"] for s in seats], "recorded_at": event.recorded_at.isoformat(),
        })  # fmt: skip
        for seat in seats:
            number = seat["seat"]
            if amounts[number] or number == penalized:
                rows.insert(PARTIES.name, {
                    "position": event.position, "seat": number, "player": seat["player"],
                    "amount": amounts[number], "penalized": int(number == penalized),
                })  # fmt: skip
