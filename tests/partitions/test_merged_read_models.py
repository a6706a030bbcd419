"""Read models over every partition: a player's points, title and statistics merged from the
tables of every store, a checkpoint per partition, read-your-writes by the partition's own
position, and a rebuild that replays every partition and equals the live models."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from partition_kit import Deploy, caught_up

from ops.health import DeploymentLook
from readmodels import operations
from readmodels.compare import compare_with_rebuild
from readmodels.points_queries import POINTS, balance, history
from readmodels.queries import ReadModelBehind, wait_for
from readmodels.queries_boards import level
from services.accounts import adjust_points
from services.api.dashboard_health import lag_figure
from services.rooms.service import RoomService
from services.rooms.starter import DirectStarter
from services.rules.events.rooms import RoomConfigured
from services.rules.levels import level_title
from services.tables.partitions import split_position
from workers.parts import Parts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from games import PLAYERS, Bots, execute, opened  # noqa: E402
from test_partitioned_tables import tables_in  # noqa: E402


def played(parts: Parts, tables: list[str]) -> None:
    service = parts.table_service()
    for n, table in enumerate(tables):
        Bots(service, table, seed=n).play_hand(opened(service, table))


def project(parts: Parts) -> None:
    """Each partition's projector, the home store's first (the rebuilds compared with the live
    models feed the last partition first: an order of partitions must not matter)."""
    for partition in sorted(parts.logs()):
        caught_up(parts, partition)


def settled(parts: Parts, player: str) -> tuple[int, int]:
    """The player's 积分 and level score, summed from the events of every store."""
    points = score = 0
    for store in parts.partitions().readers().values():
        seats: dict[str, int] = {}
        for event in store.read_all(0, 100_000):
            if event.type == "table_opened" and player in event.payload["players"]:
                seats[event.stream_id] = event.payload["players"].index(player)
            elif event.type == "hand_settled" and event.stream_id in seats:
                seat, p = seats[event.stream_id], event.payload
                points += p["payments"][seat] + p.get("hand_payments", [0] * 4)[seat]
                score += p["level_scores"][seat]
            elif event.type == "points_adjusted" and event.payload["player"] == player:
                points += event.payload["amount"]
    return points, score


def test_a_player_at_tables_of_two_partitions_has_one_balance_and_one_title(deploy: Deploy) -> None:
    parts = deploy(2)
    adjust_points(parts.store(), "ann", 500, "grant", command_id="grant-ann")  # the home store's
    played(parts, [*tables_in(1, 2), *tables_in(2, 2)])
    project(parts)
    db = parts.read_models()
    points, score = settled(parts, "ann")
    found = balance(db, "ann")
    assert found.points == points and found.lines == 5  # a grant and four hands
    lines = history(db, "ann", size=10).items
    assert lines[0].balance == points and lines[-1].balance == 500  # the grant, the oldest
    assert [a.balance - a.amount for a in lines[:-1]] == [b.balance for b in lines[1:]]
    title = level(db, "ann", "harbin")
    assert title.level_score == score and title.title == level_title(score)


def rooms_started(parts: Parts, rooms: list[str]) -> list[str]:
    """Four players join and ready in each room (the home store's streams); the tables the
    rooms start are placed in the table stores. Their ids."""
    service = RoomService(parts.store(), DirectStarter(parts.table_service()))
    for room in rooms:
        service.configure(
            RoomConfigured(room=room, variant="harbin", base_stake=1, minimum_points=0)
        )
        for player in (f"{p}-{room}" for p in ("ann", "bo", "cy", "di")):
            service.join(room, player)
            service.ready(room, player)
    return [f"{room}.1" for room in rooms]


def test_a_rebuild_of_every_partition_equals_the_live_read_models(deploy: Deploy) -> None:
    parts = deploy(2)
    adjust_points(parts.store(), "bo", 200, "grant", command_id="grant-bo")
    played(parts, [*tables_in(1, 2), *tables_in(2, 1)])
    started = rooms_started(parts, ["east", "west", "south"])
    assert {parts.partitions().placed(t) for t in started} <= {1, 2}
    project(parts)
    found = compare_with_rebuild(parts.store(), parts.read_models(), logs=parts.logs())
    assert found.differing == [] and found.rows > 0
    assert found.events == sum(len(s.read_all(0, 100_000))
                               for s in parts.partitions().readers().values())  # fmt: skip


def test_read_your_writes_waits_for_the_partition_a_position_names(deploy: Deploy) -> None:
    parts = deploy(2)
    (one,), (two,) = tables_in(1, 1), tables_in(2, 1)
    played(parts, [one])
    project(parts)
    db = parts.read_models()
    last_of_one = parts.store().read_stream(one)[-1].position
    assert wait_for(db, POINTS, last_of_one, wait_seconds=0).reached(last_of_one)
    played(parts, [two])
    last_of_two = parts.store().read_stream(two)[-1].position
    assert split_position(last_of_two)[0] == 2
    with pytest.raises(ReadModelBehind, match="no build|behind"):
        wait_for(db, POINTS, last_of_two, wait_seconds=0)  # partition 2 not projected yet
    assert wait_for(db, POINTS, last_of_one, wait_seconds=0)  # partition 1's write still read
    caught_up(parts, 2)
    assert wait_for(db, POINTS, last_of_two, wait_seconds=0).reached(last_of_two)


def test_projections_status_names_each_partitions_lag(deploy: Deploy) -> None:
    parts = deploy(2)
    played(parts, [*tables_in(1, 1), *tables_in(2, 1)])
    caught_up(parts, 1)
    found = {s.name: s for s in operations.status(parts.read_models(), parts.store(),
                                                  [POINTS], parts.logs())}  # fmt: skip
    rows = found["points"].as_dict()["live"]["partitions"]
    two = len(parts.partitions().tables[2].read_all(0, 100_000))
    assert [r["partition"] for r in rows] == [0, 1, 2]
    assert rows[1]["lag"] == 0 and rows[2] == {
        "partition": 2,
        "head": two,
        "position": 0,
        "lag": two,
    }
    assert found["points"].lag == two
    assert "by partition: 0 at 0 of 0 (lag 0), 1 at" in found["points"].line()


class Slow:
    """A projection that holds each settlement's batch open a while, so two partitions'
    settlements, each reading and adding to the same players' balances, overlap in time."""

    def __init__(self, projection: Any) -> None:
        self.name, self.code_version, self.tables = (
            projection.name,
            projection.code_version,
            projection.tables,
        )
        self.projection = projection

    def apply(self, event: Any, rows: Any) -> None:
        self.projection.apply(event, rows)
        if event.type == "hand_settled":
            time.sleep(0.3)


def test_projectors_of_two_partitions_at_once_lose_no_update_to_a_shared_row(
    deploy: Deploy,
) -> None:
    """Both partitions' batches add to the same players' balances: they take turns on the
    build, else one's read-add-write overwrote the other's (found by a store stopped mid-run)."""
    parts = deploy(2)
    played(parts, [*tables_in(1, 2), *tables_in(2, 2)])
    projectors = [parts.projector([Slow(POINTS)], batch=50, partition=p) for p in (1, 2)]
    for projector in projectors:
        projector.attach()
    threads = [threading.Thread(target=p.catch_up) for p in projectors]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    for projector in projectors:
        projector.close()
        projector.db.close()
    db = parts.read_models()
    for player in PLAYERS:
        assert balance(db, player).points == settled(parts, player)[0], player


def test_the_health_checks_and_gauges_count_every_table_stores_lag_and_timers(
    deploy: Deploy,
) -> None:
    parts = deploy(2)
    played(parts, [*tables_in(2, 1)])
    caught_up(parts, 0)  # the builds made; nothing of the table stores applied
    look = DeploymentLook(parts.settings)
    two = len(parts.partitions().tables[2].read_all(0, 100_000))
    assert look.lags()["points"] == (two, None)
    assert look.head() == two
    assert look.timers_due() == 0  # the hand is over: no wait, no timer
    service = parts.table_service()
    (table,) = tables_in(1, 1)
    opened(service, table)  # a turn is waited on in table store 1, its timer due in 30 s
    assert parts.partitions().tables[1].timers_of(table)  # type: ignore[attr-defined]
    url = parts.settings.table_store_urls()[1]  # its due time moved to the past, by hand
    execute(url, "UPDATE timers SET due_at = 0" if url.startswith("sqlite") else
            "UPDATE timers SET due_at = now() - interval '1 minute'")  # fmt: skip
    assert look.timers_due() == 1  # a timer overdue in a table store is seen


def test_the_dashboards_lag_names_the_store_a_read_model_is_behind_in(deploy: Deploy) -> None:
    parts = deploy(2)
    played(parts, [*tables_in(2, 1)])
    caught_up(parts, 0)
    figure = lag_figure(parts.read_models(), parts.store(), parts.logs())
    two = len(parts.partitions().tables[2].read_all(0, 100_000))
    assert figure.value == str(two) and f"points {two} (store 2: {two})" in figure.detail


def test_four_partitions_merge_into_one_balance_and_a_rebuild_equal_to_the_live_models(deploy: Deploy) -> None:
    parts = deploy(4)
    every = (1, 2, 3, 4)
    tables = [tables_in(n, 1, every)[0] for n in every]
    played(parts, tables)
    started = rooms_started(parts, ["north"])
    assert {parts.partitions().placed(t) for t in tables} == set(every)
    project(parts)
    db = parts.read_models()
    assert balance(db, "ann").points == settled(parts, "ann")[0]
    assert balance(db, "ann").lines == 4
    found = compare_with_rebuild(parts.store(), db, logs=parts.logs())
    assert found.differing == [] and parts.partitions().placed(started[0]) in every
