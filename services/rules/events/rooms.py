"""The facts of rooms and seating (decision 18): a room's settings, who sits at its forming
table, who is ready, and the tables it started.

A room lives on its own stream (``room:<id>``); a player's hold on a seat lives on the
player's stream (``player:<id>``, beside their point adjustments), so that a player holds at
most one room at a time: each is appended with the version its writer read, and of two racing
writers one loses and decides again.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from events.base import DomainEvent
from events.limits import MAX_BASE_STAKE, MAX_POINTS, MAX_WAIT_SECONDS
from events.registry import registry
from services.rules.events.types import Seat

PlayerId = str
ROOM_ID_PATTERN = r"^[A-Za-z0-9_-]{1,48}$"
PLAYER_ID_PATTERN = r"^[^\s/\x00-\x1f\x7f-\x9f]{1,32}$"


@registry.register
class RoomConfigured(DomainEvent):
    """The platform set up a room, or changed it (a change applies to the next table it starts).

    ``base_stake`` is the 底注; ``minimum_points`` the 积分 a player needs to sit down."""

    type: Literal["room_configured"] = "room_configured"
    room: str = Field(pattern=ROOM_ID_PATTERN)
    variant: str = Field(min_length=1, max_length=32)
    base_stake: int = Field(ge=1, le=MAX_BASE_STAKE)
    minimum_points: int = Field(ge=-MAX_POINTS, le=MAX_POINTS)
    turn_seconds: int | None = Field(default=None, ge=1, le=MAX_WAIT_SECONDS)
    claim_seconds: int | None = Field(default=None, ge=1, le=MAX_WAIT_SECONDS)
    options: dict[str, bool] = Field(default_factory=dict)


@registry.register
class PlayerSeated(DomainEvent):
    """A player sat down at the room's forming table, at the first free seat."""

    type: Literal["player_seated"] = "player_seated"
    player: PlayerId = Field(pattern=PLAYER_ID_PATTERN)
    table_id: str = Field(min_length=1, max_length=64)
    seat: Seat


@registry.register
class PlayerLeftRoom(DomainEvent):
    """A seated player stood up before the table started; the seat is free again."""

    type: Literal["player_left_room"] = "player_left_room"
    player: PlayerId = Field(pattern=PLAYER_ID_PATTERN)
    table_id: str = Field(min_length=1, max_length=64)
    seat: Seat


@registry.register
class PlayerReadied(DomainEvent):
    """A seated player said they are ready (准备)."""

    type: Literal["player_readied"] = "player_readied"
    player: PlayerId = Field(pattern=PLAYER_ID_PATTERN)
    table_id: str = Field(min_length=1, max_length=64)
    seat: Seat


@registry.register
class RoomTableStarted(DomainEvent):
    """Four seated players were ready: the forming table starts with them, with the room's
    settings as they were then; the room forms its next table."""

    type: Literal["room_table_started"] = "room_table_started"
    table_id: str = Field(min_length=1, max_length=64)
    players: tuple[PlayerId, PlayerId, PlayerId, PlayerId]
    variant: str = Field(min_length=1, max_length=32)
    base_stake: int = Field(ge=1, le=MAX_BASE_STAKE)
    timing: dict[str, int] = Field(default_factory=dict)
    options: dict[str, bool] = Field(default_factory=dict)


@registry.register
class RoomSeatClaimed(DomainEvent):
    """On the player's stream: the player holds a seat in this room (or is about to), and may
    hold none elsewhere until it is released."""

    type: Literal["room_seat_claimed"] = "room_seat_claimed"
    player: PlayerId = Field(pattern=PLAYER_ID_PATTERN)
    room: str = Field(pattern=ROOM_ID_PATTERN)


ReleaseReason = Literal["left", "series_ended", "not_seated", "refused"]


@registry.register
class RoomSeatReleased(DomainEvent):
    """On the player's stream: the player's hold on the room is over.

    ``table_id`` and ``points`` name the table the player played there, and the 积分 it paid
    and charged the player's seat (its settlements and penalties); none if the player never
    played (they left, the seat was refused, or a claim was never followed by a seat)."""

    type: Literal["room_seat_released"] = "room_seat_released"
    player: PlayerId = Field(pattern=PLAYER_ID_PATTERN)
    room: str = Field(pattern=ROOM_ID_PATTERN)
    reason: ReleaseReason
    table_id: str | None = Field(default=None, max_length=64)
    points: int = 0


TableReleaseReason = Literal["series_ended", "not_seated"]


@registry.register
class TableSeatClaimed(DomainEvent):
    """On the player's stream: the platform seats the player at a table of its own (``POST
    /v1/tables``, in no room); the player may hold no seat elsewhere until it is released."""

    type: Literal["table_seat_claimed"] = "table_seat_claimed"
    player: PlayerId = Field(min_length=1, max_length=128)
    table_id: str = Field(min_length=1, max_length=128)


@registry.register
class TableSeatReleased(DomainEvent):
    """On the player's stream: the player's hold on the platform's table is over: its series
    ended (``points``: what it paid and charged the player's seat), or the table never opened
    with the player (``not_seated``: its opening was refused, or never came)."""

    type: Literal["table_seat_released"] = "table_seat_released"
    player: PlayerId = Field(min_length=1, max_length=128)
    table_id: str = Field(min_length=1, max_length=128)
    reason: TableReleaseReason
    points: int = 0
