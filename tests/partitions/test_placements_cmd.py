"""``paiju placements``: tables by store, and placements a restore lost recorded again."""

from __future__ import annotations

import sys
from contextlib import closing
from pathlib import Path

import pytest

from services.cli.main import main as paiju
from services.settings import load_settings
from workers.parts import Parts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from games import execute, opened  # noqa: E402
from test_partitioned_tables import tables_in  # noqa: E402


def test_a_placement_lost_with_an_older_home_store_is_recorded_again_where_the_events_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = f"sqlite:///{tmp_path}/home.sqlite3"
    stores = f"1=sqlite:///{tmp_path}/t1.sqlite3 2=sqlite:///{tmp_path}/t2.sqlite3"
    (one,), (two,) = tables_in(1, 1), tables_in(2, 1)
    with closing(Parts(load_settings(store_url=home, table_stores=stores, snapshot_key="k" * 32))) as parts:
        opened(parts.table_service(), one)
        opened(parts.table_service(), two)
    execute(home, "DELETE FROM table_placements WHERE table_id = %s", (two,))  # as a restore would
    monkeypatch.setenv("PAIJU_STORE_URL", home)
    monkeypatch.setenv("PAIJU_TABLE_STORES", stores)
    assert paiju(["placements"]) == 1
    said = capsys.readouterr().out
    assert "table store 2: 0 tables placed, 1 held" in said
    assert f"1 tables held with no placement (paiju placements repair): {two}" in said
    assert paiju(["placements", "repair"]) == 0
    assert f"{two}: placed in table store 2, where its events are" in capsys.readouterr().out
    assert paiju(["placements"]) == 0
    assert "table store 2: 1 tables placed, 1 held" in capsys.readouterr().out
    with closing(Parts(load_settings(store_url=home, table_stores=stores))) as parts:
        assert parts.partitions().placed(two) == 2
        assert parts.store().read_stream(two)  # routed to its store again


def test_placements_without_table_stores_says_there_are_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAIJU_STORE_URL", f"sqlite:///{tmp_path}/home.sqlite3")
    monkeypatch.delenv("PAIJU_TABLE_STORES", raising=False)
    assert paiju(["placements"]) == 2
    assert "$PAIJU_TABLE_STORES names no table store" in capsys.readouterr().err
