"""``paiju backup --partition N`` and ``paiju restore --partition N``: each store of a
deployment copied and put back on its own, by its number in ``PAIJU_TABLE_STORES``."""

from __future__ import annotations

import sys
from contextlib import closing
from pathlib import Path

import pytest

from events.store import open_store
from services.cli.main import main as paiju
from services.settings import load_settings
from workers.parts import Parts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from games import Bots, opened  # noqa: E402
from test_partitioned_tables import tables_in  # noqa: E402


def test_a_table_store_is_backed_up_and_restored_by_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, stores = (
        f"sqlite:///{tmp_path}/home.sqlite3",
        f"1=sqlite:///{tmp_path}/t1.sqlite3 2=sqlite:///{tmp_path}/t2.sqlite3",
    )
    with closing(
        Parts(load_settings(store_url=home, table_stores=stores, snapshot_key="k" * 32))
    ) as parts:
        service = parts.table_service()
        (table,) = tables_in(2, 1)
        Bots(service, table).play_hand(opened(service, table))
        events = len(parts.partitions().tables[2].read_stream(table))
    monkeypatch.setenv("PAIJU_STORE_URL", home)
    monkeypatch.setenv("PAIJU_TABLE_STORES", stores)
    backup = tmp_path / "t2.backup"
    assert paiju(["backup", "--partition", "2", str(backup)]) == 0
    assert f"backed up sqlite:///{tmp_path}/t2.sqlite3 to {backup} ({events} events" in capsys.readouterr().out
    monkeypatch.setenv("PAIJU_TABLE_STORES", f"2=sqlite:///{tmp_path}/t2-restored.sqlite3")
    assert paiju(["restore", str(backup), "--partition", "2"]) == 0
    assert "t2-restored.sqlite3: 1 tables, 0 other streams" in capsys.readouterr().out
    restored = open_store(f"sqlite:///{tmp_path}/t2-restored.sqlite3")
    assert len(restored.read_stream(table)) == events
    restored.close()
    assert paiju(["backup", "--partition", "7", str(tmp_path / "x")]) == 2
    assert (
        "--partition 7: $PAIJU_TABLE_STORES names no table store 7 (table stores: 2;"
        in capsys.readouterr().err
    )
    assert paiju(["backup", "--partition", "2", "--store", home, str(tmp_path / "y")]) == 2
    assert "give --store or --partition, not both" in capsys.readouterr().err


def test_the_store_reading_commands_take_a_table_store_by_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, stores = f"sqlite:///{tmp_path}/home.sqlite3", f"1=sqlite:///{tmp_path}/t1.sqlite3"
    with closing(Parts(load_settings(store_url=home, table_stores=stores, snapshot_key="k" * 32))) as parts:
        (table,) = tables_in(1, 1, (1,))
        Bots(parts.table_service(), table).play_hand(opened(parts.table_service(), table))
    monkeypatch.setenv("PAIJU_STORE_URL", home)
    monkeypatch.setenv("PAIJU_TABLE_STORES", stores)
    assert paiju(["tables", "--partition", "1"]) == 0
    assert table in capsys.readouterr().out
    assert paiju(["replay", table, "--partition", "1"]) == 0
    assert paiju(["verify", "--partition", "1"]) == 0
    capsys.readouterr()
    assert paiju(["tables", "--partition", "0"]) == 0
    assert table not in capsys.readouterr().out  # the home store holds no table
