"""The projector: rows and checkpoint move together, two projectors count nothing twice, a
poison event stops its projection at it (saying where and why) while the others go on."""

from __future__ import annotations

import threading
from typing import ClassVar

import pytest
from projection_kit import play_series, rows_of

from events.envelope import RecordedEvent
from events.store import open_store
from readmodels.base import Rows, TableSpec
from readmodels.db import open_projection_db
from readmodels.points import Points
from readmodels.runner import Projector

PLAYERS = ("ann", "bo", "cy", "di")


class Broken:
    """A projection that cannot apply the first hand_settled (a poison event for it)."""

    name: ClassVar[str] = "broken"
    code_version: ClassVar[int] = 1
    tables: ClassVar[tuple[TableSpec, ...]] = (
        TableSpec("broken_seen", (("position", "int"),), ("position",)),
    )

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        if event.type == "hand_settled":
            raise ValueError("no rule for this settlement")
        rows.put("broken_seen", {"position": event.position}, {})


def balances(url: str) -> dict[str, int]:
    rows = rows_of(open_projection_db(url), Points(), "points_balances")
    return {r["player"]: r["points"] for r in rows}


def test_points_are_what_the_tables_paid_and_charged(url: str) -> None:
    store = open_store(url)
    first = play_series(store, "t1", "shanghai", PLAYERS, hands=2, leaver=1)
    second = play_series(store, "t2", "tanggu", ("ann", "bo", "eve", "fay"), hands=2)
    projector = Projector(store, open_projection_db(url), [Points()])
    projector.attach()
    projector.catch_up()
    expected: dict[str, int] = {}
    for players, state in ((PLAYERS, first), (("ann", "bo", "eve", "fay"), second)):
        for seat, player in enumerate(players):
            expected[player] = expected.get(player, 0) + state.series.scores[seat]
    assert balances(url) == expected
    penalties = [r for r in rows_of(open_projection_db(url), Points(), "points_history")
                 if r["cause"] == "penalty"]  # fmt: skip
    assert penalties and {r["table_id"] for r in penalties} == {"t1"}  # 上海's 逃跑处罚


def test_two_projectors_at_once_count_nothing_twice(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=3)
    projectors = [Projector(open_store(url), open_projection_db(url), [Points()], batch=7)
                  for _ in range(2)]  # fmt: skip
    for p in projectors:
        p.attach()
    threads = [threading.Thread(target=p.catch_up) for p in projectors]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    lines = rows_of(open_projection_db(url), Points(), "points_history")
    assert len(lines) == len({(r["position"], r["seat"]) for r in lines}) == 3 * 4
    assert sum(p.consumers[0].applied for p in projectors) == store.last_position()  # type: ignore[attr-defined]


def test_a_poison_event_stops_its_projection_there_and_the_others_go_on(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=2)
    db = open_projection_db(url)
    projector = Projector(store, db, [Broken(), Points()], batch=50)
    projector.attach()
    projector.catch_up()
    settled = [e for e in store.read_stream("t1") if e.type == "hand_settled"]
    (broken,) = db.builds("broken")
    assert broken.position == settled[0].position - 1  # every event before it applied
    assert broken.error_position == settled[0].position
    assert "hand_settled of t1" in (broken.error or "") and "no rule for this settlement" in (
        broken.error or ""
    )
    (points,) = db.builds("points")
    assert points.position == store.last_position() and points.error is None  # type: ignore[attr-defined]
    assert len(rows_of(db, Broken(), "broken_seen")) == settled[0].position - 1


def test_a_batch_that_fails_writes_none_of_its_rows(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    projector = Projector(store, db, [Broken()], batch=10_000)
    projector.attach()
    consumer = projector.consumers[0]
    events = store.read_all(1, 10_000)
    with pytest.raises(ValueError):
        projector._apply(consumer, events)  # the whole batch, with the poison event in it
    assert rows_of(db, Broken(), "broken_seen") == [] and db.builds("broken")[0].position == 0
