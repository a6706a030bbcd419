"""Live read models against a rebuild from position 0 beside them: "every projection equals
its rebuild", the check the fault tests and the local cluster (``paiju cluster``) end with.

Only while nothing appends (a rebuild reads to the store's head; the live builds must be
there too)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.catalog import ALL
from readmodels.db import Build, ProjectionDB
from services.tables.partitions import HOME, split_position


def tables_of(
    db: ProjectionDB, projection: Projection, build: int
) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of one build, each table in key order."""
    with db.reader(projection, build) as rows:
        return {
            spec.name: rows.select(spec.name, {}, order=spec.key, limit=1_000_000)
            for spec in projection.tables
        }


@dataclass
class Comparison:
    """The live builds against builds made from position 0 beside them: which differ."""

    events: int
    rows: int
    differing: list[str]


def rebuild(store: EventStore, db: ProjectionDB, projection: Projection, build: int,
            logs: Mapping[int, EventStore] | None = None) -> None:  # fmt: skip
    """Feed a new build every event from position 0, batch by batch with its checkpoint, by
    hand: not a ``Projector``, which would switch readers to it once it caught up. With
    partitions (``logs``, as ``Parts.logs`` gives them), each one's whole log in turn, the
    last partition first: a merged read model must not depend on the partitions' order."""
    for partition, log in sorted((logs or {HOME: store}).items(), reverse=True):
        position = build_of(db, projection.name, build).at(partition)
        while events := log.read_all(position + 1, 1000):
            with db.batch(projection, build, position, events[-1].position, partition) as rows:
                for event in events:
                    projection.apply(event, rows)
            position = events[-1].position


def build_of(db: ProjectionDB, name: str, build: int) -> Build:
    return next(b for b in db.builds(name) if b.build == build)


class Reference:
    """A projection under code version 0, which no projector follows: a build made with it is
    the test's alone (a build of the projection's own version would be taken up, fed and
    switched to by any projector running meanwhile, a killed one's successor included)."""

    code_version = 0

    def __init__(self, projection: Projection) -> None:
        self.name, self.tables, self.apply = projection.name, projection.tables, projection.apply


def compare_with_rebuild(
    store: EventStore, db: ProjectionDB, projections: Sequence[Projection] = ALL,
    logs: Mapping[int, EventStore] | None = None,
) -> Comparison:  # fmt: skip
    """Build each projection again from position 0 (of every partition's log, ``logs``)
    beside its live build, compare every table, drop the new builds."""
    differing, rows = [], 0
    for projection in projections:
        fresh = db.new_build(Reference(projection), active=False).build  # type: ignore[arg-type]
        try:
            rebuild(store, db, projection, fresh, logs)
            live = db.active_build(projection.name)
            assert live is not None and live.build != fresh, f"{projection.name}: no live build"
            again = tables_of(db, projection, fresh)
            kept = tables_of(db, projection, live.build)
        finally:
            db.drop_build(projection, fresh)
        rows += sum(len(r) for r in kept.values())
        differing += [f"{projection.name}.{t}" for t in kept if kept[t] != again[t]]
    heads = [split_position(log.last_position())[1] for log in (logs or {HOME: store}).values()]  # type: ignore[attr-defined]
    return Comparison(events=sum(heads), rows=rows, differing=differing)
