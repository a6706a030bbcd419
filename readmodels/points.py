"""积分 (points): what the tables paid and charged each player, with a line per hand.

A player's points move with each settled hand (the wins' payments and 塘沽's 局分, already in
points: the scorer multiplies by the table's 底注) and each adjudicated penalty (逃跑处罚,
which need not sum to zero). Decision 18 adds the platform's own adjustments (a grant, a
top-up, a correction: ``points_adjusted`` on the player's own stream, ``services.accounts``):
lines of the same history, at no table. Players are named by the ids the platform seated
them with (``table_opened``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import services.rules.events.accounts  # noqa: F401  (registers the shapes that upcast reads)
import services.rules.events.hand  # noqa: F401
import services.rules.events.presence  # noqa: F401
from events.envelope import RecordedEvent
from events.registry import registry
from readmodels.base import Rows, TableSpec, latest

SEATS = TableSpec(
    "points_seats",
    (("table_id", "text"), ("seat", "int"), ("player", "text"), ("variant", "text")),
    ("table_id", "seat"),
)
HANDS = TableSpec("points_tables", (("table_id", "text"), ("hand_number", "int")), ("table_id",))
BALANCES = TableSpec(
    "points_balances",
    (("player", "text"), ("points", "int"), ("lines", "int"), ("last_position", "int")),
    ("player",),
)
HISTORY = TableSpec(
    "points_history",
    (
        ("position", "int"),
        ("seat", "int"),
        ("player", "text"),
        ("table_id", "text"),
        ("variant", "text"),
        ("hand_number", "int"),
        ("cause", "text"),  # settlement | penalty | grant | top_up | correction
        ("amount", "int"),
        ("recorded_at", "text"),
    ),
    ("position", "seat"),
    indexes=(("player", "position"),),
)


def seated(rows: Rows, table: str, event: RecordedEvent) -> None:
    """Remember who sits where at a newly opened table (shared by the projections)."""
    payload = event.payload
    for seat, player in enumerate(payload["players"]):
        rows.put(table, {"table_id": event.stream_id, "seat": seat},
                 {"player": player, "variant": payload["variant"]})  # fmt: skip


def seats_of(rows: Rows, table: str, table_id: str) -> list[dict[str, Any]]:
    found = rows.select(table, {"table_id": table_id}, order=("seat",))
    if len(found) != 4:
        raise ValueError(f"table {table_id}: {len(found)} seats known, not 4 (no table_opened?)")
    return found


class Points:
    name: ClassVar[str] = "points"
    code_version: ClassVar[int] = 4  # 2: a v1 hand_settled's 局分 (upcast); 3: adjustments;
    # 4: a line's balance computed when read, so lines from several partitions add up the same
    # in any order (a running balance kept per line depended on which partition came first)
    tables: ClassVar[tuple[TableSpec, ...]] = (SEATS, HANDS, BALANCES, HISTORY)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        kind = event.type
        if kind == "table_opened":
            seated(rows, SEATS.name, event)
            rows.put(HANDS.name, {"table_id": event.stream_id}, {"hand_number": 0})
        elif kind == "hand_started":
            number = event.payload["hand_number"]
            rows.put(HANDS.name, {"table_id": event.stream_id}, {"hand_number": number})
        elif kind == "hand_settled":
            # an older hand_settled held 塘沽's 局分 as kong_payments: read it in today's shape
            p = registry.upcast(event.type, event.schema_version, event.payload)
            amounts = [
                a + b for a, b in zip(p["payments"], p.get("hand_payments", [0] * 4), strict=True)
            ]
            self._pay(rows, event, "settlement", amounts)
        elif kind == "penalty_adjudicated":
            self._pay(rows, event, "penalty", event.payload["amounts"])
        elif kind == "points_adjusted":
            self._adjust(rows, event)

    def _adjust(self, rows: Rows, event: RecordedEvent) -> None:
        """The platform's grant, top-up or correction: a line of its own, at no table."""
        player, amount = event.payload["player"], int(event.payload["amount"])
        _add_line(rows, player, amount, event.position)
        rows.insert(HISTORY.name, {
            "position": event.position, "seat": -1, "player": player, "table_id": None,
            "variant": None, "hand_number": 0, "cause": event.payload["kind"], "amount": amount,
            "recorded_at": event.recorded_at.isoformat(),
        })  # fmt: skip

    def _pay(self, rows: Rows, event: RecordedEvent, cause: str, amounts: list[int]) -> None:
        hand = rows.get(HANDS.name, {"table_id": event.stream_id})
        for seat in seats_of(rows, SEATS.name, event.stream_id):
            amount = int(amounts[seat["seat"]])
            if cause == "penalty" and amount == 0:
                continue  # a penalty's line only for the seats it moved
            player = seat["player"]
            _add_line(rows, player, amount, event.position)
            rows.insert(HISTORY.name, {
                "position": event.position, "seat": seat["seat"], "player": player, "table_id": event.stream_id,
                "variant": seat["variant"], "hand_number": hand["hand_number"] if hand else 0,
                "cause": cause, "amount": amount, "recorded_at": event.recorded_at.isoformat(),
            })  # fmt: skip


def _add_line(rows: Rows, player: str, amount: int, position: int) -> None:
    """One more line on the player's balance; ``last_position`` the latest line's, whatever
    order partitions' lines arrive in (a merged position: the larger is the later one's)."""
    last = latest(rows.get(BALANCES.name, {"player": player}), position)
    rows.add(BALANCES.name, {"player": player}, {"points": amount, "lines": 1},
             {"last_position": last})  # fmt: skip
