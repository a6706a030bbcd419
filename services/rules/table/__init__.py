"""A table as a state machine: ``decide(state, command) -> events``, ``evolve(state, event) -> state``."""

from services.rules.table.decide import CommandRejected, decide
from services.rules.table.evolve import evolve, replay
from services.rules.table.state import TableState

__all__ = ["CommandRejected", "TableState", "decide", "evolve", "replay"]
