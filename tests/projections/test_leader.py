"""Leading a build on PostgreSQL: one projector leads (its advisory lock), a second stands by
and takes over when the first is killed with SIGKILL or stops; nothing is counted twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from projection_kit import play_series, rows_of

from events.store import open_store
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.points import Points
from readmodels.runner import Projector

PLAYERS = ("ann", "bo", "cy", "di")
ROOT = Path(__file__).resolve().parents[2]


def eventually(what: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "not within the bound"
        time.sleep(0.05)


def points_at(db: ProjectionDB, position: int) -> Callable[[], bool]:
    return lambda: (b := db.active_build("points")) is not None and b.position >= position


def lines_once_each(db: ProjectionDB, expected: int) -> None:
    lines = rows_of(db, Points(), "points_history")
    assert len(lines) == len({(r["position"], r["seat"]) for r in lines}) == expected


@pytest.fixture
def pg_url(url: str) -> str:
    if not url.startswith("postgresql"):
        pytest.skip("the advisory lock is PostgreSQL's; SQLite's projectors take turns per batch")
    return url


def test_a_standby_takes_over_when_the_leading_projector_is_killed(pg_url: str) -> None:
    store, db = open_store(pg_url), open_projection_db(pg_url)
    play_series(store, "t1", "harbin", PLAYERS, hands=2)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_STORE_URL": pg_url, "PAIJU_LOG_LEVEL": "WARNING"}  # fmt: skip
    leader = subprocess.Popen([sys.executable, "-m", "services.cli.main", "projector", "--batch", "9"],
                              env=env, cwd=ROOT, stdout=subprocess.DEVNULL)  # fmt: skip
    stop = threading.Event()
    try:
        eventually(points_at(db, store.last_position()))  # type: ignore[attr-defined]
        standby = Projector(open_store(pg_url), open_projection_db(pg_url), [Points()],
                            idle_seconds=0.1, refresh_seconds=0.1)  # fmt: skip
        standby.attach()
        assert standby.consumers[0].lease is None  # the process leads; this one stands by
        thread = threading.Thread(target=standby.run, args=(stop,))
        thread.start()
        leader.send_signal(signal.SIGKILL)
        leader.wait(30)
        play_series(store, "t2", "harbin", PLAYERS, hands=2, seed=5)
        eventually(points_at(db, store.last_position()))  # type: ignore[attr-defined]
        assert standby.consumers[0].lease is not None
        assert standby.consumers[0].applied > 0
        lines_once_each(db, 4 * 4)
    finally:
        stop.set()
        if leader.poll() is None:
            leader.kill()
            leader.wait(30)
    thread.join(30)


def test_two_running_projectors_one_leading_the_other_taking_over_when_it_stops(
    pg_url: str,
) -> None:
    store, db = open_store(pg_url), open_projection_db(pg_url)
    stops = [threading.Event(), threading.Event()]
    projectors = [Projector(open_store(pg_url), open_projection_db(pg_url), [Points()], batch=5,
                            idle_seconds=0.1, refresh_seconds=0.1) for _ in stops]  # fmt: skip
    threads = [
        threading.Thread(target=p.run, args=(s,)) for p, s in zip(projectors, stops, strict=True)
    ]
    for thread in threads:
        thread.start()
    try:
        play_series(store, "t1", "harbin", PLAYERS, hands=2)
        eventually(points_at(db, store.last_position()))  # type: ignore[attr-defined]
        leading = [n for n, p in enumerate(projectors) if p.consumers and p.consumers[0].lease]
        assert len(leading) == 1
        first = leading[0]
        stops[first].set()
        threads[first].join(30)
        play_series(store, "t2", "tanggu", PLAYERS, hands=2, seed=4)
        eventually(points_at(db, store.last_position()))  # type: ignore[attr-defined]
        lines_once_each(db, 4 * 4)
        applied = [p.consumers[0].applied if p.consumers else 0 for p in projectors]
        assert applied[1 - first] > 0
        assert sum(applied) == store.last_position()  # type: ignore[attr-defined]
    finally:
        for s in stops:
            s.set()
        for thread in threads:
            thread.join(30)
