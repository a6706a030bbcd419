"""Live tables: who sits where, which hand of which series, whose turn and until when, and
which seats 托管 plays or are away.

Derived from the events one by one, without folding the table with the engine: a fold needs
each deal's wall, whose seed is sealed outside the stream until the hand is settled, and a
read model must not read the store's secrets (nor hold a whole table state per event, at the
cost of a rebuild). What the table waits on is the engine's ``deadlines`` restated on the
events (``tests/projections/test_live_tables.py`` holds the two to agree over played series):

- a seat's turn after it draws or claims (its 超时托管 window if it timed out before), none
  while the system moves for it (after a timeout, or when it is away: left, dropped, 主动托管);
- a claim window after a discard (or an added kong: 抢杠), on every seat but the discarder
  that 托管 does not play. Which of them hold a claim is in their concealed tiles and is secret
  (``redact``), and so is who answered (only a seat asked may): the row names them all, a
  superset of the engine's window that no answer changes, with the one clock they share;
- a wait began at the last event that changed what the table waits on (the engine's
  ``wait_since``: answers, drops, timeouts and the like keep the clock running), and runs out
  at that event's recorded time plus the table's seconds for it (``table_opened``'s timing
  over the variant's defaults under the table's rules version), the same clock the service's
  timers keep;
- a dropped seat's reconnect grace runs from its drop, or from the deal of a later hand.

A table is listed (``live``) from ``table_opened`` and from each new series' first deal until
its series ends (``series_ended``), 网管解散 (``table_dissolved``) or 关桌 (``table_closed``: for good).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from events.envelope import RecordedEvent
from readmodels.base import Rows, TableSpec
from services.rules.events.hand import RULES_BEFORE_VERSIONS
from services.rules.variants.timing import with_overrides
from services.rules.variants.versions import variant_in

LIVE = TableSpec(
    "live_tables",
    (
        ("table_id", "text"),
        ("variant", "text"),
        ("room", "text"),
        ("players", "json"),
        ("base_stake", "int"),
        ("timing", "json"),
        ("live", "int"),
        ("status", "text"),  # opened | playing | between_hands | ended | dissolved | closed
        ("series_number", "int"),
        ("hand_number", "int"),
        ("dealer", "int"),
        ("waiting", "text"),  # turn | autoplay_window | claim | "" (nothing: the system moves)
        ("waiting_seats", "json"),
        ("wait_seconds", "int"),
        ("wait_until", "text"),
        ("seats", "json"),  # per seat: autoplay, connected, left, back_by
        ("play", "json"),  # what the derivation remembers: phase, turn, discarder …
        ("last_position", "int"),
        ("updated_at", "text"),
    ),
    ("table_id",),
    indexes=(("live", "room"), ("live", "variant")),
)
# who sits at which table, for a search by player (a table's four are fixed when it opens)
LIVE_PLAYERS = TableSpec("live_tables_players", (("player", "text"), ("table_id", "text")),
                         ("player", "table_id"))  # fmt: skip
# Facts that leave what the table waits on as it was (``services.rules.table.presence``).
KEEPS_WAIT = frozenset({
    "claim_answered", "autoplay_requested", "autoplay_cancelled", "seat_disconnected",
    "seat_reconnected", "seat_left", "wait_timed_out", "seat_autoplayed", "penalty_adjudicated",
    "table_close_requested",
})  # fmt: skip
PRESENT: dict[str, Any] = {"autoplay": None, "connected": True, "left": False,
                           "dropped_at": None, "grace_over": False}  # fmt: skip


def opened_row(event: RecordedEvent) -> dict[str, Any]:
    p = event.payload
    # the waits of the variant as the table's rules version has them (a projector lacking that
    # version stops on the event with RulesVersionUnavailable, and is retried once it has it)
    variant = variant_in(p.get("rules_version") or RULES_BEFORE_VERSIONS, p["variant"])
    timing = with_overrides(variant.config.timing, p.get("timing") or {})
    return {
        "variant": p["variant"], "room": p.get("room", ""), "players": list(p["players"]),
        "base_stake": p.get("base_stake", 1), "timing": timing.as_dict(), "live": 1,
        "status": "opened", "series_number": 1, "hand_number": 0, "dealer": None,
        "seats": [dict(PRESENT) for _ in range(4)],
        "play": {"phase": "", "turn": None, "discarder": None, "owed": False,
                 "since": event.recorded_at.isoformat()},
    }  # fmt: skip


class LiveTables:
    name: ClassVar[str] = "live_tables"
    # 2: a claim window's seats no longer drop those who answered; 3: 关桌 (table_closed), and
    # each table's players apart, to find a player's tables
    code_version: ClassVar[int] = 3
    tables: ClassVar[tuple[TableSpec, ...]] = (LIVE, LIVE_PLAYERS)

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        key = {"table_id": event.stream_id}
        if event.type == "table_opened":
            row = opened_row(event)
            for player in row["players"]:
                rows.put(LIVE_PLAYERS.name, {"player": player, "table_id": event.stream_id}, {})
        else:
            found = rows.get(LIVE.name, key)
            if found is None:
                return  # not a table's stream, or one opened before this projection knew
            row = found
            self._change(row, event)
        if event.type not in KEEPS_WAIT:
            row["play"]["since"] = event.recorded_at.isoformat()
        waiting(row)
        row["last_position"], row["updated_at"] = event.position, event.recorded_at.isoformat()
        rows.put(LIVE.name, key, {k: v for k, v in row.items() if k != "table_id"})

    def _change(self, row: dict[str, Any], event: RecordedEvent) -> None:
        kind, p, play, seats = event.type, event.payload, row["play"], row["seats"]
        at = event.recorded_at.isoformat()
        if kind == "hand_started":
            row.update(live=1, status="playing", hand_number=p["hand_number"], dealer=p["dealer"])
            play.update(phase="", turn=p["dealer"], discarder=None, owed=False)
            for seat in seats:  # a seat still away gets a new grace, counted from the deal
                if not seat["connected"]:
                    seat.update(dropped_at=at, grace_over=False)
        elif kind == "tiles_dealt":
            play.update(phase="turn", turn=row["dealer"])
        elif kind == "tile_drawn" or (kind == "tile_claimed" and p["kind"] != "kong"):
            play.update(phase="turn", turn=p["seat"], owed=False)
        elif kind == "tile_discarded" or (kind == "kong_declared" and p["kind"] == "added_kong"):
            play.update(phase="claim", discarder=p["seat"], owed=False)  # or 抢杠's
        elif kind in ("tile_claimed", "kong_declared", "wildcard_set_aside"):
            self._kong(play, p)
        elif kind in ("hand_won", "hand_drawn", "hand_settled"):
            row["status"] = "between_hands"
            play["phase"] = ""
        elif kind in ("series_ended", "table_dissolved"):
            self._ended(row, event)
        elif kind == "table_closed":
            row.update(live=0, status="closed")
            play["phase"] = ""
        else:
            self._presence(seats, play, kind, p, at)

    def _kong(self, play: dict[str, Any], p: dict[str, Any]) -> None:
        """A kong's replacement, or 上大台's next draw, comes next: nothing is waited on until
        it is drawn. 塘沽's 风头杠 before the first draw (its replacement already in the hand)
        and a 三元 kong (no replacement) leave the turn where it was."""
        if p.get("kind") == "dragon_kong" or p.get("replacement") is not None:
            return
        play["phase"] = ""

    def _ended(self, row: dict[str, Any], event: RecordedEvent) -> None:
        row["play"]["phase"] = ""
        if event.type == "table_dissolved":
            row.update(live=0, status="dissolved")
            return
        row.update(live=0, status="ended", series_number=event.payload["number"] + 1)
        row["seats"] = [dict(PRESENT) if s["left"] else s for s in row["seats"]]

    def _presence(
        self, seats: list[dict[str, Any]], play: dict[str, Any], kind: str, p: dict[str, Any],
        at: str,
    ) -> None:  # fmt: skip
        if kind == "autoplay_requested":
            seats[p["seat"]]["autoplay"] = "requested"
        elif kind == "autoplay_cancelled":
            seats[p["seat"]]["autoplay"] = None
        elif kind == "seat_disconnected":
            seats[p["seat"]].update(connected=False, dropped_at=at, grace_over=False)
        elif kind == "seat_reconnected":
            seats[p["seat"]].update(connected=True, dropped_at=None, grace_over=False)
        elif kind == "seat_left":
            seats[p["seat"]]["left"] = True
        elif kind == "wait_timed_out":
            if p["wait"] in ("turn", "autoplay_window"):
                play["owed"] = True  # the system moves for the seat now
            if p["wait"] == "turn":
                seats[p["seats"][0]]["autoplay"] = "timeout"  # 超时托管
            if p["wait"] == "reconnect_grace":
                for seat in p["seats"]:
                    seats[seat]["grace_over"] = True
        elif kind == "seat_autoplayed":
            play["owed"] = False


def away(seat: dict[str, Any]) -> bool:
    """Played by the system at once: left, dropped, or 主动托管."""
    return bool(seat["left"] or not seat["connected"] or seat["autoplay"] == "requested")


def _until(since: str, seconds: int) -> str:
    return (datetime.fromisoformat(since) + timedelta(seconds=seconds)).isoformat()


def waiting(row: dict[str, Any]) -> None:
    """What the table waits on now, from whom and until when (the engine's ``deadlines``)."""
    play, seats, timing = row["play"], row["seats"], row["timing"]
    kind, who = "", []
    if row["status"] == "playing" and play["phase"] == "turn" and not play["owed"]:
        seat = seats[play["turn"]]
        if not away(seat):
            kind = "autoplay_window" if seat["autoplay"] == "timeout" else "turn"
            who = [play["turn"]]
    elif row["status"] == "playing" and play["phase"] == "claim":
        who = [s for s in range(4) if s != play["discarder"]
               and not away(seats[s]) and seats[s]["autoplay"] != "timeout"]  # fmt: skip
        kind = "claim" if who else ""
    seconds = int(timing[kind]) if kind else None
    row.update(waiting=kind, waiting_seats=who, wait_seconds=seconds,
               wait_until=_until(play["since"], seconds) if seconds else None)  # fmt: skip
    for seat in seats:
        grace = row["status"] == "playing" and not seat["connected"] and not seat["left"]
        grace = grace and not seat["grace_over"] and seat["dropped_at"] is not None
        seat["back_by"] = _until(seat["dropped_at"], int(timing["reconnect_grace"])) if grace else None
