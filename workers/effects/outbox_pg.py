"""The webhook outbox on PostgreSQL. Times come from the database's clock (``now()``), so
leases and backoff agree across every process that shares the database.

Two reactors at once: ``advance`` updates the checkpoint row first, ``WHERE position =
expected``; the second transaction waits on the row lock, then finds the position moved and
updates nothing, and its rows are never inserted. Two dispatchers at once: ``claim_due``
takes rows ``FOR UPDATE SKIP LOCKED`` and leases them.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from events.store.migrations import migrate_postgres
from events.store.pool_checks import pool_checks
from workers.effects.outbox import (
    SENDING,
    Claim,
    Delivery,
    NewDelivery,
    Status,
    UnknownDelivery,
)

Row = tuple[Any, ...]
COLUMNS = (
    "idempotency_key, position, stream_id, event_type, body, status, attempts, next_attempt_at,"
    " lease_token, last_status, last_error, created_at, delivered_at"
)


def _delivery(row: Row) -> Delivery:
    values = list(row)
    values[4] = str(values[4]).encode("utf-8")
    return Delivery(*values)


class PostgresOutbox:
    def __init__(self, conninfo: str, *, schema: str = "public", max_size: int = 4) -> None:
        with psycopg.connect(conninfo, autocommit=True) as conn:
            migrate_postgres(conn, schema)
        quoted = '"' + schema.replace('"', '""') + '"'
        self._pool: ConnectionPool[psycopg.Connection[Row]] = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=max_size,
            open=True,
            kwargs={"autocommit": True, "options": f"-c search_path={quoted}"},
            **pool_checks(),
        )

    def close(self) -> None:
        self._pool.close()

    def checkpoint(self, name: str) -> int:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO reactor_checkpoints (name, position) VALUES (%s, 0)"
                " ON CONFLICT (name) DO NOTHING",
                (name,),
            )
            row = conn.execute(
                "SELECT position FROM reactor_checkpoints WHERE name = %s", (name,)
            ).fetchone()
        assert row is not None
        return int(row[0])

    def advance(
        self, name: str, expected: int, position: int, deliveries: Sequence[NewDelivery]
    ) -> bool:
        with self._pool.connection() as conn, conn.transaction():
            moved = conn.execute(
                "UPDATE reactor_checkpoints SET position = %s, updated_at = now()"
                " WHERE name = %s AND position = %s",
                (position, name, expected),
            ).rowcount
            if moved != 1:
                return False
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO webhook_deliveries (idempotency_key, reactor, position,"
                    " stream_id, event_type, body) VALUES (%s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT DO NOTHING",  # a rewound checkpoint sends nothing twice
                    [
                        (d.key, name, d.position, d.stream_id, d.event_type, d.body.decode())
                        for d in deliveries
                    ],
                )
        return True

    def claim_due(self, limit: int, lease_seconds: float) -> list[Claim]:
        token = uuid.uuid4().hex
        with self._pool.connection() as conn:
            rows = conn.execute(
                "UPDATE webhook_deliveries SET lease_token = %s || ':' || idempotency_key,"
                " lease_until = now() + make_interval(secs => %s), updated_at = now()"
                " WHERE idempotency_key IN (SELECT idempotency_key FROM webhook_deliveries"
                "  WHERE status = 'pending' AND next_attempt_at <= now()"
                "  AND (lease_until IS NULL OR lease_until < now())"
                "  ORDER BY next_attempt_at, position LIMIT %s FOR UPDATE SKIP LOCKED)"
                " RETURNING idempotency_key, lease_token, position",
                (token, lease_seconds, limit),
            ).fetchall()
        rows.sort(key=lambda r: int(r[2]))
        return [Claim(str(r[0]), str(r[1])) for r in rows]

    def load(self, key: str) -> Delivery | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                f"SELECT {COLUMNS} FROM webhook_deliveries WHERE idempotency_key = %s", (key,)
            ).fetchone()
        return None if row is None else _delivery(row)

    def start(self, key: str, token: str, hold_seconds: float) -> Delivery | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "UPDATE webhook_deliveries SET lease_token = %s,"
                " lease_until = greatest(lease_until, now() + make_interval(secs => %s)),"
                " updated_at = now() WHERE idempotency_key = %s AND lease_token = %s"
                f" AND status = 'pending' AND lease_until > now() RETURNING {COLUMNS}",
                (token + SENDING, hold_seconds, key, token),
            ).fetchone()
        return None if row is None else _delivery(row)

    def delivered(self, key: str, token: str, http_status: int) -> bool:
        with self._pool.connection() as conn:
            return (
                conn.execute(
                    "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,"
                    " last_status = %s, last_error = NULL, lease_until = NULL,"
                    " delivered_at = now(), updated_at = now()"
                    " WHERE idempotency_key = %s AND lease_token = %s AND status = 'pending'",
                    (http_status, key, token),
                ).rowcount
                == 1
            )

    def failed(
        self, key: str, token: str, http_status: int | None, error: str, retry_in: float | None
    ) -> bool:
        status: Status = "pending" if retry_in is not None else "set_aside"
        with self._pool.connection() as conn:
            return (
                conn.execute(
                    "UPDATE webhook_deliveries SET status = %s, attempts = attempts + 1,"
                    " last_status = %s, last_error = %s, lease_until = NULL,"
                    " next_attempt_at = now() + make_interval(secs => %s), updated_at = now()"
                    " WHERE idempotency_key = %s AND lease_token = %s AND status = 'pending'",
                    (status, http_status, error, retry_in or 0.0, key, token),
                ).rowcount
                == 1
            )

    def deliveries(self, status: Status | None = None, limit: int = 1000) -> list[Delivery]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                f"SELECT {COLUMNS} FROM webhook_deliveries"
                " WHERE %s::text IS NULL OR status = %s ORDER BY position LIMIT %s",
                (status, status, limit),
            ).fetchall()
        return [_delivery(r) for r in rows]

    def resend(self, key: str) -> Delivery:
        with self._pool.connection() as conn:
            row = conn.execute(
                "UPDATE webhook_deliveries SET status = 'pending', attempts = 0,"
                " next_attempt_at = now(), lease_until = NULL, lease_token = NULL,"
                f" updated_at = now() WHERE idempotency_key = %s RETURNING {COLUMNS}",
                (key,),
            ).fetchone()
        if row is None:
            raise UnknownDelivery(key)
        return _delivery(row)

    def seconds_to_next_due(self) -> float | None:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT extract(epoch FROM min(greatest(next_attempt_at,"
                " coalesce(lease_until, next_attempt_at))) - now())"
                " FROM webhook_deliveries WHERE status = 'pending'"
            ).fetchone()
        if row is None or row[0] is None:
            return None
        return max(0.0, float(row[0]))
