"""Rebuild throughput of the read models beside a plain read of the same events (by hand).

The store is filled by ``paiju simulate --store URL --variant all`` (bots playing series
through the table service) until it holds ``--events`` events; a store already that full is
used as it is. Then, ``--rounds`` times, in one run:

- **read**: every event read in order with ``store.read_all(position + 1, --batch)`` (the
  same call, batch size and decoding the projector uses), nothing done with them;
- **rebuild**: a new build of every projection in the catalog (``readmodels.catalog``)
  made beside the live one and caught up from position 0 by a ``Projector`` (the real path:
  batches with their compare-and-set, readers switched to the new build when it reaches the
  live one, the old build dropped).

With ``--read-per-build``, a third contender: the same rebuild by the projector as it was
before ``d4bf2fe``, reading the store once per build a round. Rate = events / seconds; the report gives medians, their ratio rebuild / read (goal ≥ 0.3)
and the median of the per-round ratios (paired: a burst of other work falls on both sides).

    .venv/bin/python benchmarks/bench_projection_rebuild.py --store "postgresql://postgres@127.0.0.1:5432/paiju_test?schema=bench_projections"
    .venv/bin/python benchmarks/bench_projection_rebuild.py --store sqlite:////tmp/paiju-bench-projections.sqlite3
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import services.rules.events.hand  # noqa: F401  (registers the event types the projections upcast)
from events.envelope import RecordedEvent
from events.store import open_store
from events.store.base import EventStore
from readmodels.base import Projection, Rows
from readmodels.catalog import ALL as CATALOG
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.points import Points
from readmodels.runner import Consumer, Projector
from workers.logging import configure_logging

ALL: tuple[Projection, ...] = CATALOG
HANDS_PER_FILL = 1050  # ``--variant all --games 210``: about 100 events a hand


def fill(url: str, events: int) -> int:
    """Simulated series until the store holds ``events`` events (each fill a new seed)."""
    store = open_store(url)
    try:
        for n in range(1, 50):
            have = store.last_position()  # type: ignore[attr-defined]
            if have >= events:
                return int(have)
            print(f"store holds {have} events; simulating {HANDS_PER_FILL} hands more ...",
                  flush=True)  # fmt: skip
            paiju = Path(sys.executable).parent / "paiju"
            subprocess.run(
                [str(paiju), "simulate", "--variant", "all", "--games", str(HANDS_PER_FILL // 5),
                 "--seed", f"bench-projections-{n}", "--store", url],
                check=True, stdout=subprocess.DEVNULL,
            )  # fmt: skip
        raise RuntimeError(f"{url}: could not reach {events} events")
    finally:
        store.close()


def read_all(store: EventStore, batch: int) -> int:
    position, count = 0, 0
    while events := store.read_all(position + 1, batch):
        position, count = events[-1].position, count + len(events)
    return count


def copies_of_points(n: int) -> tuple[Projection, ...]:
    """``n`` copies of 积分 under names and tables of their own (``--copies``): a catalog of
    several projections, to show what a read per build costs as the catalog grows."""
    made: list[Projection] = []
    for k in range(1, n + 1):
        tables = tuple(
            replace(t, name=t.name.replace("points", f"pointscopy{k}")) for t in Points.tables
        )
        renamed = {t.name: r.name for t, r in zip(Points.tables, tables, strict=True)}

        class Copy(Points):
            name = f"pointscopy{k}"

            def apply(
                self, event: RecordedEvent, rows: Rows, _names: dict[str, str] = renamed
            ) -> None:
                super().apply(event, Renamed(rows, _names))

        Copy.tables = tables
        made.append(Copy())
    return tuple(made)


@dataclass
class Renamed:
    """``Rows`` of a copy: the original projection's table names mapped to the copy's."""

    rows: Rows
    names: dict[str, str]

    def __getattr__(self, operation: str) -> Any:
        method = getattr(self.rows, operation)
        return lambda table, *args, **kwargs: method(self.names[table], *args, **kwargs)


class ReadPerBuild(Projector):
    """The projector as it was before ``d4bf2fe``: a read of the store per build a round."""

    def step_one(
        self, consumer: Consumer, read: dict[int, list[RecordedEvent]] | None = None
    ) -> int:
        return super().step_one(consumer, None)


def rebuild(
    store: EventStore, db: ProjectionDB, batch: int, kind: type[Projector] = Projector
) -> int:
    """Every projection built again from 0 beside its live build, until readers switch."""
    before = {p.name: db.active_build(p.name) for p in ALL}
    for projection in ALL:
        db.start_rebuild(projection)
    projector = kind(store, db, ALL, batch=batch)
    projector.attach()
    applied = projector.catch_up()
    projector.close()
    for projection in ALL:
        live = db.active_build(projection.name)
        old = before[projection.name]
        assert live is not None and old is not None and live.build > old.build, projection.name
    return applied


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default="sqlite:////tmp/paiju-bench-projections.sqlite3")
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument(
        "--read-per-build",
        action="store_true",
        help="also rebuild as the projector did before d4bf2fe (a read per build)",
    )
    parser.add_argument(
        "--copies",
        type=int,
        default=0,
        help="add this many copies of points (names and tables of their own)",
    )
    args = parser.parse_args()
    global ALL
    ALL = CATALOG + copies_of_points(args.copies)
    configure_logging("WARNING", "console")  # as `paiju projector` logs: no line a batch
    events = fill(args.store, args.events)
    store, db = open_store(args.store), open_projection_db(args.store)
    for projection in ALL:  # what an earlier run left: a rebuild cut short, an error
        for build in db.builds(projection.name):
            if not build.active:
                db.drop_build(projection, build.build)
            elif build.error:
                db.clear_error(projection.name, build.build)
    warm = Projector(store, db, ALL, batch=args.batch)  # the live builds caught up first
    warm.attach()
    warm.catch_up()
    warm.close()
    reads, rebuilds, olds = [], [], []
    for round_ in range(args.rounds):
        start = time.perf_counter()
        assert read_all(store, args.batch) == events
        reads.append(events / (time.perf_counter() - start))
        start = time.perf_counter()
        applied = rebuild(store, db, args.batch)
        rebuilds.append(events / (time.perf_counter() - start))
        line = f"round {round_ + 1}: read {reads[-1]:,.0f} events/s, rebuild {rebuilds[-1]:,.0f}"
        if args.read_per_build:
            start = time.perf_counter()
            rebuild(store, db, args.batch, ReadPerBuild)
            olds.append(events / (time.perf_counter() - start))
            line += f", rebuild reading per build {olds[-1]:,.0f}"
        print(f"{line} events/s ({applied} applied over {len(ALL)} projections)", flush=True)
    print(f"{args.store.split(':')[0]}: {events} events, projections {[p.name for p in ALL]},"
          f" batch {args.batch}")  # fmt: skip
    for name, rates in (("rebuild", rebuilds), ("rebuild reading per build", olds)):
        if rates:
            paired = statistics.median(b / r for b, r in zip(rates, reads, strict=True))
            print(f"  {name}: median {statistics.median(rates):,.0f} events/s beside a median read"
                  f" of {statistics.median(reads):,.0f}: ratio"
                  f" {statistics.median(rates) / statistics.median(reads):.2f}"
                  f" (per-round median {paired:.2f})")  # fmt: skip
    db.close()
    store.close()


if __name__ == "__main__":
    main()
