"""Where a table lives: a stable choice among the table stores, recorded when it opens."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from events.store import open_store
from services.settings import SettingsError, load_settings
from services.tables.partitions import (
    LazyStores,
    PartitionError,
    Partitions,
    merged_position,
    parse_table_stores,
    partition_for,
    split_position,
)


@pytest.mark.parametrize(("text", "named"), [
    ("postgresql://x", "is not NUMBER=STORE_URL"),
    ("0=sqlite:///a.sqlite3", "a number from 1 to 4095 (0 is the home store)"),
    ("1=sqlite:///a.sqlite3 1=sqlite:///b.sqlite3", "table store 1 is named twice"),
    ("1=sqlite:///a.sqlite3 2=sqlite:///a.sqlite3", "two table stores name the same store URL"),
])  # fmt: skip
def test_a_table_store_setting_that_cannot_be_used_is_refused_saying_why(
    text: str, named: str
) -> None:
    with pytest.raises(PartitionError, match=re.escape(named)):
        parse_table_stores(text)
    with pytest.raises(SettingsError, match="PAIJU_TABLE_STORES"):
        load_settings(table_stores=text)


def test_table_stores_are_read_by_number_with_spaces_commas_or_lines_between() -> None:
    found = parse_table_stores("1=sqlite:///a.sqlite3,\n 7=postgresql://h/db?schema=t7")
    assert found == {1: "sqlite:///a.sqlite3", 7: "postgresql://h/db?schema=t7"}
    assert parse_table_stores("") == {}


@pytest.mark.parametrize("count", [2, 4])
def test_200_tables_spread_over_the_partitions_none_past_half_again_the_mean(count: int) -> None:
    spread = Counter(partition_for(f"table-{n}", range(1, count + 1)) for n in range(200))
    assert set(spread) == set(range(1, count + 1))
    assert max(spread.values()) <= 1.5 * 200 / count, spread


def test_a_partition_added_later_takes_only_new_tables_and_moves_no_open_one(
    tmp_path: Path,
) -> None:
    home = open_store(f"sqlite:///{tmp_path}/home.sqlite3")
    stores = {k: open_store(f"sqlite:///{tmp_path}/t{k}.sqlite3") for k in (1, 2, 3)}
    before = Partitions(home, {1: stores[1], 2: stores[2]})
    placed = {f"t{n}": before.place(f"t{n}") for n in range(60)}
    after = Partitions(home, stores)  # an operator added table store 3; a new process
    assert {t: after.place(t) for t in placed} == placed
    assert {t: after.placed(t) for t in placed} == placed
    newer = Counter(after.place(f"new{n}") for n in range(60))
    assert newer[3] > 0, "the new partition takes its share of new tables"
    assert all(home.placement_of(t) == p for t, p in placed.items())  # type: ignore[attr-defined]
    home.close()
    for store in stores.values():
        store.close()


def test_two_processes_configured_apart_agree_on_the_first_ones_choice(tmp_path: Path) -> None:
    home = open_store(f"sqlite:///{tmp_path}/home.sqlite3")
    stores = {k: open_store(f"sqlite:///{tmp_path}/t{k}.sqlite3") for k in (1, 2, 3, 4)}
    table = next(f"t{n}" for n in range(100) if partition_for(f"t{n}", (1, 2, 3, 4)) == 4)
    first = Partitions(home, stores).place(table)
    assert first == 4
    behind = Partitions(home, {k: stores[k] for k in (1, 2, 3, 4)})
    assert behind.place(table) == 4
    old = Partitions(home, {k: stores[k] for k in (1, 2)})  # not told of store 4 yet
    with pytest.raises(
        PartitionError, match="table store 4, which this process is not configured with"
    ):
        old.place(table)
    home.close()


def test_a_merged_position_keeps_the_partition_above_the_stores_position() -> None:
    assert merged_position(0, 123) == 123  # the home store's positions read as they always did
    assert split_position(merged_position(3, 77)) == (3, 77)
    assert merged_position(1, 1) > merged_position(0, 10**12)
    with pytest.raises(PartitionError, match="past 2\\*\\*40"):
        merged_position(1, 2**40)


def test_a_table_store_is_opened_only_when_a_table_of_it_is_asked_for(tmp_path: Path) -> None:
    opened: list[int] = []

    def opener(number: int) -> object:
        def open_it() -> object:
            opened.append(number)
            return open_store(f"sqlite:///{tmp_path}/t{number}.sqlite3")

        return open_it

    home = open_store(f"sqlite:///{tmp_path}/home.sqlite3")
    partitions = Partitions(home, LazyStores({n: opener(n) for n in (1, 2, 3)}))  # type: ignore[dict-item]
    table = next(f"t{n}" for n in range(100) if partition_for(f"t{n}", (1, 2, 3)) == 2)
    assert partitions.place(table) == 2 and 3 in partitions.tables and opened == []
    partitions.store(partitions.placed(table) or 0).read_stream(table)
    assert opened == [2]  # a reader of partition 2 connects to store 2 alone
    partitions.close()
