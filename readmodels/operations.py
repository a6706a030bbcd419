"""What operators do to projections: see their state, rebuild one, retry one after a fix.

``status`` names each projection's live build, its position and lag (the store's last
position − the build's), any build in progress beside it, and the last error and where.
``rebuild`` starts a build beside the live one from position 0 and runs it (with a projector
of its own, which stands by on PostgreSQL wherever another projector leads) until readers are
switched to it; the live build serves until then. ``retry`` clears a stopped build's error,
so that the projectors take it up again from its checkpoint.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.db import Build, ProjectionDB
from readmodels.runner import Projector
from services.tables.partitions import HOME, split_position

State = Literal["live", "stale", "stopped", "not built"]


class RebuildError(RuntimeError):
    """A rebuild that cannot finish (its build stopped at an event); the message says where."""


@dataclass(frozen=True, slots=True)
class Status:
    name: str
    code_version: int
    state: State
    head: int  # the store's last position (with partitions: their events in all)
    live: Build | None
    building: Build | None  # a build in progress beside the live one
    heads: dict[int, int] = field(default_factory=dict)  # each partition's head, merged

    def lag_of(self, build: Build) -> int:
        """Events the build has still to apply, in every partition."""
        if not self.heads:
            return self.head - build.position
        return sum(max(head - build.at(p), 0) for p, head in self.heads.items())

    @property
    def lag(self) -> int | None:
        return None if self.live is None else self.lag_of(self.live)

    def by_partition(self, build: Build) -> list[dict[str, int]]:
        """Each partition's head, the build's checkpoint there and its lag (store positions)."""
        return [{"partition": p, "head": split_position(head)[1],
                 "position": split_position(build.at(p))[1], "lag": max(head - build.at(p), 0)}
                for p, head in sorted(self.heads.items())]  # fmt: skip

    def as_dict(self) -> dict[str, Any]:
        def build(b: Build | None) -> dict[str, Any] | None:
            if b is None:
                return None
            found = {"build": b.build, "code_version": b.code_version, "position": b.position,
                     "lag": self.lag_of(b), "error": b.error,
                     "error_position": b.error_position}  # fmt: skip
            if len(self.heads) > 1:
                found["partitions"] = self.by_partition(b)
            return found

        return {"name": self.name, "code_version": self.code_version, "state": self.state,
                "head": self.head, "lag": self.lag, "live": build(self.live),
                "building": build(self.building)}  # fmt: skip

    def line(self) -> str:
        if self.live is None:
            return f"{self.name}: not built (no projector has run); store at {self.head}"
        live = self.live
        text = (f"{self.name}: {self.state}, build {live.build} (code v{live.code_version}) at"
                f" position {live.position} of {self.head}, lag {self.lag}")  # fmt: skip
        if self.state == "stale":
            text += f" (code is v{self.code_version}: rebuilt beside it)"
        if live.error:
            text += f"; {live.error}"
        if self.building is not None:
            b = self.building
            text += (f"; rebuilding as build {b.build} (code v{b.code_version}) at position"
                     f" {b.position}, lag {self.head - b.position}")  # fmt: skip
            text += f"; it {b.error}" if b.error else ""
        if len(self.heads) > 1:
            text += "; by partition: " + ", ".join(
                f"{p['partition']} at {p['position']} of {p['head']} (lag {p['lag']})"
                for p in self.by_partition(live))  # fmt: skip
        return text


def head_of(store: EventStore) -> int:
    return int(store.last_position())  # type: ignore[attr-defined]


def status(db: ProjectionDB, store: EventStore, projections: Sequence[Projection],
           logs: Mapping[int, EventStore] | None = None) -> list[Status]:  # fmt: skip
    """Each projection's builds against the head of every partition's log (``logs``, as
    ``Parts.logs`` gives them; none: ``store``'s alone)."""
    heads = {p: head_of(log) for p, log in (logs or {}).items()}
    head = sum(split_position(h)[1] for h in heads.values()) if heads else head_of(store)
    out = []
    for projection in projections:
        live = db.active_build(projection.name)
        state: State = "not built"
        if live is not None:
            stale = live.code_version < projection.code_version
            state = "stopped" if live.error else "stale" if stale else "live"
        building = db.rebuilding(projection)
        out.append(Status(projection.name, projection.code_version, state, head, live, building,
                          heads))  # fmt: skip
    return out


def retry(db: ProjectionDB, projection: Projection) -> list[Build]:
    """Clear the error of each stopped build of ``projection``; the builds cleared."""
    stopped = [b for b in db.builds(projection.name) if b.error is not None]
    if not stopped:
        raise LookupError(f"{projection.name} is not stopped: no build has an error to clear")
    for build in stopped:
        db.clear_error(projection.name, build.build)
    return stopped


def rebuild(
    db: ProjectionDB, store: EventStore, projection: Projection, stop: threading.Event, *,
    progress: Callable[[Build], None] = lambda b: None, batch: int = 500,
    idle_seconds: float = 0.5, logs: Mapping[int, EventStore] | None = None,
) -> Build | None:  # fmt: skip
    """Build ``projection`` anew beside its live build until readers switch to it: the build,
    now live; None if ``stop`` came first (the build stays in progress: any projector, or
    this again, goes on with it)."""
    db.ensure_live(projection)
    target = db.start_rebuild(projection)
    progress(target)
    projectors = [Projector(log, db, [projection], batch=batch, idle_seconds=idle_seconds,
                            refresh_seconds=idle_seconds, partition=partition)
                  for partition, log in (logs or {HOME: store}).items()]  # fmt: skip
    looked = 0.0
    try:
        while not stop.is_set():
            if time.monotonic() - looked >= idle_seconds:  # not every batch: a few queries
                for projector in projectors:
                    projector.refresh()
                looked = time.monotonic()
                now = _state_of(db, projection, target)
                if now.active:
                    return now
                progress(now)
            if not sum(projector.step() for projector in projectors):
                looked = 0.0
                stop.wait(idle_seconds)  # led elsewhere, or at the head waiting for the live one
    finally:
        for projector in projectors:
            projector.close()
    return None


def _state_of(db: ProjectionDB, projection: Projection, target: Build) -> Build:
    now = next((b for b in db.builds(projection.name) if b.build == target.build), None)
    if now is None:
        raise RebuildError(f"{projection.name} build {target.build} was dropped"
                           " (another rebuild replaced it)")  # fmt: skip
    if now.error:
        raise RebuildError(f"{projection.name} build {now.build} {now.error}")
    return now
