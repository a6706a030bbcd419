"""The end of a cluster run: the parts stopped in the order that lets each finish what it was
given, then what the store and the read models hold, checked.

Order: the APIs and timekeepers first (no new command, no new timeout), the workers left to
finish what is queued; the reactor and the workers until every notification due is delivered;
then both stopped, and the projectors until every projection is at the store's head. Then:
every acknowledged move in the store at the version it was acknowledged at, no command's events
twice, no version gap, every table verified (chain, seeds, each batch decided again), every
projection equal to a rebuild from position 0, and the timers no watcher found overdue.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from events.store.base import EventStore
from readmodels import catalog
from readmodels.compare import Comparison, compare_with_rebuild
from readmodels.db import open_projection_db
from readmodels.operations import status
from services.cluster.checks import LogCount, count_log, lost_acknowledged
from services.cluster.load import Load
from services.cluster.platform import notified_keys
from services.cluster.run import Cluster, Exit
from workers.parts import Parts

SETTLE = 120.0  # seconds for the queued work, the notifications and the projectors to finish


@dataclass
class Verdict:
    acknowledged: int
    lost: list[str]
    log: LogCount
    overdue: list[str]
    notifications_due: int
    notifications_missing: int
    notifications_doubled: int
    projections: Comparison | None
    projections_behind: list[str]
    exit_codes: dict[str, int | None]
    unplanned_exits: list[Exit] = field(default_factory=list)
    spread: dict[int, int] = field(default_factory=dict)  # tables by table store (partitions)

    @property
    def ok(self) -> bool:
        log = self.log
        return not (self.lost or log.doubled_command_ids or log.version_gaps or log.not_replaying
                    or self.overdue or self.notifications_missing or self.projections_behind
                    or self.projections is None or self.projections.differing)  # fmt: skip

    def lines(self) -> list[str]:
        log, p = self.log, self.projections
        return [
            f"acknowledged moves {self.acknowledged}: lost {len(self.lost)}",
            f"tables {log.tables}, events {log.events}: command ids in two batches"
            f" {len(log.doubled_command_ids)}, version gaps {len(log.version_gaps)},"
            f" not verifying {len(log.not_replaying)} ({log.batches_replayed} batches decided again)",
            f"timeouts {log.by_type.get('wait_timed_out', 0)}; timers found overdue {len(self.overdue)}",
            f"notifications due {self.notifications_due}: missing {self.notifications_missing},"
            f" delivered twice {self.notifications_doubled} (the platform dedupes by the signed key)",
            "projections: " + ("not compared" if p is None else
                               f"{p.rows} rows, differing from a rebuild {len(p.differing)}"
                               + (f" {p.differing}" if p.differing else ""))
            + (f"; behind at the end {self.projections_behind}" if self.projections_behind else ""),
            *([f"tables by partition: {', '.join(f'{p}: {n}' for p, n in sorted(self.spread.items()))}"]
              if self.spread else []),
            "exits on their own (restarted): " + (", ".join(
                f"{e.part} ({e.code})" for e in self.unplanned_exits) or "none"),
            "stopped with: " + ", ".join(f"{n} {c}" for n, c in self.exit_codes.items()),
        ]  # fmt: skip


def conclude(cluster: Cluster, load: Load) -> Verdict:
    tables = load.table_ids()
    codes = cluster.stop_kinds("api", "timekeeper")
    parts = Parts(cluster.settings_here())  # every table in its own store, every partition's log
    store, logs = parts.store(), parts.logs()
    try:
        due, missing = _delivered(cluster, store, tables)
        codes |= cluster.stop_kinds("worker", "reactor")
        behind = _projected(cluster, store, logs)
        codes |= cluster.stop_kinds("projector")
        log = count_log(store, tables)
        lost = lost_acknowledged(store, load.tally.acknowledged)
        db = open_projection_db(cluster.store_url)
        try:
            compared = compare_with_rebuild(store, db, logs=logs)
        finally:
            db.close()
        placed = parts.partitions()
        spread = placed.home.placements() if placed.spread else {}  # type: ignore[attr-defined]
    finally:
        parts.close()
    received = cluster.receiver
    return Verdict(
        acknowledged=len(load.tally.acknowledged), lost=lost, log=log, overdue=sorted(load.overdue),
        notifications_due=len(due), notifications_missing=len(missing),
        notifications_doubled=received.doubled(), projections=compared,
        projections_behind=behind, exit_codes=codes, unplanned_exits=cluster.unplanned_exits(),
        spread=spread,
    )  # fmt: skip


def _delivered(cluster: Cluster, store: object, tables: list[str]) -> tuple[set[str], set[str]]:
    """Until every notification due is delivered and nothing new is due for a few seconds."""
    deadline, quiet_since, due = time.monotonic() + SETTLE, time.monotonic(), set[str]()
    while time.monotonic() < deadline:
        now_due = notified_keys(store, tables)  # type: ignore[arg-type]
        if now_due != due:
            due, quiet_since = now_due, time.monotonic()
        if due <= cluster.receiver.keys() and time.monotonic() - quiet_since > 3:
            break
        time.sleep(0.5)
    return due, due - cluster.receiver.keys()


def _projected(cluster: Cluster, store: object, logs: dict[int, EventStore]) -> list[str]:
    """Until every projection is at the head of every partition; those still behind."""
    db = open_projection_db(cluster.store_url)
    try:
        deadline = time.monotonic() + SETTLE
        while True:
            behind = [f"{s.name} lag {s.lag}" for s in status(db, store, catalog.ALL, logs)  # type: ignore[arg-type]
                      if s.lag != 0]  # fmt: skip
            if not behind or time.monotonic() > deadline:
                return behind
            time.sleep(0.5)
    finally:
        db.close()
