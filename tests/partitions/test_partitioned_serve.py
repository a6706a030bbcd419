"""``paiju serve`` with table stores: the demo's tables played in them, each store's timers
fired and its events projected by readers of its own in the one process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from services.demo.http_demo import Plan
from services.settings import load_settings
from services.tables.partitions import split_position
from workers.parts import Parts

FIRST = f"{Plan().room(0).room}.1"  # the demo's first table, the one with an idle seat


def test_paiju_serve_plays_the_demo_over_two_table_stores_and_projects_every_one(
    tmp_path: Path,
) -> None:
    home = f"sqlite:///{tmp_path}/home.sqlite3"
    tables = " ".join(f"{n}=sqlite:///{tmp_path}/t{n}.sqlite3" for n in (1, 2))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
        "PAIJU_STORE_URL": home, "PAIJU_TABLE_STORES": tables, "PAIJU_API_PORT": "0",
        "PAIJU_TURN_SECONDS": "1", "PAIJU_AUTOPLAY_WINDOW_SECONDS": "1", "PAIJU_CLAIM_SECONDS": "1",
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "serve", "--demo", "--tables", "4", "--pace",
         "0.2", "--for", "8"],
        env=env, capture_output=True, text=True, timeout=90, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    parts = Parts(load_settings(store_url=home, table_stores=tables))
    try:
        partitions = parts.partitions()
        spread = partitions.home.placements()  # type: ignore[attr-defined]
        assert sum(spread.values()) >= 4 and set(spread) <= {1, 2}, spread
        idle = partitions.placed(FIRST)  # the demo's table with an idle seat: timers play it
        assert idle is not None
        assert any(e.actor.kind == "timer" for e in partitions.tables[idle].read_stream(FIRST))
        for number in spread:  # every table store has tables, and its events were projected
            assert partitions.tables[number].read_all(0, 10)
            points = parts.read_models().active_build("points")
            assert points is not None and split_position(points.at(number)) > (number, 0)
        assert partitions.home.read_all(0, 100_000)  # the rooms' and players' streams
        assert all(e.stream_id.startswith(("room:", "player:")) is not False
                   for e in partitions.home.read_all(0, 100_000))  # fmt: skip
    finally:
        parts.close()
