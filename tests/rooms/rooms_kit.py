"""What the room tests share: a room's settings, and players with points."""

from __future__ import annotations

import uuid

from events.store.base import EventStore
from services.accounts import adjust_points
from services.rooms.service import RoomService
from services.rules.events.rooms import RoomConfigured

PLAYERS = ("ann", "bo", "cy", "di")


def settings(room: str = "east", minimum: int = 0, **changes: object) -> RoomConfigured:
    fields: dict[str, object] = {"room": room, "variant": "harbin", "base_stake": 2,
                                 "minimum_points": minimum, "turn_seconds": 20,
                                 "claim_seconds": 8, **changes}  # fmt: skip
    return RoomConfigured.model_validate(fields)


def grant(store: EventStore, player: str, amount: int) -> None:
    adjust_points(store, player, amount, "grant", command_id=f"grant-{uuid.uuid4().hex}")


def seat_four(rooms: RoomService, room: str = "east", players: tuple[str, ...] = PLAYERS) -> None:
    for player in players:
        rooms.join(room, player)
