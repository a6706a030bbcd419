"""Rebuilds: a build beside the live one from position 0 gives the same rows, readers stay on
the live build until the switch, a newer code version is rebuilt the same way, and status
and retry say and clear where a projection stopped."""

from __future__ import annotations

import threading
from typing import Any, ClassVar

import pytest
from projection_kit import play_series
from test_projector import Broken

from events.envelope import RecordedEvent
from events.store import open_store
from readmodels import operations, points_queries
from readmodels.base import Projection, Rows
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.points import Points
from readmodels.runner import Projector

PLAYERS = ("ann", "bo", "cy", "di")


class PointsV2(Points):
    """The same 积分 rules under a newer code version (as after a deploy)."""

    code_version: ClassVar[int] = Points.code_version + 1


class Mended(Broken):
    """``Broken`` after its fix: the same projection, now able to apply a settlement."""

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        rows.put("broken_seen", {"position": event.position}, {})


def every_row(db: ProjectionDB, projection: Projection, build: int) -> dict[str, Any]:
    with db.reader(projection, build) as rows:
        return {t.name: rows.select(t.name, {}, order=t.key, limit=100_000)
                for t in projection.tables}  # fmt: skip


def played(url: str, hands: int = 2) -> tuple[ProjectionDB, Any]:
    store = open_store(url)
    play_series(store, "t1", "shanghai", PLAYERS, hands=hands, leaver=1)
    play_series(store, "t2", "tanggu", ("ann", "bo", "eve", "fay"), hands=hands, seed=2)
    db = open_projection_db(url)
    projector = Projector(store, db, [Points()])
    projector.attach()
    projector.catch_up()
    projector.close()
    return db, store


def test_a_rebuild_gives_the_same_rows_as_the_live_build_and_drops_the_old(url: str) -> None:
    db, store = played(url)
    before = every_row(db, Points(), 1)
    done = operations.rebuild(db, store, Points(), threading.Event(), batch=37)
    assert done is not None and done.build == 2 and done.active
    assert every_row(db, Points(), 2) == before
    assert [b.build for b in db.builds("points")] == [2]
    with pytest.raises(Exception, match="b1"):
        every_row(db, Points(), 1)  # the old build's tables are gone


def test_readers_see_the_live_rows_until_the_switch(url: str) -> None:
    db, store = played(url)
    balances = {p: points_queries.balance(db, p).points for p in PLAYERS}
    db.start_rebuild(Points())
    projector = Projector(store, db, [Points()], batch=20)
    projector.attach()
    projector.step()  # the new build has 20 events: far from the live build
    assert {b.build: b.position for b in db.builds("points")}[2] == 20
    for player in PLAYERS:
        read = points_queries.balance(db, player)
        assert read.points == balances[player] and read.position == store.last_position()
    projector.catch_up()
    projector.close()
    assert db.active_build("points").build == 2  # type: ignore[union-attr]
    assert {p: points_queries.balance(db, p).points for p in PLAYERS} == balances


def test_a_newer_code_version_is_rebuilt_beside_the_live_build(url: str) -> None:
    db, store = played(url, hands=1)
    (stale,) = operations.status(db, store, [PointsV2()])
    assert stale.state == "stale" and f"code is v{PointsV2.code_version}" in stale.line()
    projector = Projector(store, db, [PointsV2()], batch=50)
    projector.attach()  # starts the rebuild
    (rebuilding,) = operations.status(db, store, [PointsV2()])
    assert rebuilding.building is not None
    assert rebuilding.building.code_version == PointsV2.code_version
    projector.catch_up()
    projector.close()
    (now,) = operations.status(db, store, [PointsV2()])
    assert now.state == "live" and now.live.code_version == PointsV2.code_version  # type: ignore[union-attr]
    assert now.lag == 0
    assert now.building is None and [b.build for b in db.builds("points")] == [2]


def test_status_says_where_a_projection_stopped_and_retry_takes_it_up_after_the_fix(
    url: str,
) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    projector = Projector(store, db, [Broken(), Points()])
    projector.attach()
    projector.catch_up()
    projector.close()  # the broken code's projector goes; the mended one comes
    broken, points = operations.status(db, store, [Broken(), Points()])
    settled = next(e for e in store.read_all(1, 10_000) if e.type == "hand_settled")
    assert broken.state == "stopped" and broken.lag == store.last_position() - settled.position + 1
    assert f"stopped at position {settled.position}" in broken.line()
    assert points.state == "live" and points.lag == 0
    with pytest.raises(LookupError, match="points is not stopped"):
        operations.retry(db, Points())
    assert [b.build for b in operations.retry(db, Mended())] == [1]
    mended = Projector(store, db, [Mended()])
    mended.attach()
    mended.catch_up()
    (after,) = operations.status(db, store, [Mended()])
    assert after.state == "live" and after.lag == 0 and after.live.error is None  # type: ignore[union-attr]


def test_a_rebuild_that_stops_at_an_event_says_where(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    db.ensure_live(Broken())
    with pytest.raises(operations.RebuildError, match="build 2 stopped at position"):
        operations.rebuild(db, store, Broken(), threading.Event(), idle_seconds=0.05)
    assert db.active_build("broken").build == 1  # type: ignore[union-attr]
