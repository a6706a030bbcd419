"""Which partition holds each table, kept in the home store (mixed into both stores).

``place_table(table_id, partition)`` records a table's partition unless one is recorded, and
answers with the recorded one: two openers racing with different ideas of the partitions
(one process still configured with fewer) agree on the first. A placement is never changed
or deleted, so a reader may keep it for good."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from events.envelope import check_id

Row = tuple[Any, ...]


def _checked(table_id: str, partition: int) -> None:
    check_id("table_id", table_id)
    if isinstance(partition, bool) or not isinstance(partition, int) or partition < 0:
        raise ValueError(f"a partition is a whole number from 0, not {partition!r}")


class PostgresPlacements:
    """Needs the store's ``_pool``."""

    _pool: ConnectionPool[psycopg.Connection[Row]]

    def place_table(self, table_id: str, partition: int) -> int:
        _checked(table_id, partition)
        with self._pool.connection() as conn:
            row = conn.execute(
                "WITH placed AS (INSERT INTO table_placements (table_id, partition)"
                " VALUES (%s, %s) ON CONFLICT (table_id) DO NOTHING RETURNING partition)"
                " SELECT partition FROM placed UNION ALL"
                " SELECT partition FROM table_placements WHERE table_id = %s"
                " AND NOT EXISTS (SELECT 1 FROM placed)",
                (table_id, partition, table_id),
            ).fetchone()
            if row is None:  # placed by a transaction this statement's snapshot predates
                row = conn.execute("SELECT partition FROM table_placements WHERE table_id = %s",
                                   (table_id,)).fetchone()  # fmt: skip
        assert row is not None  # placed now or before: placements are never deleted
        return int(row[0])

    def placement_of(self, table_id: str) -> int | None:
        check_id("table_id", table_id)
        with self._pool.connection() as conn:
            row = conn.execute("SELECT partition FROM table_placements WHERE table_id = %s",
                               (table_id,)).fetchone()  # fmt: skip
        return None if row is None else int(row[0])

    def placements(self) -> dict[int, int]:
        """How many tables each partition holds."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT partition, count(*) FROM table_placements"
                                " GROUP BY partition").fetchall()  # fmt: skip
        return {int(p): int(n) for p, n in rows}


class SqlitePlacements:
    """Needs the store's writer lock and per-thread ``_conn()``."""

    _writer: threading.RLock

    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def place_table(self, table_id: str, partition: int) -> int:
        _checked(table_id, partition)
        with self._writer:
            self._conn().execute("INSERT INTO table_placements (table_id, partition) VALUES (?, ?)"
                                 " ON CONFLICT (table_id) DO NOTHING", (table_id, partition))  # fmt: skip
        placed = self.placement_of(table_id)
        assert placed is not None  # placed now or before: placements are never deleted
        return placed

    def placement_of(self, table_id: str) -> int | None:
        check_id("table_id", table_id)
        row = self._conn().execute("SELECT partition FROM table_placements WHERE table_id = ?",
                                   (table_id,)).fetchone()  # fmt: skip
        return None if row is None else int(row[0])

    def placements(self) -> dict[int, int]:
        rows = self._conn().execute("SELECT partition, count(*) FROM table_placements"
                                    " GROUP BY partition").fetchall()  # fmt: skip
        return {int(p): int(n) for p, n in rows}
