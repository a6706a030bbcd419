"""Event stores: the contract in ``events.store.base``, SQLite (embedded default)
in ``events.store.sqlite``, PostgreSQL in ``events.store.postgres``.

``open_store(url)`` picks one from a URL: ``sqlite:///relative.sqlite3``,
``sqlite:////absolute/path.sqlite3`` or
``postgresql://...`` (an optional ``?schema=name`` places the tables).
"""

from __future__ import annotations

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
    "open_store",
]


def open_store(url: str) -> EventStore:
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        from events.store.sqlite import SqliteEventStore

        # sqlite:///relative/file and sqlite:////absolute/file, as SQLAlchemy spells them
        path = parts.netloc + parts.path if parts.netloc else parts.path[1:]
        if not path:
            raise ValueError("a sqlite store URL names a file: sqlite:///paiju.sqlite3")
        return SqliteEventStore(path)
    if parts.scheme in ("postgres", "postgresql"):
        from events.store.postgres import PostgresEventStore

        query = dict(parse_qsl(parts.query))
        schema = query.pop("schema", "public")
        conninfo = urlunsplit(parts._replace(query=urlencode(query)))
        return PostgresEventStore(conninfo, schema=schema)
    raise ValueError(f"unknown store URL scheme {parts.scheme!r} (use sqlite:// or postgresql://)")
