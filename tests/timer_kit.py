"""Moving a store's clock on for the timer tests: stored due times rewritten into the past."""

from __future__ import annotations

import sqlite3

import psycopg
from psycopg import sql

from events.store.base import EventStore


def rush(store: EventStore, wait: str = "") -> None:
    """Every stored timer (of ``wait``, if named) is due now, as if its seconds had passed."""
    like = (f"{wait}%",)
    path = getattr(store, "path", None)
    if path is not None:
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE timers SET due_at = due_at - 86400 WHERE timer_key LIKE ?", like)
        return
    with psycopg.connect(store.conninfo, autocommit=True) as conn:  # type: ignore[attr-defined]
        conn.execute(sql.SQL("SET search_path TO {}").format(sql.Identifier(store.schema)))  # type: ignore[attr-defined]
        conn.execute(
            "UPDATE timers SET due_at = due_at - interval '1 day' WHERE timer_key LIKE %s", like
        )
