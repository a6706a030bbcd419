"""Client commands kept before they are queued, in the SQLite store (mixed into
``SqliteEventStore``): ``claim_request`` inserts unless the id has a request, and answers with
the first one and its outcome (``events.outcomes.RequestStore``)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from events.envelope import check_id, utc_now
from events.hashchain import format_time
from events.outcomes import CommandRequest, RequestClaim
from events.store.outcomes_sqlite import OUTCOME_COLUMNS, on_recorded, outcome_from_row

_FIRST = (
    "SELECT r.table_id, r.fingerprint, r.body, r.requested_at, "
    + ", ".join(f"o.{c.strip()}" for c in OUTCOME_COLUMNS.split(","))
    + " FROM command_requests r LEFT JOIN command_outcomes o ON o.command_id = r.command_id"
    " WHERE r.command_id = ?"
)


_UNANSWERED = (
    "SELECT r.command_id, r.table_id, r.fingerprint, r.body, r.requested_at"
    " FROM command_requests r WHERE r.requested_at < ?"
    " AND (r.resent_at IS NULL OR r.resent_at < ?)"
    " AND NOT EXISTS (SELECT 1 FROM command_outcomes o WHERE o.command_id = r.command_id)"
    " ORDER BY r.requested_at LIMIT ?"
)


class SqliteRequests:
    """Needs the store's ``path``, writer lock and per-thread ``_conn()``."""

    path: str
    _writer: threading.RLock

    def _conn(self) -> sqlite3.Connection:
        raise NotImplementedError

    def claim_request(self, request: CommandRequest) -> RequestClaim:
        check_id("command_id", request.command_id)
        check_id("table_id", request.table_id)
        with self._writer:
            inserted = self._conn().execute(
                "INSERT INTO command_requests (command_id, table_id, fingerprint, body,"
                " requested_at) VALUES (?,?,?,?,?) ON CONFLICT (command_id) DO NOTHING",
                (request.command_id, request.table_id, request.fingerprint, request.body,
                 format_time(request.requested_at)),
            ).rowcount  # fmt: skip
        if inserted == 1:
            return RequestClaim(first=True, request=request)
        found = self.find_request(request.command_id)
        assert found is not None  # there before: requests are never deleted
        return found

    def find_request(self, command_id: str) -> RequestClaim | None:
        check_id("command_id", command_id)
        row = self._conn().execute(_FIRST, (command_id,)).fetchone()
        if row is None:
            return None
        first = CommandRequest(
            command_id=command_id, table_id=row[0], fingerprint=row[1], body=row[2],
            requested_at=datetime.fromisoformat(row[3]),
        )  # fmt: skip
        outcome = None if row[4] is None else outcome_from_row(row[4:])
        return RequestClaim(first=False, request=first, outcome=outcome)

    def claim_unanswered(
        self, older_than: float, lease: float, limit: int = 100
    ) -> list[CommandRequest]:
        now = utc_now()
        before = format_time(now - timedelta(seconds=older_than))
        lease_before = format_time(now - timedelta(seconds=lease))
        conn = self._conn()
        with self._writer:
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = conn.execute(_UNANSWERED, (before, lease_before, limit)).fetchall()
                conn.executemany(
                    "UPDATE command_requests SET resent_at = ?, resends = resends + 1"
                    " WHERE command_id = ?",
                    [(format_time(now), row[0]) for row in rows],
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return [
            CommandRequest(
                command_id=r[0],
                table_id=r[1],
                fingerprint=r[2],
                body=r[3],
                requested_at=datetime.fromisoformat(r[4]),
            )  # fmt: skip
            for r in rows
        ]

    def on_outcome(self, command_id: str, wake: Callable[[], None]) -> Callable[[], None]:
        return on_recorded(self.path, command_id, wake)
