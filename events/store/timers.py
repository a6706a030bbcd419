"""Durable timers: what a stream waits on, written with the append that starts the wait.

An append may carry ``timers``: the stream's waits after it, each a ``Timer`` (a key, how
long, and the command to give the stream when the time is up). The store replaces the
stream's timer rows in the append's own transaction: a key named again keeps its due time
(and any lease), a new key is due ``seconds`` from now (the database's clock), a key not named
is removed. ``timers=None`` leaves them as they are; ``()`` says the stream waits on nothing.

A timekeeper ``claim_due_timers``: each due row it gets is leased to it for ``lease`` seconds,
so two timekeepers never fire the same row at once and a firing that was lost is tried again
when the lease runs out. Firing twice is harmless by construction of the caller (a command id
per timer, and a command the stream refuses once it waits on something else); the row goes
when an append that no longer names it commits, or when the timekeeper ``drop_timer``s it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from events.envelope import JSONDict, check_id

MAX_TIMERS = 16  # waits per stream: a table has at most a turn or a window, plus four graces
MAX_TIMER_SECONDS = 86_400.0


@dataclass(frozen=True, slots=True)
class Timer:
    """One wait: fire ``command`` on the stream ``seconds`` after ``key`` first appeared."""

    key: str
    seconds: float
    command: JSONDict


@dataclass(frozen=True, slots=True)
class DueTimer:
    """A timer a timekeeper claimed: leased to it until ``lease_until``."""

    stream_id: str
    key: str
    due_at: datetime
    command: JSONDict
    attempts: int  # claims so far, this one included
    claimed_at: datetime
    lease_until: datetime

    @property
    def lateness(self) -> float:
        """Seconds between the due time and this claim (the database's clock for both)."""
        return (self.claimed_at - self.due_at).total_seconds()


@runtime_checkable
class TimerStore(Protocol):
    """What a timekeeper needs of a store (both stores have it)."""

    def claim_due_timers(self, limit: int = 100, lease: float = 10.0) -> list[DueTimer]: ...

    def seconds_to_next_timer(self) -> float | None: ...

    def wait_for_timers(self, timeout: float) -> bool: ...

    def drop_timer(self, stream_id: str, key: str) -> bool: ...

    def timers_of(self, stream_id: str) -> list[DueTimer]: ...


def check_timers(stream_id: str, timers: Sequence[Timer] | None) -> None:
    """Refuse a malformed timer set before anything is written."""
    if timers is None:
        return
    if len(timers) > MAX_TIMERS:
        raise ValueError(f"stream {stream_id!r}: at most {MAX_TIMERS} timers, not {len(timers)}")
    keys = [t.key for t in timers]
    if len(set(keys)) != len(keys):
        raise ValueError(f"stream {stream_id!r}: timer keys repeat: {sorted(keys)}")
    for timer in timers:
        check_id("timer key", timer.key)
        if isinstance(timer.seconds, bool) or not 0 <= timer.seconds <= MAX_TIMER_SECONDS:
            raise ValueError(
                f"stream {stream_id!r}: timer {timer.key!r} must wait 0-{MAX_TIMER_SECONDS:g}"
                f" seconds, not {timer.seconds!r}"
            )
        if not isinstance(timer.command, dict):
            raise ValueError(f"stream {stream_id!r}: timer {timer.key!r} needs a command object")
