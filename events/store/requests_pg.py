"""Client commands kept before they are queued, in the PostgreSQL store (mixed into
``PostgresEventStore``): ``claim_request`` inserts unless the id has a request and answers with
the first one and its outcome, in one round trip (``events.outcomes.RequestStore``)."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from events.envelope import check_id
from events.outcomes import CommandRequest, RequestClaim
from events.store.outcomes_sqlite import OUTCOME_COLUMNS, outcome_from_row

Row = tuple[Any, ...]
_REQUEST = "r.table_id, r.fingerprint, r.body, r.requested_at"
_OUTCOME = ", ".join(f"o.{c.strip()}" for c in OUTCOME_COLUMNS.split(","))
_NULLS = ", ".join(["NULL"] * (4 + len(OUTCOME_COLUMNS.split(","))))
_EARLIER = (
    f"SELECT false, {_REQUEST}, {_OUTCOME} FROM command_requests r"
    " LEFT JOIN command_outcomes o ON o.command_id = r.command_id WHERE r.command_id = %s"
)
_CLAIM = (
    "WITH inserted AS (INSERT INTO command_requests"
    " (command_id, table_id, fingerprint, body, requested_at) VALUES (%s, %s, %s, %s, %s)"
    " ON CONFLICT (command_id) DO NOTHING RETURNING command_id)"
    f" SELECT true, {_NULLS} FROM inserted"
    f" UNION ALL ({_EARLIER} AND NOT EXISTS (SELECT 1 FROM inserted))"
)


_UNANSWERED = (
    "WITH due AS (SELECT r.command_id FROM command_requests r"
    " WHERE r.requested_at < now() - make_interval(secs => %(older_than)s)"
    " AND (r.resent_at IS NULL OR r.resent_at < now() - make_interval(secs => %(lease)s))"
    " AND NOT EXISTS (SELECT 1 FROM command_outcomes o WHERE o.command_id = r.command_id)"
    " ORDER BY r.requested_at LIMIT %(limit)s FOR UPDATE SKIP LOCKED)"
    " UPDATE command_requests r SET resent_at = now(), resends = r.resends + 1 FROM due"
    " WHERE r.command_id = due.command_id"
    " RETURNING r.command_id, r.table_id, r.fingerprint, r.body, r.requested_at"
)


class PostgresRequests:
    """Needs the store's ``_pool``."""

    _pool: ConnectionPool[psycopg.Connection[Row]]

    def claim_request(self, request: CommandRequest) -> RequestClaim:
        check_id("command_id", request.command_id)
        check_id("table_id", request.table_id)
        r = request
        with self._pool.connection() as conn:
            row = conn.execute(
                _CLAIM,
                (r.command_id, r.table_id, r.fingerprint, r.body, r.requested_at, r.command_id),
            ).fetchone()
            if row is None:  # inserted by a transaction this statement's snapshot predates
                row = conn.execute(_EARLIER, (r.command_id,)).fetchone()
        assert row is not None  # inserted, or there before: requests are never deleted
        return RequestClaim(first=True, request=request) if row[0] else _claim(r.command_id, row)

    def claim_unanswered(
        self, older_than: float, lease: float, limit: int = 100
    ) -> list[CommandRequest]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                _UNANSWERED, {"older_than": older_than, "lease": lease, "limit": limit}
            ).fetchall()
        found = [
            CommandRequest(
                command_id=r[0], table_id=r[1], fingerprint=r[2], body=r[3], requested_at=r[4]
            )  # fmt: skip
            for r in rows
        ]
        return sorted(found, key=lambda r: r.requested_at)

    def find_request(self, command_id: str) -> RequestClaim | None:
        check_id("command_id", command_id)
        with self._pool.connection() as conn:
            row = conn.execute(_EARLIER, (command_id,)).fetchone()
        return None if row is None else _claim(command_id, row)


def _claim(command_id: str, row: Row) -> RequestClaim:
    """An earlier request from a row ``(false, request columns..., outcome columns...)``."""
    first = CommandRequest(
        command_id=command_id, table_id=row[1], fingerprint=row[2], body=row[3],
        requested_at=row[4],
    )  # fmt: skip
    outcome = None if row[5] is None else outcome_from_row(row[5:])
    return RequestClaim(first=False, request=first, outcome=outcome)
