"""The webhook outbox on the embedded SQLite store's file (same contract as PostgreSQL).

Every write runs in ``BEGIN IMMEDIATE``, which takes the file's one write lock before it
reads: two reactors' ``advance`` and two dispatchers' ``claim_due`` run one after the other,
and the second sees what the first wrote. Times are this machine's clock in unix seconds
(one file, one machine).
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from events.store.migrations import migrate_sqlite
from workers.effects.outbox import (
    SENDING,
    Claim,
    Delivery,
    NewDelivery,
    Status,
    UnknownDelivery,
)

T = TypeVar("T")
COLUMNS = (
    "idempotency_key, position, stream_id, event_type, body, status, attempts, next_attempt_at,"
    " lease_token, last_status, last_error, created_at, delivered_at"
)


def _time(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


def _delivery(row: tuple[Any, ...]) -> Delivery:
    key, position, stream, type_, body, status, attempts, due, token, code, error, made, done = row
    made_at = _time(made)
    due_at = _time(due)
    assert made_at is not None and due_at is not None
    return Delivery(
        key, position, stream, type_, body.encode("utf-8"), status, attempts, due_at, token,
        code, error, made_at, _time(done),
    )  # fmt: skip


class SqliteOutbox:
    def __init__(self, path: str, *, busy_timeout: float = 30.0) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        migrate_sqlite(self._conn())

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(
                self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
            self._local.conn = conn
            with self._lock:
                self._connections.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            for conn in self._connections:
                conn.close()
            self._connections.clear()
        self._local = threading.local()

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = work(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return result

    def checkpoint(self, name: str) -> int:
        conn = self._conn()
        conn.execute(
            "INSERT INTO reactor_checkpoints (name, position, updated_at) VALUES (?, 0, ?)"
            " ON CONFLICT (name) DO NOTHING",
            (name, time.time()),
        )
        row = conn.execute(
            "SELECT position FROM reactor_checkpoints WHERE name = ?", (name,)
        ).fetchone()
        return int(row[0])

    def advance(
        self, name: str, expected: int, position: int, deliveries: Sequence[NewDelivery]
    ) -> bool:
        def work(conn: sqlite3.Connection) -> bool:
            now = time.time()
            moved = conn.execute(
                "UPDATE reactor_checkpoints SET position = ?, updated_at = ?"
                " WHERE name = ? AND position = ?",
                (position, now, name, expected),
            ).rowcount
            if moved != 1:
                return False
            conn.executemany(
                "INSERT INTO webhook_deliveries (idempotency_key, reactor, position, stream_id,"
                " event_type, body, next_attempt_at, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [
                    (d.key, name, d.position, d.stream_id, d.event_type, d.body.decode(), now,
                     now, now)
                    for d in deliveries
                ],
            )  # fmt: skip
            return True

        return self._write(work)

    def claim_due(self, limit: int, lease_seconds: float) -> list[Claim]:
        token = uuid.uuid4().hex

        def work(conn: sqlite3.Connection) -> list[Claim]:
            now = time.time()
            keys = [
                str(r[0])
                for r in conn.execute(
                    "SELECT idempotency_key FROM webhook_deliveries WHERE status = 'pending'"
                    " AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)"
                    " ORDER BY next_attempt_at, position LIMIT ?",
                    (now, now, limit),
                )
            ]
            claims = [Claim(key, f"{token}:{key}") for key in keys]
            conn.executemany(
                "UPDATE webhook_deliveries SET lease_token = ?, lease_until = ?, updated_at = ?"
                " WHERE idempotency_key = ?",
                [(c.token, now + lease_seconds, now, c.key) for c in claims],
            )
            return claims

        return self._write(work)

    def load(self, key: str) -> Delivery | None:
        row = (
            self._conn()
            .execute(f"SELECT {COLUMNS} FROM webhook_deliveries WHERE idempotency_key = ?", (key,))
            .fetchone()
        )
        return None if row is None else _delivery(row)

    def start(self, key: str, token: str, hold_seconds: float) -> Delivery | None:
        now = time.time()
        row = self._write(
            lambda conn: conn.execute(
                "UPDATE webhook_deliveries SET lease_token = ?,"
                " lease_until = max(lease_until, ?), updated_at = ?"
                " WHERE idempotency_key = ? AND lease_token = ? AND status = 'pending'"
                f" AND lease_until > ? RETURNING {COLUMNS}",
                (token + SENDING, now + hold_seconds, now, key, token, now),
            ).fetchone()
        )
        return None if row is None else _delivery(row)

    def delivered(self, key: str, token: str, http_status: int) -> bool:
        now = time.time()
        return self._write(
            lambda conn: (
                conn.execute(
                    "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,"
                    " last_status = ?, last_error = NULL, lease_until = NULL, delivered_at = ?,"
                    " updated_at = ? WHERE idempotency_key = ? AND lease_token = ?"
                    " AND status = 'pending'",
                    (http_status, now, now, key, token),
                ).rowcount
                == 1
            )
        )

    def failed(
        self, key: str, token: str, http_status: int | None, error: str, retry_in: float | None
    ) -> bool:
        status: Status = "pending" if retry_in is not None else "set_aside"
        now = time.time()
        return self._write(
            lambda conn: (
                conn.execute(
                    "UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1,"
                    " last_status = ?, last_error = ?, lease_until = NULL, next_attempt_at = ?,"
                    " updated_at = ? WHERE idempotency_key = ? AND lease_token = ?"
                    " AND status = 'pending'",
                    (status, http_status, error, now + (retry_in or 0.0), now, key, token),
                ).rowcount
                == 1
            )
        )

    def deliveries(self, status: Status | None = None, limit: int = 1000) -> list[Delivery]:
        rows = (
            self._conn()
            .execute(
                f"SELECT {COLUMNS} FROM webhook_deliveries WHERE ? IS NULL OR status = ?"
                " ORDER BY position LIMIT ?",
                (status, status, limit),
            )
            .fetchall()
        )
        return [_delivery(r) for r in rows]

    def resend(self, key: str) -> Delivery:
        now = time.time()
        row = self._write(
            lambda conn: conn.execute(
                "UPDATE webhook_deliveries SET status = 'pending', attempts = 0,"
                " next_attempt_at = ?, lease_until = NULL, lease_token = NULL, updated_at = ?"
                f" WHERE idempotency_key = ? RETURNING {COLUMNS}",
                (now, now, key),
            ).fetchone()
        )
        if row is None:
            raise UnknownDelivery(key)
        return _delivery(row)

    def seconds_to_next_due(self) -> float | None:
        row = (
            self._conn()
            .execute(
                "SELECT min(max(next_attempt_at, coalesce(lease_until, next_attempt_at)))"
                " FROM webhook_deliveries WHERE status = 'pending'"
            )
            .fetchone()
        )
        if row is None or row[0] is None:
            return None
        return max(0.0, float(row[0]) - time.time())
