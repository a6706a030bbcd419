"""Given events, then rows: events written straight to a table's stream (a minute apart, from a
fixed start, so times in rows are known), then the projections caught up."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from events.base import DomainEvent
from events.envelope import Actor, RecordedEvent
from events.store.base import EventStore
from readmodels.base import Projection
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.runner import Projector
from services.rules.events.hand import HandSettled, HandStarted, TableOpened, Win
from services.tables.codec import to_new_event

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
PLAYERS = ("ann", "bo", "cy", "di")


class Table:
    """One table's stream; ``at`` moves on a minute per event unless told otherwise."""

    def __init__(self, store: EventStore, table_id: str = "t1") -> None:
        self.store, self.table_id, self.at = store, table_id, START

    def given(self, *events: DomainEvent, same_time: bool = False) -> list[RecordedEvent]:
        """Append ``events`` as one command's (one time for all when ``same_time``)."""
        new = []
        for event in events:
            new.append(replace(to_new_event(event, Actor.system()), recorded_at=self.at))
            if not same_time:
                self.at += timedelta(minutes=1)
        if same_time:
            self.at += timedelta(minutes=1)
        version = self.store.stream_version(self.table_id)
        return self.store.append(self.table_id, version, new)

    def opened(self, variant: str = "shanghai", room: str = "", players=PLAYERS, **kw) -> None:  # type: ignore[no-untyped-def]
        self.given(TableOpened(table_id=self.table_id, variant=variant, players=players,
                               room=room, **kw))  # fmt: skip

    def dealt(self, number: int = 1, dealer: int = 0) -> None:
        self.given(HandStarted(hand_number=number, dealer=dealer, dice=(3, 4)))

    def settled(self, payments: tuple[int, int, int, int] = (0, 0, 0, 0)) -> None:
        self.given(HandSettled(payments=payments))


def win(seat: int, fan: int, payments: tuple[int, int, int, int], discarder: int | None = None,
        tile: str = "5m") -> Win:  # fmt: skip
    return Win(seat=seat, tile=tile, self_drawn=discarder is None, discarder=discarder,
               fan=fan, payments=payments)  # fmt: skip


def caught_up(store: EventStore, url: str, *projections: Projection) -> ProjectionDB:
    db = open_projection_db(url)
    projector = Projector(store, db, list(projections))
    projector.attach()
    projector.catch_up()
    return db
