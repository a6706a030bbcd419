"""A table as a state machine: ``decide(state, command) -> events``, ``evolve(state, event) -> state``."""

from services.rules.table.decide import CommandRejected, decide, decide_and_evolve
from services.rules.table.evolve import evolve, replay
from services.rules.table.state import TableState

__all__ = ["CommandRejected", "TableState", "decide", "decide_and_evolve", "evolve", "replay"]
