"""The projector: each build of each projection, one ordered consumer of the global order.

A step reads a batch after the build's checkpoint (``store.read_all``), applies it and moves
the checkpoint in one transaction (``ProjectionDB.batch``, a compare-and-set), so a crash
anywhere loses nothing and doubles nothing: the transaction either committed (the next
read starts after it) or did not (it is read again). Two projectors at once are fenced by
the compare-and-set; on PostgreSQL the one without the build's advisory lock stands by.
The store's global order never shows a later position before an earlier one commits
(``events.store``: an append lock held to commit), so reading ``position > checkpoint``
never skips an event.

An event a projection cannot apply stops that build at it, and only that build: the batch is
applied again one event at a time up to the poison event, whose position and error are
recorded (``paiju projections status`` shows them); the others go on.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field

import structlog

from events.envelope import RecordedEvent
from events.store.base import EventStore
from workers.projections.base import Projection
from workers.projections.db import Build, CheckpointMoved, ProjectionDB

log = structlog.get_logger("paiju.projector")


@dataclass
class Consumer:
    projection: Projection
    build: Build
    position: int
    applied: int = 0
    stopped: str | None = None  # the error this build stopped at


@dataclass
class Projector:
    store: EventStore
    db: ProjectionDB
    projections: Sequence[Projection]
    batch: int = 500
    idle_seconds: float = 1.0
    consumers: list[Consumer] = field(default_factory=list)

    def attach(self) -> None:
        """Follow each projection's live build and any build being rebuilt beside it."""
        self.consumers = []
        for projection in self.projections:
            self.db.ensure_live(projection)
            for build in self.db.builds(projection.name):
                if build.code_version == projection.code_version or build.active:
                    self.consumers.append(Consumer(projection, build, build.position,
                                                   stopped=build.error))  # fmt: skip

    def step(self) -> int:
        """One batch for every build that is behind; the number of events applied."""
        return sum(self.step_one(c) for c in self.consumers if c.stopped is None)

    def step_one(self, consumer: Consumer) -> int:
        events = self.store.read_all(consumer.position + 1, self.batch)
        if not events:
            return 0
        try:
            self._apply(consumer, events)
        except CheckpointMoved:
            consumer.position = self._position_of(consumer)  # another projector went first
            return 0
        except Exception:
            return self._find_poison(consumer, events)
        return len(events)

    def _apply(self, consumer: Consumer, events: list[RecordedEvent]) -> None:
        projection, build = consumer.projection, consumer.build.build
        with self.db.batch(projection, build, consumer.position, events[-1].position) as rows:
            for event in events:
                projection.apply(event, rows)
        consumer.position = events[-1].position
        consumer.applied += len(events)

    def _find_poison(self, consumer: Consumer, events: list[RecordedEvent]) -> int:
        """Apply the batch again one event at a time; stop the build at the one that fails."""
        done = 0
        for event in events:
            try:
                self._apply(consumer, [event])
            except CheckpointMoved:
                consumer.position = self._position_of(consumer)
                return done
            except Exception as error:
                where = f"position {event.position} ({event.type} of {event.stream_id} v{event.version})"
                reason = f"{type(error).__name__}: {error}"
                consumer.stopped = f"stopped at {where}: {reason}"
                self.db.record_error(consumer.projection.name, consumer.build.build,
                                     event.position, consumer.stopped)  # fmt: skip
                log.error("projection.stopped", projection=consumer.projection.name,
                          build=consumer.build.build, position=event.position, error=reason,
                          trace=traceback.format_exc(limit=5))  # fmt: skip
                return done
            done += 1
        return done

    def _position_of(self, consumer: Consumer) -> int:
        for build in self.db.builds(consumer.projection.name):
            if build.build == consumer.build.build:
                return build.position
        return consumer.position

    def catch_up(self, limit: int = 1_000_000) -> int:
        """Step until no build is behind (bounded); the events applied."""
        total = 0
        for _ in range(limit):
            applied = self.step()
            if not applied:
                return total
            total += applied
        return total

    def run(self, stop: threading.Event) -> None:
        """Until ``stop``: step, and when nothing is left, wait for an event (a wake-up only:
        the next step reads the store whatever woke it)."""
        self.attach()
        while not stop.is_set():
            try:
                if self.step():
                    continue
                last = min((c.position for c in self.consumers if c.stopped is None), default=0)
                self.store.wait_for_events(last, self.idle_seconds)
            except Exception:  # the database is away: say so, wait, go on
                log.exception("projector round failed; retrying")
                stop.wait(self.idle_seconds)
