"""The outbox of a store's URL: SQLite's or PostgreSQL's (both kept beside the events, so a
delivery is written in the same database as the event it announces)."""

from __future__ import annotations

from events.store import parse_store_url
from workers.effects.outbox import Outbox


def open_outbox(url: str) -> Outbox:
    """The outbox on the database of the event store at ``url``."""
    where = parse_store_url(url)
    if where.backend == "sqlite":
        from workers.effects.outbox_sqlite import SqliteOutbox

        return SqliteOutbox(where.path)
    from workers.effects.outbox_pg import PostgresOutbox

    return PostgresOutbox(where.conninfo, schema=where.schema)
