"""``RoomService``: rooms and seating on the event store (the shell around ``room`` and
``account``).

Two streams hold what a join decides: the room's (``room:<id>``: who sits at its forming
table) and the player's (``player:<id>``: which room the player holds a seat in). Each is
appended at the version the decision read, so of two racing writers one is refused and
decides again; no write spans both, so the order of the two appends is what keeps a player at
one table:

1. the player's hold is claimed first (``room_seat_claimed``, at the player stream's version):
   two joins of one player to two rooms cannot both claim;
2. then the seat is taken on the room's stream (``player_seated``, at the room's version): two
   players racing for the last seat cannot both take it; the loser's claim is released.

A hold on another room is the answer ``seated_elsewhere`` (with the table to return to) while
the player sits at that room's forming table, or its table still plays (托管 playing a seat
whose player left counts: the series is not over). It is released when the player leaves
before the start, or lazily, by the next join, once that table's series is over (its points
then go to the player's stream) or when it was a claim that never became a seat (a process
that stopped between the two appends) and is older than ``claim_grace`` seconds. A hold on a
table the platform opened itself (``platform``) refuses a join the same way (``holds``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

import services.rules.events.accounts  # noqa: F401  (registers the shapes folded here)
import services.rules.events.hand  # noqa: F401
import services.rules.events.presence  # noqa: F401
from events.base import DomainEvent
from events.envelope import Actor, RecordedEvent, check_id, utc_now
from events.registry import registry
from events.store.base import ConcurrencyError, EventStore
from services.accounts import account_stream
from services.rooms import room as rules
from services.rooms.account import PlayerAccount, fold_account, seat_points
from services.rooms.holds import elsewhere, table_hold_release
from services.rooms.room import RoomRefused, RoomState, evolve_room
from services.rooms.starter import TableStarter
from services.rules import RULES_VERSION
from services.rules.events.rooms import (
    ReleaseReason,
    RoomConfigured,
    RoomSeatClaimed,
    RoomSeatReleased,
    RoomTableStarted,
    TableSeatReleased,
)

ATTEMPTS = 16


class RoomBusy(RuntimeError):
    """Other writers kept moving the room or the player on; nothing of this request stayed."""


def room_stream(room: str) -> str:
    return f"room:{room}"


class RoomService:
    def __init__(
        self, store: EventStore, starter: TableStarter, *, claim_grace: float = 30.0,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:  # fmt: skip
        self.store, self.starter = store, starter
        self.claim_grace, self.clock = claim_grace, clock

    # -- reading ------------------------------------------------------------------------------
    def load(self, room: str) -> RoomState:
        check_id("room", room)
        state = RoomState(room)
        for event in self.store.read_stream(room_stream(room)):
            state = evolve_room(state, registry.decode(event))
            state = replace(state, version=event.version)
        return state

    def account(self, player: str) -> PlayerAccount:
        check_id("player", player)
        return fold_account(player, self.store.read_stream(account_stream(player)))

    # -- the platform's -----------------------------------------------------------------------
    def configure(self, settings: RoomConfigured) -> RoomState:
        for _ in range(ATTEMPTS):
            state = self.load(settings.room)
            events = rules.configure(state, settings)
            if self._append_room(state, events):
                return self.load(settings.room)
        raise RoomBusy(f"room {settings.room}: too many concurrent changes; send it again")

    # -- a player's ---------------------------------------------------------------------------
    def join(self, room: str, player: str) -> RoomState:
        """Seat the player at the forming table's first free seat (or refuse, with why)."""
        check_id("player", player)
        claimed = False
        for _ in range(ATTEMPTS):
            state = self.load(room)
            if state.seat_of(player) is not None:
                return state  # seated already (perhaps by an earlier attempt of this join)
            self.ensure_started(state)
            account = self.account(player)
            if not claimed:
                account = self.free_holds(account)
            try:
                events = rules.join(state, player, account.points)
            except RoomRefused:
                if claimed:
                    self._release(player, room, "refused")
                raise
            if not claimed:
                if not self._append_player(account, [RoomSeatClaimed(player=player, room=room)]):
                    continue  # the player's stream moved (a top-up, another join): again
                claimed = True
            if self._append_room(state, events):
                return self.load(room)
        if claimed:
            self._release(player, room, "refused")
        raise RoomBusy(f"room {room}: too many concurrent joins; send it again")

    def leave(self, room: str, player: str) -> RoomState:
        """Stand up before the table starts; the player's hold on the room is released."""
        for _ in range(ATTEMPTS):
            state = self.load(room)
            if self._append_room(state, rules.leave(state, player)):
                self._release(player, room, "left")
                return self.load(room)
        raise RoomBusy(f"room {room}: too many concurrent changes; send it again")

    def ready(self, room: str, player: str) -> RoomState:
        """准备; the fourth ready player starts the table (opened and dealt before answering)."""
        for _ in range(ATTEMPTS):
            state = self.load(room)
            if state.seat_of(player) is None and state.started and \
                    state.playing.get(player) == state.started[-1]:
                self.ensure_started(state)  # ready again after a start that did not finish
                return state
            if self._append_room(state, rules.ready(state, player)):
                after = self.load(room)
                self.ensure_started(after)
                return after
        raise RoomBusy(f"room {room}: too many concurrent changes; send it again")

    def ensure_started(self, state: RoomState) -> None:
        """Open and deal the room's last started table if that never happened (a process that
        stopped between the room's event and the table's): the commands' ids make it once."""
        if state.started and self.store.stream_version(state.started[-1]) == 0:
            started = self._started_event(state.room, state.started[-1])
            if started is not None:
                self.starter.start(state.room, started)

    # -- holds --------------------------------------------------------------------------------
    def free_holds(self, account: PlayerAccount) -> PlayerAccount:
        """The player's account with every hold that is over released (a room's, a platform
        table's: ``holds``); refused ``seated_elsewhere`` while one is not."""
        if account.room is not None:
            account = self._free_hold(account)
        if account.table is not None:
            released = table_hold_release(self.store, account, self.clock(), self.claim_grace)
            self.release_table(released)
            account = self.account(account.player)
        return account

    def release_table(self, released: TableSeatReleased) -> None:
        for _ in range(ATTEMPTS):
            account = self.account(released.player)
            if account.table != released.table_id:
                return  # released already (by a retry of this request, or another)
            if self._append_player(account, [released]):
                return
        raise RoomBusy(f"player {released.player}: the account stayed busy; send it again")

    def _free_hold(self, account: PlayerAccount) -> PlayerAccount:
        """Release the player's hold on another room if it is over, else refuse with the table
        they must return to."""
        assert account.room is not None
        held = self.load(account.room)
        player = account.player
        if held.seat_of(player) is not None:
            raise elsewhere(player, held.table_id, held.room)
        table_id = held.playing.get(player)
        if table_id is not None and table_id not in self._settled_tables(player):
            points, over = self._table_points(table_id, player)
            if not over:
                raise elsewhere(player, table_id, held.room)
            self._release(player, held.room, "series_ended", table_id, points)
        else:
            age = (self.clock() - account.claimed_at).total_seconds() if account.claimed_at else 1e9
            if age < self.claim_grace:  # another join of this player is between its appends
                raise elsewhere(player, held.table_id, held.room)
            self._release(player, held.room, "not_seated")
        return self.account(player)

    def _settled_tables(self, player: str) -> set[str]:
        return {e.payload["table_id"] for e in self.store.read_stream(account_stream(player))
                if e.type == "room_seat_released" and e.payload.get("table_id")}  # fmt: skip

    def _table_points(self, table_id: str, player: str) -> tuple[int, bool]:
        events = self.store.read_stream(table_id)
        if not events:
            return 0, False  # started, not yet opened: in play
        seat = list(events[0].payload["players"]).index(player)
        return seat_points(events, seat)

    def _started_event(self, room: str, table_id: str) -> RoomTableStarted | None:
        for event in self.store.read_stream(room_stream(room)):
            if event.type == "room_table_started" and event.payload["table_id"] == table_id:
                decoded = registry.decode(event)
                assert isinstance(decoded, RoomTableStarted)
                return decoded
        return None

    def _release(self, player: str, room: str, reason: ReleaseReason,
                 table_id: str | None = None, points: int = 0) -> None:  # fmt: skip
        released = RoomSeatReleased(player=player, room=room, reason=reason, table_id=table_id,
                                    points=points)  # fmt: skip
        for _ in range(ATTEMPTS):
            account = self.account(player)
            if account.room != room:
                return  # released already (by a retry of this request, or another)
            if self._append_player(account, [released]):
                return
        raise RoomBusy(f"player {player}: the account stayed busy; send it again")

    # -- appends ------------------------------------------------------------------------------
    def _append_room(self, state: RoomState, events: list[DomainEvent]) -> bool:
        return self._append(room_stream(state.room), state.version, events)

    def _append_player(self, account: PlayerAccount, events: list[DomainEvent]) -> bool:
        return self._append(account_stream(account.player), account.version, events)

    def _append(self, stream: str, version: int, events: list[DomainEvent]) -> bool:
        """True once ``events`` are recorded after ``version`` (or there are none); False if
        the stream moved on first (the caller decides again)."""
        if not events:
            return True
        drafts = [registry.new_event(e, actor=Actor.system(), rules_version=RULES_VERSION)
                  for e in events]  # fmt: skip
        try:
            recorded: list[RecordedEvent] = self.store.append(stream, version, drafts)
        except ConcurrencyError:
            return False
        return bool(recorded)
