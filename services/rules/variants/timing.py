"""How long a table waits on a seat: the per-table timing settings and their defaults.

The engine has no clock. It says what it waits on and for how long (``table.deadlines``); the
timekeeper stores that and, when the time is up, gives the table a ``TimeOut`` command.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace

from events.limits import MAX_WAIT_SECONDS

MAX_SECONDS = MAX_WAIT_SECONDS  # an hour: no wait at a table is longer


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds a table waits. ``000`` gives the 托管 window (进行倒计时3秒) and ``003`` the
    reconnect grace (断线超过3分钟); no document gives the turn or claim countdown, so those are
    the platform's choice, overridable per table like the rest."""

    turn: int = 15  # 出牌倒计时: a seat's own turn
    claim: int = 8  # a claim window on a discard (吃, 碰, 杠, 胡 or 过)
    autoplay_window: int = 3  # 超时托管: each later turn, time to take control back (000)
    reconnect_grace: int = 180  # a dropped seat's time to come back (003: 3分钟)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def timing_names() -> list[str]:
    return [f.name for f in fields(Timing)]


def timing_errors(overrides: Mapping[str, int]) -> list[str]:
    """What is wrong with a table's timing overrides (unknown names, out-of-range seconds)."""
    known = timing_names()
    errors = [
        f"unknown timing {k!r} (known: {', '.join(known)})" for k in overrides if k not in known
    ]
    errors += [
        f"timing {k} must be 1–{MAX_SECONDS} seconds, got {v!r}"
        for k, v in overrides.items()
        if k in known
        and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_SECONDS)
    ]
    return errors


def with_overrides(default: Timing, overrides: Mapping[str, int]) -> Timing:
    """``default`` with the table's overrides (checked with ``timing_errors`` first)."""
    return replace(default, **dict(overrides))
