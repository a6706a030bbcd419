"""A player's stream (``player:<id>``) as the rooms need it: the room the player holds a seat
in, and their 积分 (the pure part: a fold, no I/O).

Why points are folded from the player's stream, not read from the points read model: a join
is decided on the player's stream at a version, and the seat claim is appended at that very
version; a grant or top-up racing the join lands on the same stream, so one of the two
appends is refused and the join is decided again on the new balance. A read model, even read
with ``min_position``, is a second source that can lag behind (or not run at all: an API
without a projector), and would make a refusal below the minimum depend on a projector's
progress. What the player's stream holds: the platform's adjustments (``points_adjusted``,
``services.accounts``) and, for each room table the player played, what that table paid and
charged their seat (``room_seat_released.points``, summed from the table's own
``hand_settled`` and ``penalty_adjudicated`` when the hold on it is released). Tables the
platform opens itself outside rooms (``POST /v1/tables``) are in the points read model, and not
here until the player's hold on such a table (``table_seat_claimed``, ``services.rooms.
platform``) is released once its series is over (``table_seat_released.points``).

A grant or a top-up adds points; a correction (support's) may take some back, never more than
the player has here (``adjustment_refusal``): decided on this fold, appended at its version.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import services.rules.events.hand  # noqa: F401  (hand_settled upcasts on read)
from events.envelope import RecordedEvent
from events.registry import registry


@dataclass(frozen=True)
class PlayerAccount:
    player: str
    points: int = 0
    room: str | None = None  # the room the player holds a seat in
    claimed_at: datetime | None = None
    version: int = 0
    table: str | None = None  # the platform's table (no room) the player holds a seat at
    settled: frozenset[str] = frozenset()  # the tables whose hold was released with points


def fold_account(player: str, events: Iterable[RecordedEvent]) -> PlayerAccount:
    points, room, claimed_at, version, table = 0, None, None, 0, None
    settled: set[str] = set()
    for event in events:
        version = event.version
        if event.type == "points_adjusted":
            points += int(event.payload["amount"])
        elif event.type == "room_seat_claimed":
            room, claimed_at = event.payload["room"], event.recorded_at
        elif event.type == "table_seat_claimed":
            table, claimed_at = event.payload["table_id"], event.recorded_at
        elif event.type in ("room_seat_released", "table_seat_released"):
            points += int(event.payload.get("points", 0))
            if event.payload.get("table_id") and event.payload.get("reason") == "series_ended":
                settled.add(event.payload["table_id"])
            room, table, claimed_at = None, None, None
    return PlayerAccount(player, points, room, claimed_at, version, table, frozenset(settled))


def adjustment_refusal(account: PlayerAccount, amount: int, kind: str) -> str | None:
    """Why the platform may not make this change of the player's 积分, or None: a grant and a
    top-up add (a negative one would be a charge no table made), and a correction takes back
    at most what the player has."""
    if kind in ("grant", "top_up") and amount < 0:
        return (f"a {kind} adds points: the amount must be above 0, not {amount} (a correction "
                f"may take points back)")  # fmt: skip
    if kind == "correction" and account.points + amount < 0:
        return (f"a correction may lower {account.player}'s {account.points} points to 0 at "
                f"most: {amount} would leave {account.points + amount}")  # fmt: skip
    return None


def seat_points(table: Iterable[RecordedEvent], seat: int) -> tuple[int, bool]:
    """What a table paid and charged ``seat`` (settlements and penalties, as the points read
    model counts them), and whether its series is over (ended or 网管解散)."""
    total, over = 0, False
    for event in table:
        if event.type == "hand_settled":
            p = registry.upcast(event.type, event.schema_version, event.payload)
            total += int(p["payments"][seat]) + int(p.get("hand_payments", [0] * 4)[seat])
        elif event.type == "penalty_adjudicated":
            total += int(event.payload["amounts"][seat])
        elif event.type in ("series_ended", "table_dissolved", "table_closed"):
            over = True
            break  # a later series at the same table is no longer the room's seating
    return total, over
