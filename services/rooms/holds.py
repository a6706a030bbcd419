"""When a player's hold on a platform table (``POST /v1/tables``, in no room) is over, and the
refusal of a seat while a hold is not (decision 18: 您已在别的游戏房间游戏，请返回原来房间).

A hold on a room is ``service.RoomService._free_hold``'s; this is the same rule for a table
the platform opened itself: the hold lasts while the table's series plays (托管 playing a seat
whose player left counts), and is over once it ended or was dissolved, when the table opened
without the player (that open lost a race, or was refused), or when it never opened and the
claim is older than the grace (a process stopped between the claim and the open).
"""

from __future__ import annotations

from datetime import datetime

from events.store.base import EventStore
from services.rooms.account import PlayerAccount, seat_points
from services.rooms.room import RoomRefused
from services.rules.events.rooms import TableSeatReleased

ELSEWHERE = "您已在别的游戏房间游戏，请返回原来房间"


def elsewhere(player: str, table_id: str | None, room: str | None = None) -> RoomRefused:
    """The refusal of a seat to a player seated at ``table_id``: the table to return to."""
    facts = {"player": player, "table_id": table_id} | ({"room": room} if room else {})
    return RoomRefused("seated_elsewhere", f"{ELSEWHERE} ({player} is at table {table_id})",
                       **facts)  # fmt: skip


def table_hold_release(store: EventStore, account: PlayerAccount, now: datetime,
                       grace: float) -> TableSeatReleased:  # fmt: skip
    """The release of the player's hold on their platform table, if it is over; else the
    refusal ``seated_elsewhere`` naming it."""
    player, table_id = account.player, account.table
    assert table_id is not None
    events = store.read_stream(table_id)
    if not events:
        age = (now - account.claimed_at).total_seconds() if account.claimed_at else 1e9
        if age < grace:  # the open that claimed this player may still be on its way
            raise elsewhere(player, table_id)
        return TableSeatReleased(player=player, table_id=table_id, reason="not_seated")
    players = list(events[0].payload["players"])
    if player not in players:
        return TableSeatReleased(player=player, table_id=table_id, reason="not_seated")
    points, over = seat_points(events, players.index(player))
    if not over:
        raise elsewhere(player, table_id)
    return TableSeatReleased(player=player, table_id=table_id, reason="series_ended",
                             points=points)  # fmt: skip
