"""Given events, then rows: append events with chosen times, and project them."""

from __future__ import annotations

import contextlib
import dataclasses
from datetime import UTC, datetime
from typing import Any

from events.base import DomainEvent
from events.envelope import Actor, RecordedEvent
from events.registry import registry
from events.store import open_store
from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.runner import Projector
from services.rules import RULES_VERSION
from services.rules.events.hand import HandSettled, HandStarted, TableOpened

NOON = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def given(
    store: EventStore, table_id: str, *events: DomainEvent, at: datetime = NOON,
    extra: dict[str, Any] | None = None,
) -> list[RecordedEvent]:  # fmt: skip
    """Append ``events`` to the table's stream, recorded at ``at``; ``extra`` joins the first
    event's payload (a room on a ``table_opened``, before the model has one)."""
    drafts = []
    for n, event in enumerate(events):
        new = registry.new_event(event, actor=Actor.system(), rules_version=RULES_VERSION)
        payload = {**new.payload, **(extra or {})} if n == 0 else new.payload
        drafts.append(dataclasses.replace(new, payload=payload, recorded_at=at))
    return store.append(table_id, store.stream_version(table_id), drafts)


def opened(table_id: str, variant: str, players: tuple[str, str, str, str]) -> TableOpened:
    return TableOpened(table_id=table_id, variant=variant, players=players)


def hand(number: int = 1) -> HandStarted:
    return HandStarted(hand_number=number, dealer=0, dice=(2, 3))


def settled(
    payments: tuple[int, int, int, int] = (0, 0, 0, 0),
    levels: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> HandSettled:
    return HandSettled(payments=payments, level_scores=levels)


def project(url: str, *projections: Projection) -> ProjectionDB:
    """Every projection caught up with the store (each live build, and any rebuild beside it)."""
    db = open_projection_db(url)
    with contextlib.closing(open_store(url)) as store:
        projector = Projector(store, db, list(projections))
        projector.attach()
        projector.catch_up()
    return db

