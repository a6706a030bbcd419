"""``TableService``: any process can run a table's commands against a shared event store.

``handle`` loads the table (snapshot + tail), lets the rules engine ``decide``, and appends
the events with the version it read; when another process got there first it reloads and
decides again, a bounded number of times. A command id makes a retry safe: the second
delivery gets the first result back.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from events.envelope import Actor, RecordedEvent
from events.fairness import new_seed
from events.store.base import ConcurrencyError, EventStore, SeedError
from services.rules.table import CommandRejected, TableState, decide_and_evolve, evolve
from services.rules.table.commands import Command, OpenTable, StartHand
from services.rules.table.redact import Viewer, event_for
from services.rules.table.views import player_view
from services.tables import loader
from services.tables.codec import actor_of, command_record, decode, to_new_event


@dataclass(frozen=True)
class Accepted:
    """The command's events as recorded (the first result, for a retried command id)."""

    events: list[RecordedEvent]
    state: TableState | None = None


@dataclass(frozen=True)
class Rejected:
    """The rules refused the command; nothing was stored."""

    reason: str


class TableBusyError(RuntimeError):
    """Other writers kept moving the table on; the command was not applied."""


class TableService:
    def __init__(
        self,
        store: EventStore,
        snapshot_every: int = 100,
        max_attempts: int = 8,
        cached_tables: int = 256,
        snapshot_key: bytes | None = None,
    ) -> None:
        """``snapshot_key`` (held outside the store, e.g. ``loader.snapshot_key_from_env()``)
        seals the snapshots this service writes and checks the ones it reads; without one, no
        snapshot is written or read and a table is folded from its events."""
        if snapshot_key is not None and len(snapshot_key) < loader.MIN_KEY_BYTES:
            raise ValueError(f"snapshot_key must be at least {loader.MIN_KEY_BYTES} bytes")
        self.store = store
        self.snapshot_every = snapshot_every
        self.snapshot_key = snapshot_key
        self.max_attempts = max_attempts
        self.cached_tables = cached_tables
        self._known: OrderedDict[str, loader.LoadedTable] = OrderedDict()  # recently folded tables

    # -- commands -----------------------------------------------------------------------------
    def open_table(
        self,
        table_id: str,
        variant: str,
        players: tuple[str, str, str, str],
        base_stake: int = 1,
        options: dict[str, bool] | None = None,
        command_id: str | None = None,
    ) -> Accepted | Rejected:
        command = OpenTable(
            table_id=table_id,
            variant=variant,
            players=players,
            base_stake=base_stake,
            options=options or {},
        )
        return self.handle(table_id, command, actor=Actor.system(), command_id=command_id)

    def handle(
        self,
        table_id: str,
        command: Command,
        actor: Actor | None = None,
        command_id: str | None = None,
        if_version: int | None = None,
    ) -> Accepted | Rejected:
        """Decide and record one command; a rule's refusal comes back as ``Rejected``.

        ``if_version`` guards a command given on behalf of a seat (a turn timer's 托管 move):
        it is refused unless the table is still at that version, so a timer that fires after
        the seat has acted, or after anything else happened, changes nothing.
        """
        actor = actor or actor_of(command)
        if command_id is not None:
            earlier = self.store.find_command(command_id, table_id, command_record(command))
            if earlier is not None:
                return Accepted(earlier)
        for _ in range(self.max_attempts):
            loaded = self._load(table_id)
            if if_version is not None and loaded.version != if_version:
                return Rejected(
                    f"table {table_id} moved on: at version {loaded.version}, not {if_version}"
                )
            try:
                sealed = self._sealed(table_id, loaded.state, command)
                events, state = decide_and_evolve(loaded.state, sealed)
            except CommandRejected as refusal:
                return Rejected(refusal.reason)
            try:
                recorded = self.store.append(
                    table_id,
                    loaded.version,
                    [to_new_event(e, actor) for e in events],
                    command_id,
                    command_record(sealed),
                )
            except ConcurrencyError:
                continue
            after = loader.LoadedTable(state, recorded[-1].version, recorded[-1].hash)
            self._remember(table_id, after)
            self._maybe_snapshot(table_id, loaded.version, after)
            return Accepted(recorded, state)
        raise TableBusyError(
            f"table {table_id}: {self.max_attempts} attempts lost to concurrent writers"
        )

    def _sealed(self, table_id: str, state: TableState, command: Command) -> Command:
        """A StartHand gets its seed sealed apart before the deal (reused if an attempt died)."""
        if not isinstance(command, StartHand) or command.wall is not None:
            return command
        hand = state.series.hands_played + 1
        if command.seed is not None:
            try:
                self.store.seal_seed(table_id, hand, command.seed)
            except SeedError as error:
                raise CommandRejected(
                    f"hand {hand} already has a different sealed seed: {error}"
                ) from None
            return command
        try:
            seed = self.store.load_seed(table_id, hand)
        except SeedError:
            seed = new_seed()
            try:
                self.store.seal_seed(table_id, hand, seed)
            except SeedError:  # another process sealed one first: deal from that
                seed = self.store.load_seed(table_id, hand)
        return command.model_copy(update={"seed": seed})

    def _maybe_snapshot(self, table_id: str, before: int, after: loader.LoadedTable) -> None:
        if self.snapshot_key is None or self.snapshot_every <= 0:
            return
        if after.version // self.snapshot_every > before // self.snapshot_every:
            loader.save_snapshot(self.store, table_id, after, self.snapshot_key)

    # -- reading ------------------------------------------------------------------------------
    def _load(self, table_id: str) -> loader.LoadedTable:
        """The table from what this process last folded of it (one read for the events since),
        else from the store's snapshot and tail."""
        loaded = loader.load(
            self.store,
            table_id,
            known=self._known.get(table_id),
            snapshot_key=self.snapshot_key,
        )
        self._remember(table_id, loaded)
        return loaded

    def _remember(self, table_id: str, loaded: loader.LoadedTable) -> None:
        self._known[table_id] = loaded
        self._known.move_to_end(table_id)
        while len(self._known) > self.cached_tables:
            self._known.popitem(last=False)

    def load(self, table_id: str) -> TableState:
        return self._load(table_id).state

    def view(self, table_id: str, seat: int | None, operator: bool = False) -> dict[str, Any]:
        """The table now, as one seat (None: a spectator; operator: everything) may see it."""
        return player_view(self.load(table_id), seat, operator)

    def stream_for(
        self, table_id: str, viewer: Viewer, from_version: int = 1
    ) -> list[dict[str, Any]]:
        """The table's events from ``from_version`` as ``viewer`` may see each one."""
        state = TableState()
        out: list[dict[str, Any]] = []
        events = self.store.read_stream(table_id)
        revealed = loader.revealed_seeds(events)
        for recorded in events:
            event = loader.with_seed(self.store, table_id, decode(recorded), revealed)
            if recorded.version >= from_version:
                out.append(
                    {
                        "version": recorded.version,
                        "type": recorded.type,
                        "payload": event_for(viewer, event, state),
                    }
                )
            state = evolve(state, event)
        return out
