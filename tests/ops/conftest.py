"""Fixtures of the operations tests: a private redis-server the test may stop (never the
machine's), and a SQLite store of the test's own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ops_kit import private_redis  # noqa: F401  (the fixture: the fault tests' own)

from events.store import open_store


@pytest.fixture
def store_url(tmp_path: Path) -> Iterator[str]:
    """A migrated SQLite store, so parts started on it find it ready."""
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    open_store(url).close()
    yield url
