"""The random bot: any legal command, uniformly (the baseline the benchmarks compare)."""

from __future__ import annotations

import random

from services.rules.table.commands import Command
from services.rules.table.legal import play_commands
from services.rules.table.state import TableState


class NoLegalCommand(RuntimeError):
    """The table waits on a seat that has nothing it may do: an engine bug, never a bot's."""


def random_command(table: TableState, seat: int, rng: random.Random) -> Command:
    """One of the commands ``decide`` accepts from ``seat`` now, each as likely as the next."""
    commands = play_commands(table, seat)
    if not commands:
        raise NoLegalCommand(f"seat {seat} must act but has no legal command")
    return rng.choice(commands)
