"""The facts of a player's account that no table makes: the platform's point adjustments.

Decision 18: a player's points (积分) are what the tables paid and charged them, plus what the
platform itself grants or tops up through the service. Each adjustment is an event on the
player's own stream (``player:<id>``), so it is in the log, replayed and projected like
every other change of points.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from events.base import DomainEvent
from events.limits import MAX_ADJUSTMENT
from events.registry import registry

AdjustmentKind = Literal["grant", "top_up", "correction"]


@registry.register
class PointsAdjusted(DomainEvent):
    """The platform changed a player's points (a grant, a top-up, a correction by support)."""

    type: Literal["points_adjusted"] = "points_adjusted"
    player: str = Field(min_length=1, max_length=32)
    amount: int = Field(ge=-MAX_ADJUSTMENT, le=MAX_ADJUSTMENT)
    kind: AdjustmentKind
    reason: str = Field(default="", max_length=200)
