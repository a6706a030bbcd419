"""What the dashboard's tests share: events given straight to a table's stream (a minute apart
from a fixed start, so the times in rows are known), the read models caught up on them, and
an API served on 127.0.0.1:0 with its store."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from events.base import DomainEvent
from events.envelope import Actor
from events.store.base import EventStore
from readmodels import catalog
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.runner import Projector
from services.tables.codec import to_new_event

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
PLAYERS = ("ann", "bo", "cy", "di")


class Table:
    """One table's stream; each ``given`` is one command's events, a minute after the last."""

    def __init__(self, store: EventStore, table_id: str = "t1") -> None:
        self.store, self.table_id, self.at = store, table_id, START

    def given(self, *events: DomainEvent) -> None:
        new = [replace(to_new_event(event, Actor.system()), recorded_at=self.at) for event in events]
        self.at += timedelta(minutes=1)
        self.store.append(self.table_id, self.store.stream_version(self.table_id), new)


def caught_up(store: EventStore, url: str) -> ProjectionDB:
    """Every projection of the catalog, caught up with the store."""
    db = open_projection_db(url)
    projector = Projector(store, db, list(catalog.ALL))
    projector.attach()
    try:
        projector.catch_up()
    finally:
        projector.close()  # its leases go: a later projector of the test leads the builds
    return db
