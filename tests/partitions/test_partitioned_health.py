"""``paiju health --partition N``: a table store's readers judged by their own heartbeats."""

from __future__ import annotations

import time
from pathlib import Path

from events.store import open_store
from ops.health import Heartbeat, assess, board_for
from services.cli.main import main as paiju
from services.settings import load_settings


def test_a_table_stores_timekeeper_is_judged_by_its_own_heartbeats(tmp_path: Path) -> None:
    settings = load_settings(store_url=f"sqlite:///{tmp_path}/home.sqlite3",
                             table_stores=f"1=sqlite:///{tmp_path}/t1.sqlite3 2=sqlite:///{tmp_path}/t2.sqlite3")  # fmt: skip
    for name in ("home", "t1", "t2"):  # the stores made, as the parts would at start
        open_store(f"sqlite:///{tmp_path}/{name}.sqlite3").close()
    board = board_for(settings)
    board.write(Heartbeat("timekeeper", "host:1", time.time(), [], {"partition": 0}))
    board.write(Heartbeat("timekeeper", "host:2@2", time.time(), ["timekeeper loop stuck for 99 s"],
                          {"partition": 2}))  # fmt: skip
    two = assess(settings, ["timekeeper"], partition=2)
    assert not two.healthy and two.parts[0].problems == ["timekeeper loop stuck for 99 s"]
    assert [i["instance"] for i in two.parts[0].instances] == ["host:2@2"]
    assert assess(settings, ["timekeeper"], partition=0).healthy  # the home store's is fine
    one = assess(settings, ["timekeeper"], partition=1)  # none runs for table store 1
    assert not one.healthy and "no timekeeper heartbeat" in one.parts[0].problems[0]


def test_paiju_health_refuses_a_partition_the_settings_do_not_name(
    tmp_path: Path, capsys: object, monkeypatch: object
) -> None:
    monkeypatch.setenv("PAIJU_STORE_URL", f"sqlite:///{tmp_path}/home.sqlite3")  # type: ignore[attr-defined]
    monkeypatch.setenv("PAIJU_TABLE_STORES", f"1=sqlite:///{tmp_path}/t1.sqlite3")  # type: ignore[attr-defined]
    assert paiju(["health", "--part", "timekeeper", "--partition", "3"]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "--partition 3: $PAIJU_TABLE_STORES names no table store 3 (table stores: 1" in err
