"""Bots at a table: play hands through ``decide``/``evolve`` and check the invariants as they go.

After every event: tile conservation. At the end of each hand (and after every event with
``check_every_event``): replaying the hand's events, round-tripped through their JSON form as a
store would keep them, gives the live state. A failure raises ``InvariantBroken`` carrying what
is needed to reproduce it: the hand's seed and the commands given so far.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from events.base import DomainEvent
from events.registry import registry
from services.bots.away import AwaySeats
from services.bots.random_bot import NoLegalCommand, random_command
from services.bots.winning_bot import winning_command
from services.rules.table import (
    CommandRejected,
    TableState,
    decide,
    decide_and_evolve,
    evolve,
    replay,
)
from services.rules.table.commands import Command, OpenTable, StartHand
from services.rules.table.conservation import conservation_errors
from services.rules.table.deadlines import deadlines
from services.rules.table.legal import seats_to_act

Bot = Callable[[TableState, int, random.Random], Command]
BOTS: dict[str, Bot] = {"winning": winning_command, "random": random_command}
LINEUPS = ("winning", "random", "mixed")  # mixed: winning bots in seats 0 and 2, random in 1 and 3


def lineup(name: str) -> list[Bot]:
    """The four seats' bots for a line-up name (``KeyError`` for an unknown one)."""
    if name == "mixed":
        return [winning_command, random_command, winning_command, random_command]
    return [BOTS[name]] * 4


MAX_COMMANDS_PER_HAND = 3000  # far above any real hand; past it the hand is stuck in a loop
PLAYERS = ("east", "south", "west", "north")


class InvariantBroken(Exception):
    """An invariant failed: what, and the hand's commands so far (to reproduce it)."""

    def __init__(
        self, what: str, commands: Sequence[Command], events: Sequence[DomainEvent]
    ) -> None:
        super().__init__(what)
        self.what = what
        self.commands = list(commands)
        self.events = list(events)


@dataclass
class HandRecord:
    """One hand played: its seed, the commands the bots gave and the events they caused."""

    seed: str
    commands: list[Command] = field(default_factory=list)
    events: list[DomainEvent] = field(default_factory=list)


def hand_seed(seed: str, variant: str, index: int) -> str:
    """The seed of hand ``index`` of a run: the same run seed always deals the same hands."""
    return "sim-" + hashlib.sha256(f"{seed}|{variant}|{index}".encode()).hexdigest()[:24]


def stored(event: DomainEvent) -> DomainEvent:
    """The event as a store would give it back: through its JSON form and the registry."""
    return registry.model(event.type).model_validate(event.model_dump(mode="json"))


def open_table(variant: str, table_id: str = "simulated") -> tuple[TableState, list[DomainEvent]]:
    """A fresh table of ``variant`` for four bots (``CommandRejected`` for an unknown variant)."""
    table = TableState()
    events = decide(table, OpenTable(table_id=table_id, variant=variant, players=PLAYERS))
    for event in events:
        table = evolve(table, event)
    return table, events


class HandPlayer:
    """Plays one hand at ``table`` with a bot per seat, checking as ``check_every_event`` asks."""

    def __init__(
        self,
        table: TableState,
        bots: Sequence[Bot],
        rng: random.Random,
        check_every_event: bool = False,
        away: AwaySeats | None = None,
    ) -> None:
        self.away = away
        self.table = table
        self.start = table
        self.bots = bots
        self.rng = rng
        self.check_every_event = check_every_event
        self.shadow = table
        self.record = HandRecord(seed="")

    def fail(self, what: str) -> InvariantBroken:
        return InvariantBroken(what, self.record.commands, self.record.events)

    def give(self, command: Command) -> None:
        self.record.commands.append(command)
        try:
            _, self.table = decide_and_evolve(self.table, command, self._check)
        except CommandRejected as error:
            raise self.fail(f"a legal command was refused: {command!r}: {error}") from None

    def _check(self, event: DomainEvent, table: TableState) -> None:
        """After every event: each tile in one place; with the full check, replay equals live."""
        self.record.events.append(event)
        problem = conservation_errors(table)
        if problem is not None:
            raise self.fail(
                f"tile conservation after event {len(self.record.events)} ({event.type}): {problem}"
            )
        if self.check_every_event:
            self.shadow = evolve(self.shadow, stored(event))
            if self.shadow != table:
                raise self.fail(
                    f"replay differs from the live state after event {len(self.record.events)} ({event.type})"
                )

    def play(self, seed: str) -> HandRecord:
        self.record = HandRecord(seed=seed)
        self.give(StartHand(seed=seed))
        while not self.table.hand_over:
            if len(self.record.commands) > MAX_COMMANDS_PER_HAND:
                raise self.fail(f"the hand did not end after {MAX_COMMANDS_PER_HAND} commands")
            if self.away is not None:
                if not deadlines(self.table):
                    raise self.fail("a hand in play waits on nothing a timekeeper could end")
                command = self.away.next_command(self.table)
                if command is not None:
                    self.give(command)
                    continue
            waiting = seats_to_act(self.table)
            if not waiting:
                step = self.table.hand.step if self.table.hand else "none"
                raise self.fail(f"the hand is stuck: no seat to act, step {step!r}, not settled")
            seat = waiting[0]
            try:
                command = self.bots[seat](self.table, seat, self.rng)
            except NoLegalCommand as error:
                raise self.fail(str(error)) from None
            self.give(command)
        replayed = replay((stored(e) for e in self.record.events), self.start)
        if replayed != self.table:
            raise self.fail("replaying the hand's events does not give the live state")
        return self.record


def play_hand(
    table: TableState,
    seed: str,
    bots: Sequence[Bot],
    check_every_event: bool = False,
    away_rate: float = 0.0,
) -> tuple[TableState, HandRecord]:
    """Play one hand from a settled (or fresh) table; the bots' randomness comes from ``seed``,
    and so do the seats that come and go (``away_rate``: see ``services.bots.away``)."""
    away = AwaySeats(random.Random(f"{seed}/away"), away_rate) if away_rate > 0 else None
    player = HandPlayer(table, bots, random.Random(f"{seed}/bots"), check_every_event, away)
    record = player.play(seed)
    return player.table, record
