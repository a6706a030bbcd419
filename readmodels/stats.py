"""Player statistics per player and variant: hands, wins, 自摸, 点炮, drawn hands, 番 and points
of the wins, penalties, timeouts, 托管 moves and escapes.

Every counter comes from the event that states it, never from a clock:

- a hand counts for each seat when it is settled (``hand_settled``); a hand abandoned by 网管解散
  is not settled, so it is not counted;
- each win of ``hand_won`` is a win of its seat (一炮多响: every winner counts one), 自摸 when
  self-drawn; its 番 is the win's ``fan`` and its points what that win paid the winner
  (``payments[seat]``: 塘沽's 局分 are the hand's, not the win's). Averages are totals over wins,
  so the rows keep totals and the queries divide;
- 点炮 (dealt-in) is the discarder of a won discard, once per hand however many won on it
  (a robbed kong's konger is its discarder, so 抢杠 counts too);
- ``hand_drawn`` (荒庄) counts a drawn hand for every seat;
- a penalty (``penalty_adjudicated``) counts for the seat it names, with what it charged that
  seat (a negative amount: the compensation the others receive is not a penalty of theirs);
- a timeout is a ``wait_timed_out`` of a turn or a claim window naming the seat: the player let
  its own time run out. A 托管 window running out (``autoplay_window``) is the system's move,
  counted with the 托管 moves, and a reconnect grace running out is the drop's, not a move's;
- a 托管 move is a ``seat_autoplayed`` for the seat, whatever the reason (timeout, requested,
  dropped, left);
- an escape is a ``seat_left`` mid-hand (leaving between hands is no escape).
"""

from __future__ import annotations

from typing import Any, ClassVar

from events.envelope import RecordedEvent
from readmodels.base import Rows, TableSpec, latest
from readmodels.points import seated, seats_of

SEATS = TableSpec(
    "stats_seats",
    (("table_id", "text"), ("seat", "int"), ("player", "text"), ("variant", "text")),
    ("table_id", "seat"),
)
COUNTERS = (
    "hands",
    "wins",
    "self_drawn_wins",
    "dealt_in",
    "drawn",
    "fan_total",
    "best_fan",
    "points_total",
    "best_points",
    "penalties",
    "penalty_total",
    "timeouts",
    "autoplay_moves",
    "escapes",
)
STATS = TableSpec(
    "player_stats",
    (
        ("player", "text"),
        ("variant", "text"),
        *((c, "int") for c in COUNTERS),
        ("last_position", "int"),
    ),
    ("player", "variant"),
    indexes=(("variant", "hands"),),
)
TIMED_OUT_BY_THE_PLAYER = frozenset({"turn", "claim"})


class PlayerStats:
    name: ClassVar[str] = "player_stats"
    code_version: ClassVar[int] = 2  # 2: last_position the latest across partitions
    tables: ClassVar[tuple[TableSpec, ...]] = (SEATS, STATS)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        kind, p = event.type, event.payload
        if kind == "table_opened":
            seated(rows, SEATS.name, event)
        elif kind == "hand_settled":
            for seat in range(4):
                self._count(rows, event, seat, hands=1)
        elif kind == "hand_drawn":
            for seat in range(4):
                self._count(rows, event, seat, drawn=1)
        elif kind == "hand_won":
            self._won(rows, event, p["wins"])
        elif kind == "penalty_adjudicated":
            seat = p["seat"]
            self._count(rows, event, seat, penalties=1, penalty_total=int(p["amounts"][seat]))
        elif kind == "wait_timed_out" and p["wait"] in TIMED_OUT_BY_THE_PLAYER:
            for seat in p["seats"]:
                self._count(rows, event, seat, timeouts=1)
        elif kind == "seat_autoplayed":
            self._count(rows, event, p["seat"], autoplay_moves=1)
        elif kind == "seat_left" and p["mid_hand"]:
            self._count(rows, event, p["seat"], escapes=1)

    def _won(self, rows: Rows, event: RecordedEvent, wins: list[dict[str, Any]]) -> None:
        discarders = set()
        for win in wins:
            seat, fan = win["seat"], int(win["fan"])
            points = int(win["payments"][seat])
            self._count(rows, event, seat, wins=1, self_drawn_wins=int(bool(win["self_drawn"])),
                        fan_total=fan, points_total=points)  # fmt: skip
            self._best(rows, event, seat, fan, points)
            if not win["self_drawn"] and win.get("discarder") is not None:
                discarders.add(int(win["discarder"]))
        for seat in sorted(discarders):  # 一炮多响: one discard, one 点炮
            self._count(rows, event, seat, dealt_in=1)

    def _key(self, rows: Rows, event: RecordedEvent, seat: int) -> dict[str, Any]:
        row = seats_of(rows, SEATS.name, event.stream_id)[seat]
        return {"player": row["player"], "variant": row["variant"]}

    def _count(self, rows: Rows, event: RecordedEvent, seat: int, **amounts: int) -> None:
        key = self._key(rows, event, seat)
        last = latest(rows.get(STATS.name, key), event.position)  # whatever order stores come in
        rows.add(STATS.name, key, amounts, {"last_position": last})

    def _best(self, rows: Rows, event: RecordedEvent, seat: int, fan: int, points: int) -> None:
        """The best 番 and points of one win (the row exists: the win was just counted)."""
        key = self._key(rows, event, seat)
        row = rows.get(STATS.name, key) or {}
        first = row.get("wins") == 1  # the first win sets them, even below 0 points
        best_fan = fan if first else max(fan, int(row["best_fan"]))
        best_points = points if first else max(points, int(row["best_points"]))
        rows.put(STATS.name, key, {"best_fan": best_fan, "best_points": best_points})
