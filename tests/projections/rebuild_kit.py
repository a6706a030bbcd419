"""What the rebuild and fault tests share: series played one command at a time (so several
tables and a projector can interleave), and "the live rows equal a rebuild from zero" over every
table of every projection in the catalog.

A module of its own, not a conftest (conftest names clash across test folders).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from projection_kit import accept

from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.catalog import ALL
from readmodels.compare import (  # noqa: F401  (the tests take them from here)
    Comparison,
    compare_with_rebuild,
    rebuild,
    tables_of,
)
from services.bots.winning_bot import winning_command
from services.rules.table.commands import LeaveTable, OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.tables import TableService

EVERY: tuple[Projection, ...] = ALL  # every projection the projector keeps
VARIANTS = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")
PLAYERS = ("ann", "bo", "cy", "di", "eve", "fay", "gus")


@dataclass(frozen=True)
class Series:
    """One table's series: its variant, the seed its deals and bots come from, the hands it
    plays, and the seat that leaves a last hand (托管 plays it out), if any."""

    table_id: str
    variant: str
    seed: int
    hands: int = 1
    leaver: int | None = None

    def players(self) -> tuple[str, str, str, str]:
        rng = random.Random(self.seed)
        chosen = rng.sample(PLAYERS, 4)  # players meet again at other tables
        return (chosen[0], chosen[1], chosen[2], chosen[3])


def commands_of(store: EventStore, series: Series) -> Iterator[int]:
    """Play ``series`` through the table service, one accepted command per ``next`` (its
    number); chosen deals, so one seed always gives the same events."""
    service = TableService(store, chosen_deals=True)
    rng, table = random.Random(series.seed), series.table_id
    accept(service, table, OpenTable(table_id=table, variant=series.variant,
                                     players=series.players()), f"{table}/open")  # fmt: skip
    done = 1
    yield done
    for hand in range(series.hands + (series.leaver is not None)):
        deal = StartHand(seed=f"{series.seed:08d}-{hand}")
        state = accept(service, table, deal, f"{table}/deal-{hand}")
        done += 1
        yield done
        if hand == series.hands:  # the last hand: a seat leaves at once
            state = accept(service, table, LeaveTable(seat=series.leaver), f"{table}/leave")  # type: ignore[arg-type]
            done += 1
            yield done
        for move in range(2000):
            if state.hand_over:
                break
            seat = seats_to_act(state)[0]
            state = accept(
                service, table, winning_command(state, seat, rng), f"{table}/{hand}/{move}"
            )
            done += 1
            yield done


def interleaved(store: EventStore, series: Sequence[Series], rng: random.Random) -> Iterator[int]:
    """Every series played to its end, the next command from a table ``rng`` picks each time."""
    playing = [commands_of(store, s) for s in series]
    done = 0
    while playing:
        table = rng.randrange(len(playing))
        try:
            next(playing[table])
        except StopIteration:
            playing.pop(table)
            continue
        done += 1
        yield done


