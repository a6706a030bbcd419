"""The store the CLI tests read: a few hands the bots played, written once per module."""

from __future__ import annotations

import pytest
from clirun import StoredTable, store_table


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> StoredTable:
    """Three 哈尔滨 hands in a store of their own (tests only read it)."""
    return store_table(tmp_path_factory.mktemp("stored") / "stored.sqlite3")
