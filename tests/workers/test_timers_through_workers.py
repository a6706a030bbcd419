"""Timers fired through the commands queue (``paiju timekeeper --via queue``), on Redis with
PostgreSQL and embedded: a worker plays the timeout; a refused one is dropped, not resent."""

from __future__ import annotations

import time

from timer_kit import rush
from worker_kit import Through

from services.rules.table.commands import OpenTable, RequestAutoplay, StartHand
from services.tables import Accepted, TableService
from services.tables.timers import timeout_command_id
from workers.client import await_outcome
from workers.timekeeper import Timekeeper, fire_through_queue

PLAYERS = ("ann", "bo", "cy", "di")


def dealt(through: Through, table_id: str) -> TableService:
    service = TableService(through.store)
    opened = OpenTable(table_id=table_id, variant="harbin", players=PLAYERS)
    assert isinstance(service.handle(table_id, opened, command_id=f"{table_id}/open"), Accepted)
    assert isinstance(
        service.handle(table_id, StartHand(), command_id=f"{table_id}/deal"), Accepted
    )
    return service


def test_a_timeout_sent_through_the_queue_is_played_by_a_worker(through: Through) -> None:
    table_id = f"tq-{through.name}-{time.monotonic_ns()}"
    dealt(through, table_id)
    rush(through.store)
    keeper = Timekeeper(through.store, fire_through_queue(through.app, through.store))  # type: ignore[arg-type]
    (timer,) = through.store.timers_of(table_id)  # type: ignore[attr-defined]
    assert keeper.tick() >= 1
    outcome = await_outcome(through.store, timeout_command_id(table_id, timer.key), 30)
    assert outcome.accepted and outcome.actor_kind == "timer"
    played = through.store.read_stream(table_id)[outcome.first_version - 1 :]
    assert [e.type for e in played[:2]] == ["wait_timed_out", "seat_autoplayed"]
    assert timer.key not in [t.key for t in through.store.timers_of(table_id)]  # type: ignore[attr-defined]


def test_a_timeout_that_lost_the_race_changes_nothing_and_is_not_sent_again(
    through: Through,
) -> None:
    table_id = f"tr-{through.name}-{time.monotonic_ns()}"
    service = dealt(through, table_id)
    rush(through.store)
    claims = through.store.claim_due_timers(lease=1.0)  # type: ignore[attr-defined]
    (claimed,) = [t for t in claims if t.stream_id == table_id]
    seat = service.load(table_id).hand.turn  # type: ignore[union-attr]
    moved = service.handle(table_id, RequestAutoplay(seat=seat), command_id=f"{table_id}/auto")
    assert isinstance(moved, Accepted)  # 托管 plays the seat before the timeout arrives
    head = through.store.stream_version(table_id)
    fire_through_queue(through.app, through.store)(claimed)
    outcome = await_outcome(through.store, timeout_command_id(table_id, claimed.key), 30)
    assert outcome.status == "refused" and through.store.stream_version(table_id) == head
    time.sleep(1.1)  # the lease runs out: nothing of that wait is left to fire again
    again = through.store.claim_due_timers()  # type: ignore[attr-defined]
    assert claimed.key not in [t.key for t in again if t.stream_id == table_id]
