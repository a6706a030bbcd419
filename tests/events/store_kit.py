"""Helpers shared by the event store tests and the processes they spawn.

Kept out of conftest so that ``multiprocessing`` (spawn) children can import it.
"""

from __future__ import annotations

import os
import sqlite3
import time
import uuid
from dataclasses import dataclass
from typing import Any, Literal

import psycopg

from events.base import DomainEvent
from events.envelope import Actor, NewEvent
from events.registry import EventRegistry
from events.store.base import ConcurrencyError, EventStore
from events.store.postgres import PostgresEventStore
from events.store.sqlite import SqliteEventStore

RULES = "test-rules-1"
PG_DSN = os.environ.get(
    "PAIJU_TEST_PG", "host=127.0.0.1 port=5432 user=postgres dbname=paiju_test"
)
test_registry = EventRegistry()


@test_registry.register
class TileDiscarded(DomainEvent):
    type: Literal["tile_discarded"] = "tile_discarded"
    seat: int
    tile: str


@test_registry.register
class PointsAwarded(DomainEvent):
    """v2 split the v1 ``points`` into ``base`` and ``bonus``."""

    type: Literal["points_awarded"] = "points_awarded"
    schema_version = 2
    seat: int
    base: int
    bonus: int


@test_registry.upcaster("points_awarded", from_version=1)
def _points_v1_to_v2(payload: dict[str, Any]) -> dict[str, Any]:
    points = payload.pop("points")
    return {**payload, "base": points, "bonus": 0}


def discard(seat: int = 0, tile: str = "5m") -> NewEvent:
    return test_registry.new_event(
        TileDiscarded(seat=seat, tile=tile), actor=Actor.of_seat(seat), rules_version=RULES
    )


@dataclass(frozen=True)
class StoreSpec:
    """How to open (and poke directly at) one test store; picklable for child processes."""

    kind: Literal["sqlite", "postgres"]
    target: str  # sqlite: file path; postgres: conninfo
    schema: str = "public"

    def open(self, **options: Any) -> EventStore:
        if self.kind == "sqlite":
            return SqliteEventStore(self.target, **options)
        return PostgresEventStore(self.target, schema=self.schema, **options)

    def execute(self, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run raw SQL on the store's tables (placeholders: %s), bypassing the store."""
        if self.kind == "sqlite":
            conn = sqlite3.connect(self.target, isolation_level=None)
            try:
                return conn.execute(statement.replace("%s", "?"), params).fetchall()
            finally:
                conn.close()
        with psycopg.connect(
            self.target, autocommit=True, options=f"-c search_path={self.schema}"
        ) as pg:
            cur = pg.execute(statement, params)
            return cur.fetchall() if cur.description else []


def write_commands(spec: StoreSpec, writer: int, streams: list[str], commands: int) -> int:
    """Append ``commands`` one-event commands round-robin over ``streams``, retrying conflicts."""
    store = spec.open()
    conflicts = 0
    try:
        for n in range(commands):
            stream = streams[n % len(streams)]
            while True:
                version = store.stream_version(stream)
                try:
                    store.append(stream, version, [discard(writer % 4, f"{n}p")],
                                 command_id=f"w{writer}-{n}-{uuid.uuid4()}", command={"n": n})
                    break
                except ConcurrencyError:
                    conflicts += 1
    finally:
        store.close()
    return conflicts


def tail_all(spec: StoreSpec, expected: int, page: int, deadline_s: float) -> list[int]:
    """Follow the global log from the start until ``expected`` events were seen; their positions."""
    store = spec.open(poll_interval=0.02) if spec.kind == "sqlite" else spec.open(poll_interval=0.2)
    seen: list[int] = []
    last = 0
    deadline = time.monotonic() + deadline_s
    try:
        while len(seen) < expected and time.monotonic() < deadline:
            batch = store.read_all(last + 1, page)
            if not batch:
                store.wait_for_events(last, 0.5)
                continue
            seen.extend(e.position for e in batch)
            last = batch[-1].position
    finally:
        store.close()
    return seen
