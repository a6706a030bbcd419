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
platform opens itself outside rooms (``POST /v1/tables``) are in the points read model but not
here: their players are the platform's to choose, and no room gates them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import events.hand  # noqa: F401  (hand_settled upcasts on read)
from events.envelope import RecordedEvent
from events.registry import registry


@dataclass(frozen=True)
class PlayerAccount:
    player: str
    points: int = 0
    room: str | None = None  # the room the player holds a seat in
    claimed_at: datetime | None = None
    version: int = 0


def fold_account(player: str, events: Iterable[RecordedEvent]) -> PlayerAccount:
    points, room, claimed_at, version = 0, None, None, 0
    for event in events:
        version = event.version
        if event.type == "points_adjusted":
            points += int(event.payload["amount"])
        elif event.type == "room_seat_claimed":
            room, claimed_at = event.payload["room"], event.recorded_at
        elif event.type == "room_seat_released":
            points += int(event.payload.get("points", 0))
            room, claimed_at = None, None
    return PlayerAccount(player, points, room, claimed_at, version)


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
        elif event.type in ("series_ended", "table_dissolved"):
            over = True
            break  # a later series at the same table is no longer the room's seating
    return total, over
