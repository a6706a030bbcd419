"""``TableService``: any process can run a table's commands against a shared event store.

``handle`` checks the command at the edge (``bounds``), loads the table (a state it folded
before, or a checked snapshot, plus the tail), lets the rules engine ``decide``, and appends the
events with the version it read; when another process got there first it reloads and decides
again, a bounded number of times. Every command carries an id, so a queue that delivers it
twice is safe: the second delivery gets the first result back, however the two interleave,
and a process only ever remembers a state it knows the store holds (its own events, as
recorded).

A table is decided under its own rules version (``services.rules.variants.versions``): a new
table opens under the service's ``rules_version``, and a table whose version this process
lacks is not decided at all (``RulesVersionUnavailable``, raised, never a refusal: a process
that has the version must answer it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.envelope import Actor, RecordedEvent
from events.fairness import new_seed
from events.outcomes import CommandOutcome
from events.store.base import ConcurrencyError, EventStore, SeedError
from services.rules.table import CommandRejected, TableState, decide_and_evolve
from services.rules.table.commands import Command, OpenTable, StartHand
from services.rules.table.redact import Viewer
from services.rules.table.state import patch
from services.rules.table.views import player_view
from services.rules.variants.versions import current, rules
from services.tables import loader
from services.tables.bounds import refusal
from services.tables.codec import actor_of, command_record, to_new_event
from services.tables.folds import KeptFolds
from services.tables.stream import SeatStream, StreamPage, read_page
from services.tables.timers import table_timers


@dataclass(frozen=True)
class Accepted:
    """The command's events as recorded (the first result, for a retried command id).

    ``state`` is the table right after them when this call recorded them; None when they
    are an earlier delivery's (the table may have moved on since: load it)."""

    events: list[RecordedEvent]
    state: TableState | None = None
    receipted: bool = False
    """The ``receipt`` given to ``handle`` was recorded with the events, in their append."""


@dataclass(frozen=True)
class Rejected:
    """The command was refused (by the rules, or at the service's edge); nothing was stored.

    ``code`` says which, for programs: ``refused_by_rules``, ``invalid_input`` (the edge's
    checks) or ``stale_version`` (``if_version`` no longer the table's)."""

    reason: str
    code: str = "refused_by_rules"


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
        chosen_deals: bool = False,
        rules_version: str | None = None,
        kept: KeptFolds | None = None,
    ) -> None:
        """``snapshot_key`` (held outside the store, e.g. ``loader.snapshot_key_from_env()``)
        seals the snapshots this service writes and checks the ones it reads; without one, no
        snapshot is written or read and a table is folded from its events.

        ``chosen_deals`` lets a ``StartHand`` name its seed, wall, dealer or dice: for
        simulations and tests only. A live service deals from its own randomness, and refuses
        a command that tries to choose the deal.

        ``rules_version``: the version new tables open under (None: ``versions.current()`` at
        the time); it must be one this process knows."""
        if snapshot_key is not None and len(snapshot_key) < loader.MIN_KEY_BYTES:
            raise ValueError(f"snapshot_key must be at least {loader.MIN_KEY_BYTES} bytes")
        self.store = store
        self.snapshot_every = snapshot_every
        self.max_attempts = max_attempts
        self.snapshot_key = snapshot_key
        self.chosen_deals = chosen_deals
        if rules_version is not None:
            rules(rules_version)  # RulesVersionUnavailable now, not at the first table
        self.rules_version = rules_version
        # the tables this process folded last (``kept``: shared with the process's other readers)
        self._known = kept if kept is not None else KeptFolds(cached_tables)

    # -- commands -----------------------------------------------------------------------------
    def open_table(
        self,
        table_id: str,
        variant: str,
        players: tuple[str, str, str, str],
        base_stake: int = 1,
        options: dict[str, bool] | None = None,
        *,
        command_id: str,
        room: str = "",
    ) -> Accepted | Rejected:
        command = OpenTable(
            table_id=table_id,
            variant=variant,
            players=players,
            base_stake=base_stake,
            options=options or {},
            room=room,
        )
        return self.handle(table_id, command, actor=Actor.system(), command_id=command_id)

    def handle(
        self,
        table_id: str,
        command: Command,
        *,
        command_id: str,
        actor: Actor | None = None,
        if_version: int | None = None,
        receipt: CommandOutcome | None = None,
    ) -> Accepted | Rejected:
        """Decide and record one command; a refusal comes back as ``Rejected``.

        ``receipt``: the command's accepted outcome, recorded in the append's own transaction
        when this call records events (``Accepted.receipted``); the store raises
        ``OutcomeRecordedError`` if the id has an outcome already (nothing is appended).

        ``command_id`` names this command for good: a queue may deliver it twice, and every
        delivery gets the first one's result. ``if_version`` guards a command given on behalf
        of a seat (a turn timer's 托管 move): it is refused unless the table is still at that
        version, so a timer that fires after the seat has acted changes nothing.
        """
        problem = refusal(table_id, command, command_id) or self._chosen_deal(command)
        if problem is not None:
            return Rejected(problem, "invalid_input")
        actor = actor or actor_of(command)
        record = command_record(command)
        # No lookup of the id first (a round trip on every command): the append answers a
        # recorded id with its first result, and a refusal is checked against the id below.
        # A table this process folded last is decided on as it is, with no read first: the
        # append is made at its version, so if another process moved the table on meanwhile
        # it is refused (ConcurrencyError) and the table is read again. A refusal, though,
        # is only given on a table just read: a stale one might refuse what the table allows.
        trusted = True
        for _ in range(self.max_attempts):
            loaded, cached = self._load_for_decision(table_id, trusted)
            trusted = False
            table = self._under_its_rules(loaded.state)
            if if_version is not None and loaded.version != if_version:
                if cached:
                    continue
                return self._first_result(table_id, command_id, record) or Rejected(
                    f"table {table_id} moved on: at version {loaded.version}, not {if_version}",
                    "stale_version",
                )
            try:
                sealed = self._with_seed(table_id, table, command)
                events, state = decide_and_evolve(table, sealed)
            except CommandRejected as refused:
                if cached:
                    continue
                # An earlier delivery of this id may have been recorded since we looked:
                # then the table moved on past it, and its result is the answer.
                return self._first_result(table_id, command_id, record) or Rejected(refused.reason)
            drafts = [to_new_event(e, actor, state.rules_version) for e in events]
            if isinstance(sealed, StartHand):  # once a hand: seal nothing for a retried deal
                earlier = self._first_result(table_id, command_id, record)
                if earlier is not None:
                    return earlier
            try:
                self._seal(table_id, loaded.state, sealed)
            except SeedError as error:
                if sealed is command:  # a chosen seed, and another one is sealed already
                    return Rejected(f"start_hand: {error}", "invalid_input")
                continue  # another process sealed this hand's seed first: deal from that
            try:
                recorded = self.store.append(
                    table_id,
                    loaded.version,
                    drafts,
                    command_id,
                    command_record(sealed),
                    timers=table_timers(state),
                    outcome=receipt if drafts else None,
                )
            except ConcurrencyError:
                continue  # another process moved the table on: decide again
            if [e.event_id for e in recorded] != [d.event_id for d in drafts]:
                # The store answered with an earlier delivery's events: this decision was
                # never recorded, so nothing of it may be remembered.
                self._forget(table_id)
                return Accepted(recorded)
            after = loader.LoadedTable(state, recorded[-1].version, recorded[-1].hash)
            self._remember(table_id, after)
            self._maybe_snapshot(table_id, loaded.version, after)
            return Accepted(recorded, state, receipted=receipt is not None and bool(drafts))
        raise TableBusyError(
            f"table {table_id}: {self.max_attempts} attempts lost to concurrent writers"
        )

    def _first_result(
        self, table_id: str, command_id: str, record: dict[str, Any]
    ) -> Accepted | None:
        earlier = self.store.find_command(command_id, table_id, record)
        return None if earlier is None else Accepted(earlier)

    def _under_its_rules(self, table: TableState) -> TableState:
        """The table to decide on, under its rules version: an open table's own (this process
        must have it, else ``RulesVersionUnavailable`` goes up to the caller, which hands the
        command back), an unopened one this service's version for new tables."""
        if table.opened:
            rules(table.rules_version)
            return table
        return patch(table, rules_version=self.rules_version or current())

    def _chosen_deal(self, command: Command) -> str | None:
        if self.chosen_deals or not isinstance(command, StartHand):
            return None
        chosen = [name for name in ("seed", "wall", "dealer", "dice") if getattr(command, name)]
        if chosen:
            return (
                f"start_hand: this service deals from its own randomness; {', '.join(chosen)}"
                " may be chosen only where chosen deals are enabled (simulations, tests)"
            )
        return None

    def _with_seed(self, table_id: str, state: TableState, command: Command) -> Command:
        """A StartHand without a seed gets the hand's sealed seed (one sealed by an attempt
        that lost a race), else a new one from this server's randomness. Nothing is sealed
        here: only a command the rules accept seals its seed (``_seal``)."""
        if not isinstance(command, StartHand) or command.wall is not None or command.seed:
            return command
        try:
            seed = self.store.load_seed(table_id, state.series.hands_played + 1)
        except SeedError:
            seed = new_seed()
        return command.model_copy(update={"seed": seed})

    def _seal(self, table_id: str, state: TableState, command: Command) -> None:
        """Seal an accepted StartHand's seed before its deal is recorded; ``SeedError`` if a
        different seed was sealed for the hand first (the caller decides again)."""
        if isinstance(command, StartHand) and command.seed is not None:
            self.store.seal_seed(table_id, state.series.hands_played + 1, command.seed)

    def _maybe_snapshot(self, table_id: str, before: int, after: loader.LoadedTable) -> None:
        if self.snapshot_key is None or self.snapshot_every <= 0:
            return
        if after.version // self.snapshot_every > before // self.snapshot_every:
            loader.save_snapshot(self.store, table_id, after, self.snapshot_key)

    # -- reading ------------------------------------------------------------------------------
    def _load_for_decision(self, table_id: str, trusted: bool) -> tuple[loader.LoadedTable, bool]:
        """The table to decide on, and whether it is this process's last fold, unread."""
        known = self._known.get(table_id) if trusted else None
        if known is not None and known.version > 0:
            return known, True
        return self._load(table_id), False

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
        self._known.keep(table_id, loaded)

    def _forget(self, table_id: str) -> None:
        self._known.drop(table_id)

    def load(self, table_id: str) -> TableState:
        return self._load(table_id).state

    def view(self, table_id: str, seat: int | None, operator: bool = False) -> dict[str, Any]:
        """The table now, as one seat (None: a spectator; operator: everything) may see it."""
        return player_view(self.load(table_id), seat, operator)

    def stream_for(
        self,
        table_id: str,
        viewer: Viewer,
        from_version: int = 1,
        *,
        after: SeatStream | None = None,
    ) -> StreamPage:
        """The table's events from ``from_version`` as ``viewer`` may see each one.

        Pass the page's ``cursor`` back as ``after`` to get only the events since: the state
        the cursor carries is folded on, and only the new events are read."""
        start = after or SeatStream.starting(
            self.store, table_id, viewer, from_version, self.snapshot_key
        )
        return read_page(self.store, start)
