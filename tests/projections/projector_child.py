"""A projector in a child process of the test (``Projector.run``), which the test kills with
SIGKILL, stops with SIGTERM, and starts again, as a supervisor would.

Forked from a fork server, not spawned: a fresh interpreter takes a second to import the
service, and the fault tests start fifty of them; and not forked from the test itself, whose
open PostgreSQL connections every child then carried (with them, a killed child's build
stayed held: on PostgreSQL the first projection never caught up again). The child opens its
own store and database connections and leaves with ``os._exit``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from events.store import open_store
from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.db import ProjectionDB
from readmodels.runner import Projector

# A fork server: each child is forked from a clean process that holds none of the test's own
# database connections (a plain fork copied them into every child).
FORK = multiprocessing.get_context("forkserver")
FORK.set_forkserver_preload(["readmodels.catalog", "events.store.postgres",
                             "events.store.sqlite"])  # fmt: skip


def _run(url: str, projections: Sequence[Projection], batch: int, report: str | None,
         listening: Any) -> None:  # fmt: skip
    from readmodels.db import open_projection_db

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    listening.set()  # a SIGTERM from now on is a clean stop, not the default's death
    store, db = open_store(url), open_projection_db(url)
    projector = Projector(store, db, projections, batch=batch, idle_seconds=0.2)
    code = 0
    try:
        projector.run(stop)
        if report is not None:  # what this copy applied, per build (a clean stop only)
            applied = {f"{c.projection.name}/{c.build.build}": c.applied for c in projector.consumers}
            Path(report).write_text(json.dumps(applied))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


class ProjectorChild:
    """One projector process: started, killed (SIGKILL) or stopped (SIGTERM), started again."""

    def __init__(self, url: str, projections: Sequence[Projection], report: Path | None = None):
        self.url, self.projections, self.report = url, projections, report
        self.process: multiprocessing.process.BaseProcess | None = None
        self.starts = 0

    def start(self, batch: int = 500) -> None:
        self.starts += 1
        report = None if self.report is None else f"{self.report}.{self.starts}.json"
        listening = FORK.Event()
        self.process = FORK.Process(
            target=_run, args=(self.url, self.projections, batch, report, listening), daemon=True
        )
        self.process.start()
        # until its SIGTERM handler is in place: a stop sent sooner (a loaded machine, a child
        # still starting) killed it with -15 where the test asked for a clean stop
        assert listening.wait(30), "the projector child did not start within 30 s"

    def reports(self) -> list[dict[str, int]]:
        """What each clean stop of this child reported applying, per build."""
        found = sorted(self.report.parent.glob(f"{self.report.name}.*.json")) if self.report else []
        return [json.loads(path.read_text()) for path in found]

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)  # type: ignore[arg-type]
        self.process.join(10)

    def stop(self) -> int | None:
        """SIGTERM, and its exit code (0: it stopped cleanly)."""
        assert self.process is not None
        if self.process.is_alive():
            os.kill(self.process.pid, signal.SIGTERM)  # type: ignore[arg-type]
        self.process.join(20)
        if self.process.is_alive():
            self.kill()
        return self.process.exitcode


def positions(db: ProjectionDB, projections: Sequence[Projection]) -> dict[str, int]:
    """Each projection's live position."""
    found = {}
    for projection in projections:
        live = db.active_build(projection.name)
        found[projection.name] = -1 if live is None else live.position
    return found


def wait_caught_up(
    store: EventStore,
    db: ProjectionDB,
    projections: Sequence[Projection],
    timeout: float = 60.0,
) -> bool:
    """Until every live build is at the store's head (False after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        head = store.last_position()  # type: ignore[attr-defined]
        if all(p == head for p in positions(db, projections).values()):
            return True
        time.sleep(0.05)
    return False
