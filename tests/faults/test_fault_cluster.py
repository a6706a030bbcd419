"""The local cluster under faults (``paiju cluster --kills``, bounded): two APIs, two workers,
two timekeepers, two projectors and a reactor as processes on a PostgreSQL and a Redis of the
test's own, bots at 8 tables (a dozen in ``make faults``) over both APIs; every kind of part
killed with SIGKILL once (three times in ``make faults``) in turn, then Redis and PostgreSQL
restarted. Nothing a player was told is lost, nothing is recorded twice, every table verifies,
no timer is missed, every notification arrives, every projection equals its rebuild, and every
part came back. The by-hand run with 20 kills of each at 200 tables is in docs/faults.md."""

from __future__ import annotations

from pathlib import Path

from fault_scale import sized

from services.cluster import faults, load, verdict
from services.cluster.run import Cluster, Shape

KILLS = sized(1, 3)  # of each part: make test, make faults
MOVES = sized(30, 100)  # at least, played through the faults (71-83 with one kill of each)
# bots that think half a second: a fault test, not a load test (at full pace they took every
# core the suite left them, 50-66 s of CPU, and played 83 moves or 516 by how busy the box was)
TABLES = sized(8, 12)  # make test, make faults
BOTS = load.Bots(tables=TABLES, seconds=0, warmup=5, idle_every=3, turn=3, claim=2, pace=0.5)
SETTINGS = {"PAIJU_TURN_SECONDS": "3", "PAIJU_CLAIM_SECONDS": "2",
            "PAIJU_AUTOPLAY_WINDOW_SECONDS": "1", "PAIJU_VISIBILITY_TIMEOUT": "10"}  # fmt: skip


def test_the_cluster_loses_and_doubles_nothing_through_kills_of_every_part_and_server_restarts(
    tmp_path: Path,
) -> None:
    recoveries: list[faults.Recovery] = []
    with Cluster(Shape(apis=2, workers=2), SETTINGS, tmp_path) as cluster:

        def hurt(running: load.Load) -> None:
            recoveries.extend(faults.hurt(cluster, running, faults.FaultPlan(kills=KILLS, pause=0.5)))

        figures, running = load.play(cluster, BOTS, hurt)
        found = verdict.conclude(cluster, running)
    print("\n" + "\n".join(found.lines()))
    for r in faults.summary(recoveries):
        print(f"  {r.kind:<11} faults {r.faults}, not recovered {r.failed}, back median {r.back_median:.2f} s"
              f" (worst {r.back_worst:.2f}), moves again {r.moving_median:.2f} s (worst {r.moving_worst:.2f})")
    assert len(recoveries) == 5 * KILLS + 2
    assert [r.fault for r in recoveries if r.back_s is None or r.moving_s is None] == []
    # a killed API's seats open their streams again (a stream given up leaves its table unheard)
    assert [r.fault for r in recoveries if r.kind == "api" and r.streams_s is None] == []
    assert figures.moves > MOVES and found.acknowledged > MOVES
    assert found.lost == []
    assert found.log.doubled_command_ids == [] and found.log.version_gaps == []
    assert found.log.not_replaying == []
    assert found.log.by_type["wait_timed_out"] > 0 and found.overdue == [] and running.looks > 0
    assert found.notifications_due > 0 and found.notifications_missing == 0
    assert found.projections is not None and found.projections.differing == []
    assert found.projections_behind == []
    assert found.ok
