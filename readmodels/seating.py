"""Who sits where, and which hand a table is in: what each projection of players remembers.

A projection keeps these in tables of its own (never another projection's), named by its own
prefix, so each one rebuilds alone. The room comes from ``table_opened``; a table opened
before rooms were recorded is in the room ``""``.
"""

from __future__ import annotations

from typing import Any

import services.rules.events.accounts  # noqa: F401  (registers the shapes that upcast reads)
import services.rules.events.hand  # noqa: F401
import services.rules.events.presence  # noqa: F401
from events.envelope import RecordedEvent
from events.registry import registry
from readmodels.base import Rows, TableSpec
from readmodels.points import seats_of

__all__ = [
    "hand_number", "hand_started", "hands_spec", "payload_of", "room_of", "seats_of",
    "seats_spec", "table_opened",
]  # fmt: skip


def seats_spec(name: str) -> TableSpec:
    return TableSpec(
        name,
        (("table_id", "text"), ("seat", "int"), ("player", "text"), ("variant", "text"),
         ("room", "text")),
        ("table_id", "seat"),
    )  # fmt: skip


def hands_spec(name: str) -> TableSpec:
    return TableSpec(name, (("table_id", "text"), ("hand_number", "int")), ("table_id",))


def room_of(payload: dict[str, Any]) -> str:
    room = payload.get("room")
    return room if isinstance(room, str) else ""


def table_opened(
    rows: Rows, seats: TableSpec, hands: TableSpec | None, event: RecordedEvent
) -> None:
    payload = event.payload
    for seat, player in enumerate(payload["players"]):
        where = {"player": player, "variant": payload["variant"], "room": room_of(payload)}
        rows.put(seats.name, {"table_id": event.stream_id, "seat": seat}, where)
    if hands is not None:
        rows.put(hands.name, {"table_id": event.stream_id}, {"hand_number": 0})


def hand_started(rows: Rows, hands: TableSpec, event: RecordedEvent) -> None:
    rows.put(hands.name, {"table_id": event.stream_id},
             {"hand_number": event.payload["hand_number"]})  # fmt: skip


def payload_of(event: RecordedEvent) -> dict[str, Any]:
    """The payload in the current shape (an older ``hand_settled`` held ``kong_payments``)."""
    return registry.upcast(event.type, event.schema_version, event.payload)


def hand_number(rows: Rows, hands: TableSpec, table_id: str) -> int:
    found = rows.get(hands.name, {"table_id": table_id})
    return int(found["hand_number"]) if found else 0
