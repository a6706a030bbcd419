"""Escape penalties (逃跑处罚, decision 16): each variant's rule, as a hook on its config
(上海's and 山东's in their variants' files).

The table tells the hook what it saw of a seat in the hand in play (it left, it stayed away
past the reconnect grace, how many turns 超时托管 played for it); the hook says which penalty,
if any, is due. The table adjudicates at most one per seat and hand, as its own event, apart
from the hand's zero-sum settlement: the amounts need not sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from services.rules.melds import Meld

EscapeCause = Literal["dropped", "timeouts", "left"]


@dataclass(frozen=True, slots=True)
class SeatConduct:
    """What the table saw of one seat in this hand."""

    seat: int
    left: bool  # 主动逃跑: it closed the game mid-hand
    dropped_past_grace: bool  # its connection stayed down past the reconnect grace
    system_moves: int  # turns the system played for it in 超时托管
    flowers: int
    melds: tuple[Meld, ...]
    base_stake: int  # 底注


@dataclass(frozen=True, slots=True)
class Penalty:
    cause: EscapeCause
    rule: str  # the rule, named as its document gives it
    amounts: tuple[int, int, int, int]


class EscapeRules(Protocol):
    def due(self, conduct: SeatConduct) -> Penalty | None:
        """The penalty this seat's conduct has earned, or None."""
        ...


@dataclass(frozen=True)
class NoEscapePenalty:
    """牡丹江, 哈尔滨: 没有逃跑惩罚机制 (``000``); 塘沽 (``004``) names none either. A leaver is
    played by 托管 and pays nothing."""

    def due(self, conduct: SeatConduct) -> Penalty | None:
        return None


NO_ESCAPE_PENALTY = NoEscapePenalty()
