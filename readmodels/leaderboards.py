"""排行榜 (leaderboards) per variant and room, and per variant across every room, for each day,
each week and all time, by points.

A player's points on a board are the 积分 they won or lost at tables of that variant and room
within the period (the board across rooms: at tables of that variant in any room, or none):
each ``hand_settled``'s payments (the wins, and 塘沽's 局分) and each
``penalty_adjudicated``'s amounts (逃跑处罚, paid and received) — the same numbers as the
``points`` projection, cut by variant, room and period. A settled hand puts every seated player
on the boards of its periods (with 0 if nothing moved); a penalty only the seats it moved.

Periods come from the event's own ``recorded_at`` (data, never the projector's clock), in UTC:
the day ``2026-12-02``, the ISO week ``2026-W49`` (Monday to Sunday; the ISO year, so
2027-01-01 is in ``2026-W53``), and ``all``.

Ranking (ties broken stably, the same on SQLite and PostgreSQL):
  1. points, highest first;
  2. then whoever reached that total first: ``reached_position``, the global position of the
     event that last changed the player's total on that board (the global order is the commit
     order, so this is "earlier"; ``reached_at`` is that event's time, for display);
  3. then the player id, by Unicode code point (two players can only tie here when one
     event, at one table, brought both to the same total).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import ClassVar

from events.envelope import RecordedEvent
from readmodels.base import Rows, TableSpec
from readmodels.seating import payload_of, seats_of, seats_spec, table_opened

PERIODS = ("day", "week", "all")
SEATS = seats_spec("boards_seats")
BOARDS = TableSpec(
    "boards",
    (
        ("variant", "text"),
        ("room", "text"),
        ("period", "text"),  # day | week | all
        ("period_key", "text"),  # 2026-12-02 | 2026-W49 | all
        ("player", "text"),
        ("points", "int"),
        ("hands", "int"),  # settled hands played on this board
        ("reached_position", "int"),
        ("reached_at", "text"),
    ),
    ("variant", "room", "period", "period_key", "player"),
    indexes=(("variant", "room", "period", "period_key", "points"),),
)
# The boards across rooms: the same columns (``room`` always ""), apart from the rooms' boards,
# so that no room's name can stand for "every room"
BOARDS_ALL = TableSpec("boards_all_rooms", BOARDS.columns, BOARDS.key,
                       indexes=(("variant", "period", "period_key", "points"),))  # fmt: skip


def period_keys(moment: datetime) -> dict[str, str]:
    """The day, ISO week and all-time keys of a recorded time (UTC)."""
    if moment.tzinfo is None:
        raise ValueError("a recorded time must carry its zone")
    moment = moment.astimezone(UTC)
    year, week, _ = moment.isocalendar()
    return {"day": moment.date().isoformat(), "week": f"{year}-W{week:02d}", "all": "all"}


class Leaderboards:
    name: ClassVar[str] = "leaderboards"
    code_version: ClassVar[int] = 3  # 2: the boards across rooms; 3: reached at the latest
    # position whatever order partitions arrive in
    tables: ClassVar[tuple[TableSpec, ...]] = (SEATS, BOARDS, BOARDS_ALL)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        if event.type == "table_opened":
            table_opened(rows, SEATS, None, event)
        elif event.type == "hand_settled":
            p = payload_of(event)
            amounts = [a + b for a, b in zip(p["payments"], p.get("hand_payments", [0] * 4),
                                               strict=True)]  # fmt: skip
            self._score(rows, event, amounts, hand=True)
        elif event.type == "penalty_adjudicated":
            self._score(rows, event, list(event.payload["amounts"]), hand=False)

    def _score(self, rows: Rows, event: RecordedEvent, amounts: list[int], hand: bool) -> None:
        keys = period_keys(event.recorded_at)
        for seat in seats_of(rows, SEATS.name, event.stream_id):
            amount = int(amounts[seat["seat"]])
            if not hand and amount == 0:
                continue  # a penalty puts on the boards only the seats it moved
            for board, room in ((BOARDS, seat["room"]), (BOARDS_ALL, "")):
                for period in PERIODS:
                    key = {"variant": seat["variant"], "room": room, "period": period,
                           "period_key": keys[period], "player": seat["player"]}  # fmt: skip
                    self._add(rows, board, key, event, amount, hand)

    def _add(self, rows: Rows, board: TableSpec, key: dict[str, object], event: RecordedEvent,
             amount: int, hand: bool) -> None:  # fmt: skip
        old = rows.get(board.name, key)
        values: dict[str, object] = {
            "points": (int(old["points"]) if old else 0) + amount,
            "hands": (int(old["hands"]) if old else 0) + int(hand),
        }
        # the total changed: reached now, or at the later of the two when lines from another
        # partition arrived first (merged positions: any order of partitions, one answer)
        if old is None or (amount != 0 and event.position > int(old["reached_position"])):
            values["reached_position"] = event.position
            values["reached_at"] = event.recorded_at.isoformat()
        rows.put(board.name, key, values)
