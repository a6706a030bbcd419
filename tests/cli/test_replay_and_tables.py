"""``paiju replay`` and ``paiju tables``, as a new user meets them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import StoredTable, one_line, run, store_table

from events.store import open_store
from services.accounts import adjust_points


def test_tables_lists_each_table_with_its_variant_hands_events_and_last_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = store_table(tmp_path / "two.sqlite3", "tanggu", hands=2)
    status, out, _ = run(capsys, "simulate", "--variant", "shandong", "--games", "1", "--store", first.url)
    second = re.search(r"^shandong stored as table: (\S+)$", out, re.MULTILINE)
    assert status == 0 and second is not None
    status, out, _ = run(capsys, "tables", "--store", first.url)
    assert status == 0
    header, *rows = out.splitlines()
    assert header.split() == ["TABLE", "VARIANT", "HANDS", "EVENTS", "LAST", "EVENT"]
    assert [row.split()[:3] for row in rows] == [
        [first.table_id, "tanggu", "2"],
        [second.group(1), "shandong", "1"],
    ]
    assert all(re.search(r" v\d+ seed_revealed, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$", r) for r in rows)


def test_tables_lists_tables_only_and_counts_the_platforms_other_streams(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stored = store_table(tmp_path / "mixed.sqlite3", "harbin", hands=1)
    store = open_store(stored.url)
    for player in ("ann", "bo"):  # their accounts: streams player:ann, player:bo
        adjust_points(store, player, 100, "grant", command_id=f"grant-{player}")
    store.close()
    status, out, _ = run(capsys, "tables", "--store", stored.url)
    assert status == 0
    _, *rows, last = out.splitlines()
    assert [row.split()[:2] for row in rows] == [[stored.table_id, "harbin"]]
    assert last == "(and 2 other stream(s): players' accounts and rooms, not tables)"
    assert "player:" not in out and " ? " not in out


def test_tables_of_a_new_store_says_there_are_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path}/empty.sqlite3"
    assert run(capsys, "import", "-", "--store", url)[0] == 2  # an empty stdin: refused, so...
    assert not (tmp_path / "empty.sqlite3").exists()  # ...no store was created
    run(capsys, "play", "--store", url)
    status, out, _ = run(capsys, "tables", "--store", url)
    assert status == 0 and len(out.splitlines()) == 2


@pytest.mark.parametrize(("hand", "says"), [("4", "has hands 1 to 3"), ("0", "has hands 1 to 3"), ("-1", "has hands 1 to 3")])
def test_replay_of_a_hand_the_table_never_played_says_which_it_has(
    hand: str, says: str, stored: StoredTable, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "replay", stored.table_id, "--hand", hand, "--store", stored.url)
    assert status == 2 and out == ""
    assert one_line(err) == f"paiju replay: --hand {hand}: table {stored.table_id!r} {says}"


def test_replay_of_one_hand_tells_only_that_hand_then_the_checks(
    stored: StoredTable, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "replay", stored.table_id, "--hand", "2", "--store", stored.url)
    assert status == 0
    assert re.match(r"^哈尔滨麻将 \(harbin\), hand 2, seed ", out)
    assert ", hand 1," not in out and ", hand 3," not in out
    assert "-- checks --" in out


def test_replay_of_an_unknown_table_points_to_paiju_tables(
    stored: StoredTable, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "replay", "no-such-table", "--store", stored.url)
    assert status == 2
    assert one_line(err) == (
        f"paiju replay: no table 'no-such-table' in {stored.url} (paiju tables lists them)"
    )
