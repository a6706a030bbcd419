"""Escape penalties (逃跑处罚, decision 16): each variant's rule, as a hook on its config.

The table tells the hook what it saw of a seat in the hand in play (it left, it stayed away
past the reconnect grace, how many turns 超时托管 played for it); the hook says which penalty,
if any, is due. The table adjudicates at most one per seat and hand, as its own event, apart
from the hand's zero-sum settlement: the amounts need not sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from services.rules.melds import Meld
from services.rules.scoring import shandong, shanghai

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


@dataclass(frozen=True)
class ShanghaiEscape:
    """上海敲麻 逃跑处罚 (``003``): 断线超过3分钟 or 超时5次（即系统代打牌5次） cost 60 × 底注,
    主动逃跑 66 × 底注; each other seat gets 20 × 底注 as compensation."""

    timeouts: int = 5

    def due(self, conduct: SeatConduct) -> Penalty | None:
        if conduct.left:
            cause: EscapeCause = "left"
            rule, reason = "003 逃跑处罚③ 主动逃跑: 66×底注, 其他玩家各得20×底注", "quit"
        elif conduct.dropped_past_grace:
            cause = "dropped"
            rule, reason = (
                "003 逃跑处罚① 断线超过3分钟: 60×底注, 其他玩家各得20×底注",
                "disconnected",
            )
        elif conduct.system_moves >= self.timeouts:
            cause = "timeouts"
            rule, reason = "003 逃跑处罚② 超时5次: 60×底注, 其他玩家各得20×底注", "timeouts"
        else:
            return None
        amounts = shanghai.escape_penalties(
            conduct.seat,
            reason,  # type: ignore[arg-type]  # one of the three EscapeReason literals
            conduct.base_stake,
        )
        return Penalty(cause, rule, amounts)


@dataclass(frozen=True)
class ShandongEscape:
    """山东麻将 (``002``): 逃跑扣除分数 = (底 + 花) × 10, 花 the leaver's own; nobody receives it."""

    def due(self, conduct: SeatConduct) -> Penalty | None:
        if not conduct.left:
            return None
        loss = shandong.escape_penalty(conduct.flowers, conduct.melds)
        amounts = [-loss if s == conduct.seat else 0 for s in range(4)]
        return Penalty(
            "left",
            "002 逃跑扣除分数=（底+花）*10",
            (amounts[0], amounts[1], amounts[2], amounts[3]),
        )


NO_ESCAPE_PENALTY = NoEscapePenalty()
