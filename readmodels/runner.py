"""The projector: each build of each projection, one ordered consumer of the global order.

A step reads a batch after the build's checkpoint (``store.read_all``), applies it and moves
the checkpoint in one transaction (``ProjectionDB.batch``, a compare-and-set), so a crash
anywhere loses nothing and doubles nothing: the transaction either committed (the next
read starts after it) or did not (it is read again). Two projectors at once are fenced by
the compare-and-set; on PostgreSQL the one without the build's advisory lock stands by.
On PostgreSQL a projector steps a build only while it holds the build's lease (a session
advisory lock, ``ProjectionDB.try_lead``); a second copy stands by, trying again every
``refresh_seconds``, and takes over when the leader's connection goes (it died). It wakes on
the store's ``NOTIFY`` (``wait_for_events``) and polls as well, so a lost notice costs at most
``idle_seconds``.

A build beside the live one (``paiju projections rebuild``, or the live build's code version
older than the projection's: "stale") is stepped like any other; once its position reaches
the live build's, readers are switched to it (``ProjectionDB.activate``) and the old build's
tables are dropped. A projector never steps a build of a newer code version than its own (an
old copy still running during a deploy). The store's global order never shows a later position before an earlier one commits
(``events.store``: an append lock held to commit), so reading ``position > checkpoint``
never skips an event.

An event a projection cannot apply stops that build at it, and only that build: the batch is
applied again one event at a time up to the poison event, whose position and error are
recorded (``paiju projections status`` shows them); the others go on.
"""

from __future__ import annotations

import os
import threading
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import structlog

from events.envelope import RecordedEvent
from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.db import Build, CheckpointMoved, Lease, ProjectionDB
from services.tables.partitions import HOME

log = structlog.get_logger("paiju.projector")


@dataclass
class Consumer:
    projection: Projection
    build: Build
    position: int
    applied: int = 0
    stopped: str | None = None  # the error this build stopped at
    lease: Lease | None = None  # held while this projector leads the build
    live_seen: int = -1  # a rebuild: the live build's position when last looked at

    @property
    def where(self) -> dict[str, object]:
        return {"projection": self.projection.name, "build": self.build.build}


@dataclass
class Projector:
    store: EventStore
    db: ProjectionDB
    projections: Sequence[Projection]
    batch: int = 500
    idle_seconds: float = 1.0
    refresh_seconds: float = 1.0
    switch: bool = True  # False: build beside the live build and never switch (a comparison)
    partition: int = HOME  # the partition whose log ``store`` is (a ``PartitionLog`` past 0)
    consumers: list[Consumer] = field(default_factory=list)
    name: str = field(default_factory=lambda: f"projector-{os.getpid()}-{threading.get_ident()}")

    def attach(self) -> None:
        """Follow each projection's live build and any build being rebuilt beside it."""
        self.refresh()

    def refresh(self) -> None:
        """Follow the builds as they are now (a rebuild started, switched or dropped, an error
        cleared), start the rebuild of a stale projection, and lead what nobody leads."""
        followed: list[Consumer] = []
        for projection in self.projections:
            live = self.db.ensure_live(projection)
            if live.code_version < projection.code_version:
                self.db.start_rebuild(projection)
            for build in self.db.builds(projection.name):
                if self._follows(projection, build):
                    followed.append(self._consumer(projection, build))
        kept = {(c.projection.name, c.build.build) for c in followed}
        for gone in self.consumers:
            if (gone.projection.name, gone.build.build) not in kept and gone.lease is not None:
                gone.lease.release()
                log.info("projection.released", **gone.where, projector=self.name)
        self.consumers = followed

    @staticmethod
    def _follows(projection: Projection, build: Build) -> bool:
        if build.code_version == projection.code_version:
            return True
        return build.active and build.code_version < projection.code_version  # stale: serves

    def _consumer(self, projection: Projection, build: Build) -> Consumer:
        consumer = next((c for c in self.consumers if c.projection.name == projection.name
                         and c.build.build == build.build), None)  # fmt: skip
        if consumer is None:
            consumer = Consumer(projection, build, build.at(self.partition))
        consumer.build, consumer.stopped = build, build.error
        if consumer.lease is not None and not consumer.lease.alive():
            consumer.lease.release()
            consumer.lease = None
            log.warning("projection.lease_lost", **consumer.where, projector=self.name)
        if consumer.lease is None:
            consumer.position = build.at(self.partition)
            consumer.lease = self.db.try_lead(projection.name, build.build, self.partition)
            if consumer.lease is not None:
                log.info("projection.leading", **consumer.where, position=build.position,
                         projector=self.name)  # fmt: skip
        return consumer

    def step(self) -> int:
        """One batch for every build this projector leads that is behind; the events applied."""
        total = 0
        read: dict[int, list[RecordedEvent]] = {}  # the batch after each checkpoint, this round
        for consumer in self.consumers:
            if consumer.stopped is None and consumer.lease is not None:
                total += self.step_one(consumer, read)
                if self.switch and not consumer.build.active and consumer.stopped is None:
                    self._switch_if_caught_up(consumer)
        return total

    def step_one(
        self, consumer: Consumer, read: dict[int, list[RecordedEvent]] | None = None
    ) -> int:
        """One batch for one build. Builds at the same checkpoint share one read of the store
        (``read``, by position): reading and decoding events is most of a batch's cost, and the
        projections of a projector mostly stand at the same position (all at the head; all at
        0 in a rebuild). Events are frozen; a projection never changes one's payload."""
        events = None if read is None else read.get(consumer.position)
        if events is None:
            events = self.store.read_all(consumer.position + 1, self.batch)
            if read is not None:
                read[consumer.position] = events
        if not events:
            return 0
        try:
            self._apply(consumer, events)
        except CheckpointMoved:
            consumer.position = self._position_of(consumer)  # another projector went first
            return 0
        except Exception:
            if self._gone(consumer):
                return 0
            return self._find_poison(consumer, events)
        log.debug("projection.batch", **consumer.where, first=events[0].position,
                  last=events[-1].position, events=len(events))  # fmt: skip
        return len(events)

    def _apply(self, consumer: Consumer, events: list[RecordedEvent]) -> None:
        projection, build = consumer.projection, consumer.build.build
        with self.db.batch(projection, build, consumer.position, events[-1].position,
                           self.partition) as rows:  # fmt: skip
            for event in events:
                projection.apply(event, rows)
        consumer.position = events[-1].position
        consumer.applied += len(events)

    def _gone(self, consumer: Consumer) -> bool:
        """Whether the build was dropped under this batch (a rebuild switched readers away)."""
        if any(b.build == consumer.build.build for b in self.db.builds(consumer.projection.name)):
            return False
        consumer.stopped = "dropped"
        log.info("projection.dropped_under_batch", **consumer.where, projector=self.name)
        return True

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
                log.error("projection.stopped", **consumer.where, position=event.position,
                          error=reason, trace=traceback.format_exc(limit=5))  # fmt: skip
                return done
            done += 1
        return done

    def _switch_if_caught_up(self, consumer: Consumer) -> None:
        """Readers to this rebuilt build once it has reached the live one; the old dropped."""
        name = consumer.projection.name
        if consumer.position < consumer.live_seen:
            return  # a live build's position only grows: not caught up yet, no need to look
        builds = self.db.builds(name)
        live = next((b for b in builds if b.active), None)
        consumer.live_seen = live.at(self.partition) if live is not None else -1
        mine = next((b for b in builds if b.build == consumer.build.build), None)
        if mine is None or (
            live is not None and (live.build > mine.build or not mine.covers(live))
        ):
            return  # behind in this partition or another (each partition's projector looks)
        self.db.activate(name, consumer.build.build)
        consumer.build = replace(mine, active=True)
        log.info("projection.switched", **consumer.where, position=consumer.position,
                 replaced=live.build if live else None)  # fmt: skip
        for old in self.db.builds(name):
            if not old.active and old.build < consumer.build.build:
                self.db.drop_build(consumer.projection, old.build)
                log.info("projection.build_dropped", projection=name, build=old.build)

    def _position_of(self, consumer: Consumer) -> int:
        for build in self.db.builds(consumer.projection.name):
            if build.build == consumer.build.build:
                return build.at(self.partition)
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
        the next step reads the store whatever woke it). Leases are released at the end."""
        refreshed = 0.0
        try:
            while not stop.is_set():
                try:
                    if time.monotonic() - refreshed >= self.refresh_seconds:
                        self.refresh()
                        refreshed = time.monotonic()
                    if self.step():
                        continue
                    led = [c.position for c in self.consumers
                           if c.lease is not None and c.stopped is None]  # fmt: skip
                    if led:
                        self.store.wait_for_events(min(led), self.idle_seconds)
                    else:  # standing by (or every build stopped): look again in a while
                        stop.wait(self.idle_seconds)
                except Exception:  # the database is away: say so, wait, go on
                    log.exception("projector round failed; retrying", projector=self.name)
                    stop.wait(self.idle_seconds)
        finally:
            self.close()

    def close(self) -> None:
        """Let go of every build this projector leads (a standby takes them over)."""
        for consumer in self.consumers:
            if consumer.lease is not None:
                consumer.lease.release()
                consumer.lease = None
