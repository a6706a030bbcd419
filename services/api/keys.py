"""Platform API keys: ``pk_<id>.<secret>``, shown once, kept only as a keyed hash.

The platform's backend calls the platform routes (open a table, deal, mint tokens) with
``Authorization: Bearer pk_<id>.<secret>``. The store keeps the id, the scopes and
HMAC-SHA256(pepper, secret) (plain SHA-256 without a pepper): a copy of the database calls
nothing. The hash is compared in constant time; a revoked key is refused from then on.
Keys live in the event store's database (``api_keys``, migration 0008), on either backend,
beside the dashboard sessions signed out before their end (``ended_dashboard_sessions``,
migration 0010): a session is a signed cookie, and this is what every API process checks.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from events.store.migrations import migrate_postgres, migrate_sqlite
from events.store.pool_checks import pool_checks

SCOPES = ("tables", "tokens", "operator", "reads")
"""``tables``: open tables and deal; ``tokens``: mint seat and spectator tokens; ``operator``:
mint operator tokens (everything on a table, hidden tiles too) and replay any table in the
replay viewer (``services.api.routes_replay``); ``reads``: read the read
models (points, levels, boards, statistics, live tables, rooms, penalties)."""

PREFIX = "pk_"
_KEY = re.compile(r"^pk_([0-9a-f]{16})\.([A-Za-z0-9_-]{20,100})$")


class KeyProblem(ValueError):
    """A key that cannot be created or revoked as asked; the message says why."""


@dataclass(frozen=True)
class ApiKey:
    key_id: str
    scopes: tuple[str, ...]
    label: str
    created_at: str
    revoked_at: str | None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


@dataclass(frozen=True)
class NewKey:
    key: ApiKey
    token: str
    """``pk_<id>.<secret>``: shown once, never stored."""


def check_scopes(scopes: Sequence[str]) -> tuple[str, ...]:
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown or not scopes:
        raise KeyProblem(f"scopes must be some of {', '.join(SCOPES)}; got {list(scopes)!r}")
    return tuple(sorted(set(scopes)))


class KeyStore:
    """The ``api_keys`` table of the store at ``url`` (sqlite:/// or postgresql://)."""

    def __init__(self, url: str, pepper: bytes | None = None) -> None:
        self.pepper = pepper or b""
        parts = urlsplit(url)
        if parts.scheme == "sqlite":
            self.path = parts.netloc + parts.path if parts.netloc else parts.path[1:]
            self.kind = "sqlite"
            with self._sqlite() as conn:
                migrate_sqlite(conn)
        elif parts.scheme in ("postgres", "postgresql"):
            import psycopg
            from psycopg_pool import ConnectionPool

            query = dict(parse_qsl(parts.query))
            schema = query.pop("schema", "public")
            conninfo = urlunsplit(parts._replace(query=urlencode(query)))
            with psycopg.connect(conninfo, autocommit=True) as conn:
                migrate_postgres(conn, schema)
            quoted = '"' + schema.replace('"', '""') + '"'
            self.kind = "postgres"
            self._pool: Any = ConnectionPool(
                conninfo, min_size=1, max_size=4, open=True,
                kwargs={"autocommit": True, "options": f"-c search_path={quoted}"}, **pool_checks(),
            )  # fmt: skip
        else:
            raise KeyProblem(f"no key store on {parts.scheme!r}: sqlite:/// or postgresql://")

    @contextmanager
    def _sqlite(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            yield conn
        finally:
            conn.close()

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.kind == "sqlite":
            with self._sqlite() as conn:
                return list(conn.execute(sql, params).fetchall())
        with self._pool.connection() as conn:
            cursor = conn.execute(sql.replace("?", "%s"), params)
            return list(cursor.fetchall()) if cursor.description else []

    def close(self) -> None:
        if self.kind == "postgres":
            self._pool.close()

    def _hash(self, secret: str) -> str:
        return hmac.new(self.pepper, secret.encode(), hashlib.sha256).hexdigest()

    def create(self, scopes: Sequence[str], label: str = "") -> NewKey:
        chosen = check_scopes(scopes)
        if len(label) > 200:
            raise KeyProblem("a key's label is at most 200 characters")
        key_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
        self._run(
            "INSERT INTO api_keys (key_id, secret_hash, scopes, label) VALUES (?, ?, ?, ?)",
            (key_id, self._hash(secret), " ".join(chosen), label),
        )
        found = self.get(key_id)
        assert found is not None
        return NewKey(found, f"{PREFIX}{key_id}.{secret}")

    def get(self, key_id: str) -> ApiKey | None:
        rows = self._run(
            "SELECT key_id, scopes, label, created_at, revoked_at FROM api_keys WHERE key_id = ?",
            (key_id,),
        )
        return _key(rows[0]) if rows else None

    def list(self) -> list[ApiKey]:
        rows = self._run(
            "SELECT key_id, scopes, label, created_at, revoked_at FROM api_keys ORDER BY created_at"
        )
        return [_key(row) for row in rows]

    def revoke(self, key_id: str) -> ApiKey:
        if self.get(key_id) is None:
            raise KeyProblem(f"no API key {key_id!r} (paiju keys list shows them)")
        self._run(
            "UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP"
            " WHERE key_id = ? AND revoked_at IS NULL",
            (key_id,),
        )
        found = self.get(key_id)
        assert found is not None
        return found

    def end_session(self, session_id: str, expires_at: int, now: int) -> None:
        """Record a dashboard session as signed out until ``expires_at`` (unix seconds), and
        forget those that have expired by ``now`` (their cookies are refused anyway)."""
        self._run("DELETE FROM ended_dashboard_sessions WHERE expires_at <= ?", (now,))
        self._run(
            "INSERT INTO ended_dashboard_sessions (session_id, expires_at) VALUES (?, ?)"
            " ON CONFLICT (session_id) DO NOTHING",
            (session_id, expires_at),
        )

    def session_ended(self, session_id: str) -> bool:
        rows = self._run(
            "SELECT 1 FROM ended_dashboard_sessions WHERE session_id = ?", (session_id,)
        )
        return bool(rows)

    def verify(self, token: str) -> ApiKey | None:
        """The live key ``token`` names, or None (malformed, unknown, wrong secret, revoked)."""
        match = _KEY.match(token)
        if match is None:
            return None
        key_id, secret = match.groups()
        rows = self._run(
            "SELECT key_id, scopes, label, created_at, revoked_at, secret_hash FROM api_keys"
            " WHERE key_id = ?",
            (key_id,),
        )
        # A hash is computed even for an unknown id, so timing tells nothing about ids.
        stored = str(rows[0][5]) if rows else "0" * 64
        good = hmac.compare_digest(self._hash(secret), stored)
        if not rows or not good:
            return None
        key = _key(rows[0][:5])
        return None if key.revoked else key


def _key(row: tuple[Any, ...]) -> ApiKey:
    key_id, scopes, label, created, revoked = row
    return ApiKey(
        str(key_id), tuple(str(scopes).split()), str(label), str(created),
        None if revoked is None else str(revoked),
    )  # fmt: skip
