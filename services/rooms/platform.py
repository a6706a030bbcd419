"""Seating at the platform's own tables (``POST /v1/tables``, in no room): decision 18's one
table per player, as at a room's tables.

Before such a table is opened, each of its players is claimed on their own stream
(``table_seat_claimed``), appended at the version the decision read, as a room's join claims
(``service``). The player's stream is where every seat a player is given is decided (a room's
join, a platform table's open), so it is the one place that can refuse a second seat, and it
is race-safe: of two opens seating one player, one claim is appended and the other's append
is refused by the store; that open decides again, finds the player held, and is refused. A
read model (the live tables) lags behind the store, and a table's own stream knows only its
four players, so neither could refuse a player seated elsewhere a moment ago.

The players are claimed in sorted order: two opens sharing two players meet at the first
one, and one of them goes through whole (in seat order, one could hold ann and the other bo,
and each refuse the other). An open refused here releases what it claimed; an open the table
refuses (``release_unopened``) too. The hold is over when the table's series is (``holds``),
and is released lazily, by the next seat the player is given.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.envelope import check_id
from services.rooms.room import RoomRefused
from services.rooms.service import ATTEMPTS, RoomBusy, RoomService
from services.rules.events.rooms import TableSeatClaimed, TableSeatReleased


class PlatformSeating:
    def __init__(self, rooms: RoomService) -> None:
        self.rooms, self.store = rooms, rooms.store

    def seat(self, table_id: str, players: Sequence[str]) -> list[str]:
        """Hold ``players`` for ``table_id`` before it is opened, or refuse (``seated_elsewhere``,
        naming the first player held elsewhere and that table) holding none; the players this
        call claimed."""
        check_id("table_id", table_id)
        for player in players:
            check_id("player", player)
        if self.store.stream_version(table_id) > 0:
            return []  # open already: the table answers (refused, or its first outcome again)
        claimed: list[str] = []
        try:
            for player in sorted(set(players)):
                if self._claim(table_id, player):
                    claimed.append(player)
        except (RoomRefused, RoomBusy):
            self.release_unopened(table_id, claimed)
            raise
        return claimed

    def release_unopened(self, table_id: str, players: Sequence[str]) -> None:
        """Release the holds on ``table_id`` of those of ``players`` it did not open with (its
        opening was refused, or lost to another's)."""
        events = self.store.read_stream(table_id)
        seated = list(events[0].payload["players"]) if events else []
        for player in players:
            if player not in seated:
                released = TableSeatReleased(player=player, table_id=table_id, reason="not_seated")
                self.rooms.release_table(released)

    def _claim(self, table_id: str, player: str) -> bool:
        for _ in range(ATTEMPTS):
            account = self.rooms.account(player)
            if account.table == table_id or table_id in account.settled:
                return False  # held for it already (an earlier send of this open), or played
            account = self.rooms.free_holds(account)
            claim = TableSeatClaimed(player=player, table_id=table_id)
            if self.rooms._append_player(account, [claim]):
                return True
        raise RoomBusy(f"player {player}: the account stayed busy; send it again")
