"""One store as the command path sees it, over the partitions (``services.tables.partitions``).

The table service, the workers' command path and the API's reads call it as they call one
store: a table's stream, its seeds, snapshots, timers, requests and outcomes go to the store
of the table's partition, a room's or a player's stream to the home store. A table is placed
(its partition chosen and recorded) by its first append, the opening. What it answers carries
merged positions (a partition's number above the store's position), so a command's outcome
names a position the read models can be asked to have reached.

What reads one log in order (``read_all``, waiting for events, claiming due timers, the
resender's unanswered requests, every table's refusals) is per partition: the timekeepers,
projectors, reactors and the API's follower take each partition's store from
``Partitions.readers()``. Here those read the home store, whose positions are its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from events.envelope import JSONDict, NewEvent, RecordedEvent
from events.outcomes import CommandOutcome, CommandRequest, RequestClaim
from events.store.base import Snapshot
from events.store.timers import DueTimer, Timer
from services.tables.command_ids import CLIENT
from services.tables.partitions import (
    HOME,
    Partitions,
    is_home_stream,
    merged_events,
    merged_position,
    split_position,
)
from services.tables.recent import Recent

KEY_SCOPED = f"{CLIENT}k:"
"""Ids of commands a platform's key sent: one id space across every table, so one is kept in
the home store too (a key reused for a table of another partition is still told apart)."""
COMMANDS_REMEMBERED = 50_000
T = TypeVar("T")


class RoutedStore:
    """The partitions' stores behind the one store's contract (``events.store.base``)."""

    def __init__(self, partitions: Partitions) -> None:
        self.partitions = partitions
        self.poll_interval = float(getattr(partitions.home, "poll_interval", 0.5))
        self._commands: Recent[int] = Recent(COMMANDS_REMEMBERED)  # command id -> partition

    # -- where a stream lives --------------------------------------------------------------
    def _partition(self, stream_id: str, *, opening: bool = False) -> int:
        if is_home_stream(stream_id):
            return HOME
        if opening:
            return self.partitions.place(stream_id)
        placed = self.partitions.placed(stream_id)
        return HOME if placed is None else placed  # no such table: the home store says so

    def _store(self, stream_id: str, *, opening: bool = False) -> tuple[int, Any]:
        number = self._partition(stream_id, opening=opening)
        return number, self.partitions.store(number)

    _events = staticmethod(merged_events)

    @staticmethod
    def _outcome(number: int, outcome: CommandOutcome | None) -> CommandOutcome | None:
        if outcome is None or number == HOME:
            return outcome
        return _positions(outcome, lambda position: merged_position(number, position))

    def _claim(self, number: int, claim: RequestClaim) -> RequestClaim:
        return claim.model_copy(update={"outcome": self._outcome(number, claim.outcome)})

    def _remember(self, command_id: str, number: int) -> None:
        self._commands.keep(command_id, number)

    def _look(self, command_id: str, read: Callable[[Any], T | None]) -> tuple[int, T] | None:
        """``read`` of the store keeping what ``command_id`` left (its request, its outcome):
        the one this process remembers, else each table store in turn (the home store's, when
        tables are spread, are a key's guards only); where it was found, remembered."""
        known = self._commands.get(command_id)
        for number in [known] if known is not None else list(self.partitions.tables):
            found = read(self.partitions.store(number))
            if found is not None:
                self._remember(command_id, number)
                return number, found
        return None

    def _command_partition(self, command_id: str) -> int | None:
        """Where a command's request is kept: remembered if this process kept it, else found."""
        found = self._look(command_id, lambda store: store.find_request(command_id))
        return None if found is None else found[0]

    # -- streams ---------------------------------------------------------------------------
    def append(self, stream_id: str, expected_version: int, events: Sequence[NewEvent],
               command_id: str | None = None, command: JSONDict | None = None,
               timers: Sequence[Timer] | None = None, outcome: CommandOutcome | None = None,
               ) -> list[RecordedEvent]:  # fmt: skip
        number, store = self._store(stream_id, opening=expected_version == 0)
        done = store.append(stream_id, expected_version, events, command_id=command_id,
                            command=command, timers=timers, outcome=outcome)  # fmt: skip
        return self._events(number, done)

    def find_command(self, command_id: str, stream_id: str, command: JSONDict | None
                     ) -> list[RecordedEvent] | None:  # fmt: skip
        number, store = self._store(stream_id)
        found = store.find_command(command_id, stream_id, command)
        return None if found is None else self._events(number, found)

    def read_stream(self, stream_id: str, from_version: int = 1) -> list[RecordedEvent]:
        number, store = self._store(stream_id)
        return self._events(number, store.read_stream(stream_id, from_version))

    def read_event(self, stream_id: str, version: int) -> RecordedEvent | None:
        number, store = self._store(stream_id)
        found = store.read_event(stream_id, version)
        return None if found is None else self._events(number, [found])[0]

    def stream_version(self, stream_id: str) -> int:
        return int(self._store(stream_id)[1].stream_version(stream_id))

    # -- the home store's log (per-partition readers take each store from the partitions) ---
    def read_all(self, from_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
        return list(self.partitions.home.read_all(from_position, limit))

    def wait_for_events(self, after_position: int, timeout: float) -> bool:
        return bool(self.partitions.home.wait_for_events(after_position, timeout))

    def last_position(self) -> int:
        return int(self.partitions.home.last_position())  # type: ignore[attr-defined]

    # -- kept beside a table's events ------------------------------------------------------
    def save_snapshot(self, stream_id: str, version: int, state: bytes | JSONDict,
                      schema: str) -> None:  # fmt: skip
        self._store(stream_id)[1].save_snapshot(stream_id, version, state, schema)

    def load_snapshot(self, stream_id: str, schema: str | None = None) -> Snapshot | None:
        found: Snapshot | None = self._store(stream_id)[1].load_snapshot(stream_id, schema)
        return found

    def delete_snapshots(self, stream_id: str | None = None) -> int:
        if stream_id is not None:
            return int(self._store(stream_id)[1].delete_snapshots(stream_id))
        return sum(int(s.delete_snapshots(None)) for s in self.partitions.readers().values())

    def seal_seed(self, stream_id: str, hand: int, seed: str) -> str:
        """Sealed where the table's events go: a first deal's seed may be sealed before the
        opening's append, so this places the table too."""
        return str(self._store(stream_id, opening=True)[1].seal_seed(stream_id, hand, seed))

    def load_seed(self, stream_id: str, hand: int) -> str:
        return str(self._store(stream_id)[1].load_seed(stream_id, hand))

    def reveal(self, stream_id: str, hand: int) -> str:
        return str(self._store(stream_id)[1].reveal(stream_id, hand))

    def drop_timer(self, stream_id: str, key: str) -> bool:
        return bool(self._store(stream_id)[1].drop_timer(stream_id, key))

    def timers_of(self, stream_id: str) -> list[DueTimer]:
        return list(self._store(stream_id)[1].timers_of(stream_id))

    # -- requests and outcomes -------------------------------------------------------------
    def claim_request(self, request: CommandRequest) -> RequestClaim:
        """Kept in the table's store, where its outcome will be: a request may be the opening,
        kept before the table has events, so this places the table (as its append would)."""
        number, store = self._store(request.table_id, opening=True)
        if self.partitions.spread and request.command_id.startswith(KEY_SCOPED):
            guard = self.partitions.home.claim_request(request)  # one id space for a key
            if not guard.first and guard.request.table_id != request.table_id:
                return guard  # another table's command: its fingerprint differs, so refused
        self._remember(request.command_id, number)
        return self._claim(number, store.claim_request(request))

    def find_request(self, command_id: str) -> RequestClaim | None:
        found = self._look(command_id, lambda store: store.find_request(command_id))
        return None if found is None else self._claim(*found)

    def claim_unanswered(self, older_than: float, lease: float, limit: int = 100
                         ) -> list[CommandRequest]:  # fmt: skip
        found: list[CommandRequest] = []
        for store in self.partitions.tables.values():  # the home's, when spread, are guards
            found += store.claim_unanswered(older_than, lease, limit)
        return sorted(found, key=lambda r: r.requested_at)[:limit]

    def record_outcome(self, outcome: CommandOutcome) -> CommandOutcome:
        """Kept with the store's own positions (an outcome built from events read here names
        merged ones), answered with merged ones."""
        number, store = self._store(outcome.table_id)
        own = _positions(outcome, lambda position: split_position(position)[1])
        recorded = self._outcome(number, store.record_outcome(own))
        self._remember(outcome.command_id, number)
        assert recorded is not None
        return recorded

    def load_outcome(self, command_id: str) -> CommandOutcome | None:
        """Where this process saw the command go, else looked for in every table store (a
        command with no request, a timer's or the service's own, too)."""
        found = self._look(command_id, lambda store: store.load_outcome(command_id))
        return None if found is None else self._outcome(*found)

    def wait_for_outcome(self, command_id: str, timeout: float) -> CommandOutcome | None:
        number = self._command_partition(command_id)
        number = HOME if number is None else number
        return self._outcome(
            number, self.partitions.store(number).wait_for_outcome(command_id, timeout)
        )

    def on_outcome(self, command_id: str, wake: Callable[[], None]) -> Callable[[], None]:
        number = self._command_partition(command_id)
        stores = (self.partitions.readers().values() if number is None
                  else [self.partitions.store(number)])  # fmt: skip
        stops = [s.on_outcome(command_id, wake) for s in stores]

        def stop_all() -> None:
            for stop in stops:
                stop()

        return stop_all

    def refusals_for(self, table_id: str, seat: int, after: int = 0, limit: int = 100
                     ) -> list[CommandOutcome]:  # fmt: skip
        number, store = self._store(table_id)
        refused: list[CommandOutcome] = store.refusals_for(table_id, seat, after, limit)
        return refused if number == HOME else [_positions(o, lambda p: merged_position(number, p))
                                               for o in refused]  # fmt: skip

    def refusals_after(self, after: int = 0, limit: int = 500) -> list[CommandOutcome]:
        return list(self.partitions.home.refusals_after(after, limit))

    def last_outcome_sequence(self) -> int:
        return int(self.partitions.home.last_outcome_sequence())

    def close(self) -> None:
        self.partitions.close()


def _positions(outcome: CommandOutcome, convert: Callable[[int], int]) -> CommandOutcome:
    """The outcome with ``convert`` applied to the positions it names."""
    named = {name: convert(value) for name in ("first_position", "last_position")
             if (value := getattr(outcome, name)) is not None}  # fmt: skip
    return outcome.model_copy(update=named)
