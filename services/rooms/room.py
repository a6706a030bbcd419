"""A room, folded from its stream, and what it decides on each request (the pure core).

``evolve_room(state, event)`` folds one room event; ``configure``, ``join``, ``leave`` and
``ready`` are the room's verdicts, returning the events to record or raising ``RoomRefused``
with a machine-readable code. Nothing here does I/O: the facts a decision needs from outside
the room (the player's points, whether they hold a seat elsewhere) are the service's to find
and to pass in (``services.rooms.account``).

A room has one forming table at a time, ``<room>.<n>``: a player who joins sits at its first
free seat; a seated player may leave until it starts; it starts when its four seated players
are ready (``001``: 只有同时准备的玩家达到4人游戏才能开始), and the room forms ``<room>.<n+1>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from events.base import DomainEvent
from services.rules.events.rooms import (
    PlayerLeftRoom,
    PlayerReadied,
    PlayerSeated,
    RoomConfigured,
    RoomTableStarted,
)
from services.rules.table.options import unknown_options
from services.rules.variants import UnknownVariantError, variant_of

SEATS = 4


class RoomRefused(Exception):
    """The room refuses the request: ``code`` for programs, the reason for people, and the
    facts the answer carries (the room's minimum, the table to return to)."""

    def __init__(self, code: str, reason: str, **facts: Any) -> None:
        super().__init__(reason)
        self.code, self.reason, self.facts = code, reason, facts


@dataclass(frozen=True)
class RoomState:
    room: str
    settings: RoomConfigured | None = None
    number: int = 1  # the forming table's number
    seats: tuple[str | None, ...] = (None,) * SEATS
    ready: frozenset[int] = frozenset()
    playing: dict[str, str] = field(default_factory=dict)  # player -> the table they started at
    started_seats: dict[str, int] = field(default_factory=dict)  # player -> their seat there
    started: tuple[str, ...] = ()  # the tables this room started, in order
    version: int = 0

    @property
    def table_id(self) -> str:
        """The forming table's id."""
        return f"{self.room}.{self.number}"

    def seat_of(self, player: str) -> int | None:
        return self.seats.index(player) if player in self.seats else None

    def view(self) -> dict[str, Any]:
        settings = None if self.settings is None else self.settings.model_dump(exclude={"type"})
        return {
            "room": self.room, "settings": settings, "table_id": self.table_id,
            "seats": list(self.seats), "ready": sorted(self.ready),
            "free_seats": [n for n, p in enumerate(self.seats) if p is None],
            "started": list(self.started), "version": self.version,
        }  # fmt: skip


def evolve_room(state: RoomState, event: DomainEvent) -> RoomState:
    if isinstance(event, RoomConfigured):
        return replace(state, settings=event)
    if isinstance(event, PlayerSeated):
        return replace(state, seats=_put(state.seats, event.seat, event.player))
    if isinstance(event, PlayerLeftRoom):
        return replace(state, seats=_put(state.seats, event.seat, None),
                       ready=state.ready - {event.seat})  # fmt: skip
    if isinstance(event, PlayerReadied):
        return replace(state, ready=state.ready | {event.seat})
    if isinstance(event, RoomTableStarted):
        playing = {**state.playing, **dict.fromkeys(event.players, event.table_id)}
        seats = {**state.started_seats, **{p: n for n, p in enumerate(event.players)}}
        return replace(state, number=state.number + 1, seats=(None,) * SEATS, ready=frozenset(),
                       playing=playing, started_seats=seats,
                       started=(*state.started, event.table_id))  # fmt: skip
    return state


def _put(seats: tuple[str | None, ...], seat: int, player: str | None) -> tuple[str | None, ...]:
    return tuple(player if n == seat else p for n, p in enumerate(seats))


def configure(state: RoomState, settings: RoomConfigured) -> list[DomainEvent]:
    """Set the room up or change it; a variant or option the engine does not know is refused
    now, not when four players are waiting for the table to open."""
    try:
        unknown = unknown_options(settings.variant, settings.options)
        variant_of(settings.variant)
    except UnknownVariantError as error:
        raise RoomRefused("invalid_input", str(error)) from None
    if unknown:
        raise RoomRefused("invalid_input",
                          f"unknown options for {settings.variant}: {', '.join(unknown)}")  # fmt: skip
    if settings.room != state.room:
        raise RoomRefused("invalid_input", f"settings of room {settings.room!r} sent to {state.room!r}")
    if state.settings == settings:
        return []  # the same settings again change nothing
    return [settings]


def _configured(state: RoomState) -> RoomConfigured:
    if state.settings is None:
        raise RoomRefused("room_not_found", f"no room {state.room!r} has been configured")
    return state.settings


def join(state: RoomState, player: str, points: int) -> list[DomainEvent]:
    """Seat ``player`` (who holds no seat elsewhere: the service checked) at the first free
    seat, if their 积分 reach the room's minimum."""
    settings = _configured(state)
    if state.seat_of(player) is not None:
        return []  # already seated here: joining again is the same join
    if points < settings.minimum_points:
        minimum = settings.minimum_points
        raise RoomRefused("below_minimum",
                          f"这个房间最低需要{minimum}积分，您的积分不符合要求 (you have {points})",
                          minimum_points=minimum, points=points)  # fmt: skip
    free = [n for n, p in enumerate(state.seats) if p is None]
    if not free:
        raise RoomRefused("table_full", f"table {state.table_id} of room {state.room} is full; "
                          "it starts when its four players are ready", table_id=state.table_id)  # fmt: skip
    return [PlayerSeated(player=player, table_id=state.table_id, seat=free[0])]


def _seated(state: RoomState, player: str) -> int:
    _configured(state)
    seat = state.seat_of(player)
    if seat is None:
        if player in state.playing:
            raise RoomRefused("table_started",
                              f"{player} plays at table {state.playing[player]}, which has started",
                              table_id=state.playing[player])  # fmt: skip
        raise RoomRefused("not_seated", f"{player} is not seated in room {state.room}")
    return seat


def leave(state: RoomState, player: str) -> list[DomainEvent]:
    """Stand up before the table starts (after it, leaving is the table's LeaveTable)."""
    seat = _seated(state, player)
    return [PlayerLeftRoom(player=player, table_id=state.table_id, seat=seat)]


def ready(state: RoomState, player: str) -> list[DomainEvent]:
    """准备; the fourth seated player ready starts the table."""
    seat = _seated(state, player)
    if seat in state.ready:
        return []
    events: list[DomainEvent] = [PlayerReadied(player=player, table_id=state.table_id, seat=seat)]
    if len(state.ready | {seat}) == SEATS and None not in state.seats:
        events.append(started(state))
    return events


def started(state: RoomState) -> RoomTableStarted:
    settings = _configured(state)
    timing = {name: seconds for name, seconds in
              (("turn", settings.turn_seconds), ("claim", settings.claim_seconds)) if seconds}  # fmt: skip
    players = tuple(p for p in state.seats if p is not None)
    return RoomTableStarted(
        table_id=state.table_id, players=(players[0], players[1], players[2], players[3]),
        variant=settings.variant, base_stake=settings.base_stake, timing=timing,
        options=dict(settings.options),
    )  # fmt: skip
