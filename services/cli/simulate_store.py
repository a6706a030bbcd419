"""``paiju simulate --store URL``: the same bots, their hands written through the table service.

Every command goes through ``TableService.handle`` (load, decide, append with the version read),
so a run is a load on the store as the service makes it. After each hand the table is loaded
back from the store and must equal the live state; at the end the stream's hash chain, seed
commitments and decisions are verified. Hands per second and events appended per second are
reported beside the usual endings.
"""

from __future__ import annotations

import random
import uuid
from itertools import count

from events.store.base import EventStore
from services.bots.away import AwaySeats
from services.bots.runner import HandRecord, InvariantBroken, lineup
from services.cli.progress import Progress
from services.cli.simulate_runs import VariantRun, play_hands
from services.rules.table import TableState
from services.rules.table.commands import Command, StartHand
from services.rules.table.conservation import conservation_errors
from services.rules.table.legal import seats_to_act
from services.tables import Accepted, TableService
from services.tables.codec import decode
from services.tables.verify import verify_table


def run_variant_on_store(
    variant: str,
    games: int,
    seed: str,
    bot: str,
    store: EventStore,
    store_name: str,
    away: float = 0.0,
    progress: Progress | None = None,
) -> VariantRun:
    """Play ``games`` hands of ``variant`` at one table of ``store``, each command through the
    table service; each hand loaded back and compared, the table verified at the end."""
    progress = progress or Progress(games)
    service = TableService(store, chosen_deals=True)  # hands are dealt from the run's seeds
    table_id = f"sim-{variant}-{uuid.uuid4().hex[:8]}"
    bots = lineup(bot)
    rng = random.Random(f"{seed}|{variant}")
    numbers = count()
    result = VariantRun(variant)

    def play(hand: str) -> HandRecord:
        if result.table_id is None:  # opened with the first hand: a refusal is a failure too
            _accept(service, table_id, None, _open_command(table_id, variant), next(numbers))
            result.table_id = table_id
            progress.table_opened(table_id)
        record = HandRecord(seed=hand)
        state = _accept(service, table_id, record, StartHand(seed=hand), next(numbers))
        seats_away = AwaySeats(random.Random(f"{hand}/away"), away)
        while not state.hand_over:
            command = seats_away.next_command(state)
            if command is None:
                seat = seats_to_act(state)[0]
                command = bots[seat](state, seat, rng)
            state = _accept(service, table_id, record, command, next(numbers))
        if service.load(table_id) != state:
            raise InvariantBroken(
                "the table loaded from the store differs from the live state",
                record.commands,
                record.events,
            )
        return record

    def verified() -> None:
        report = verify_table(store.read_stream(table_id))
        if not report.ok:
            raise InvariantBroken("; ".join(report.lines()), [], [])

    play_hands(result, games, seed, bot, away, progress, play, verified)
    if result.failure is not None:
        result.failure.update(table=table_id, store=store_name)
    return result


def _open_command(table_id: str, variant: str) -> Command:
    from services.bots.runner import PLAYERS
    from services.rules.table.commands import OpenTable

    return OpenTable(table_id=table_id, variant=variant, players=PLAYERS)


def _accept(
    service: TableService,
    table_id: str,
    record: HandRecord | None,
    command: Command,
    number: int,
) -> TableState:
    # Deterministic ids, as a simulation's should be: the table, then the command's number.
    outcome = service.handle(table_id, command, command_id=f"{table_id}/{number}")
    commands = record.commands if record else []
    if not isinstance(outcome, Accepted) or outcome.state is None:
        raise InvariantBroken(f"a legal command was refused: {command!r}: {outcome}", commands, [])
    if record is not None:
        record.commands.append(command)
        record.events.extend(decode(e) for e in outcome.events)
    problem = conservation_errors(outcome.state)
    if problem is not None:
        raise InvariantBroken(f"tile conservation: {problem}", commands, [])
    return outcome.state
