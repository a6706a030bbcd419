"""Event stores: the contract in ``events.store.base``, SQLite (embedded default)
in ``events.store.sqlite``, PostgreSQL in ``events.store.postgres``.

``open_store(url)`` picks one from a URL: ``sqlite:///relative.sqlite3``,
``sqlite:////absolute/path.sqlite3`` or
``postgresql://...`` (an optional ``?schema=name`` places the tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from events.store.base import (
    CommandConflictError,
    ConcurrencyError,
    EventStore,
    SeedError,
    Snapshot,
    StoreError,
)

__all__ = [
    "CommandConflictError",
    "ConcurrencyError",
    "EventStore",
    "SeedError",
    "Snapshot",
    "StoreError",
    "StoreLocation",
    "open_store",
    "parse_store_url",
]


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """Where a store URL points: a SQLite file, or a PostgreSQL database and schema."""

    backend: Literal["sqlite", "postgres"]
    path: str = ""  # sqlite
    conninfo: str = ""  # postgres
    schema: str = "public"


def parse_store_url(url: str) -> StoreLocation:
    """``sqlite:///relative/file``, ``sqlite:////absolute/file`` (as SQLAlchemy spells them) or
    ``postgresql://...[?schema=name]``; anything else is refused by name."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        path = parts.netloc + parts.path if parts.netloc else parts.path[1:]
        if not path:
            raise ValueError("a sqlite store URL names a file: sqlite:///paiju.sqlite3")
        return StoreLocation("sqlite", path=path)
    if parts.scheme in ("postgres", "postgresql"):
        query = dict(parse_qsl(parts.query))
        schema = query.pop("schema", "public")
        conninfo = urlunsplit(parts._replace(query=urlencode(query)))
        return StoreLocation("postgres", conninfo=conninfo, schema=schema)
    raise ValueError(f"unknown store URL scheme {parts.scheme!r} (use sqlite:// or postgresql://)")


def open_store(url: str) -> EventStore:
    where = parse_store_url(url)
    if where.backend == "sqlite":
        from events.store.sqlite import SqliteEventStore

        return SqliteEventStore(where.path)
    from events.store.postgres import PostgresEventStore

    return PostgresEventStore(where.conninfo, schema=where.schema)
