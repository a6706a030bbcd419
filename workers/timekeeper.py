"""守时 (the timekeeper): fires the durable timers that tables' appends leave in the store.

A loop: claim the due timers (each leased to this timekeeper for ``lease`` seconds), hand
each to one of ``threads`` firing threads (the command path), then sleep until the next one is
due, woken early when an append adds a timer (PostgreSQL ``LISTEN``; SQLite, a condition in
this process) and never longer than ``max_sleep`` (a wake-up may be missed; the next look finds
the row anyway). The loop does not wait for a firing to finish before it looks again: a timer
due while others are being fired is claimed on time as long as a thread is free (a loop that
waited for each batch made every timer due meanwhile late by the batch's firing: p99 111-931 ms
against 31-93 ms with real tables timing out 400 times a second, docs/performance.md). It
claims no more than it has free threads, so a claimed timer never waits in a queue while its
lease runs.
Any number of timekeepers may run at once: a row is leased to one of them, a lease that
runs out (its timekeeper died) lets another fire it again, and firing twice is harmless (one
command id per timer; the rules refuse a timeout for a wait that is over).
A timer of a table whose rules version this process does not have (a rolling upgrade) is not
fired under other rules: it is left as it is, leased, with no outcome, and once the lease runs
out a timekeeper that has the version fires it (``handed_back`` counts them).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import structlog

from events.envelope import Actor
from events.store.base import EventStore
from events.store.timers import DueTimer, TimerStore
from ops.metrics import timer_fired, timer_handed_back
from services.rules.variants.versions import RulesVersionUnavailable
from services.tables.runner import fire_timer, outcome_store
from services.tables.timers import timeout_command_id

if TYPE_CHECKING:
    from celery import Celery

    from services.tables import TableService

log = structlog.get_logger("paiju.timekeeper")


class Timekeeper:
    def __init__(
        self,
        store: TimerStore,
        fire: Callable[[DueTimer], object],
        *,
        batch: int = 100,
        lease: float = 10.0,
        max_sleep: float = 1.0,
        threads: int = 4,
    ) -> None:
        self.store = store
        self.fire = fire
        self.batch = batch
        self.lease = lease
        self.max_sleep = max_sleep
        self.threads = threads
        self.fired = 0
        self.failed = 0
        self.handed_back = 0  # timers of a rules version this process lacks, left for another
        self.beat = 0.0  # time.monotonic() of the last loop: a liveness heartbeat
        self._in_flight = 0  # timers handed to the firing threads and not yet fired
        self._slot_freed = threading.Condition()

    def tick(self) -> int:
        """Claim what is due and fire it, returning when all are fired (one pass, for a caller
        that drives the timekeeper itself); the number of timers fired."""
        due = self.store.claim_due_timers(limit=self.batch, lease=self.lease)
        if not due:
            return 0
        if len(due) == 1 or self.threads <= 1:
            for timer in due:
                self._fire_one(timer)
        else:
            with ThreadPoolExecutor(min(self.threads, len(due)), "timer") as pool:
                list(pool.map(self._fire_one, due))
        return len(due)

    def _fire_one(self, timer: DueTimer) -> None:
        command_id = timeout_command_id(timer.stream_id, timer.key)
        bound = structlog.contextvars.bound_contextvars(
            table_id=timer.stream_id, command_id=command_id, timer=timer.key
        )
        try:
            with bound:
                self.fire(timer)
                log.debug("timer.fired", lateness=round(timer.lateness, 4), attempts=timer.attempts)
            fired = True
        except RulesVersionUnavailable as error:  # not decided here: left for its lease to run out
            log.warning("timer.handed_back", rules_version=error.version, known=error.known)
            timer_handed_back()
            with self._slot_freed:
                self.handed_back += 1
            return
        except Exception:  # the lease runs out and the timer is tried again
            fired = False
            log.exception(
                "timer.failed", table_id=timer.stream_id, timer=timer.key, attempts=timer.attempts
            )
        timer_fired((datetime.now(UTC) - timer.due_at).total_seconds(), fired)
        with self._slot_freed:  # counted from several firing threads
            self.fired += fired
            self.failed += not fired

    def run(self, stop: threading.Event) -> None:
        """Until ``stop`` is set. A store that fails (database down) is retried each second."""
        log.info("timekeeper.started")
        with ThreadPoolExecutor(max(1, self.threads), "timer") as pool:
            while not stop.is_set():
                self.beat = time.monotonic()
                free = self._free_threads()
                if free == 0:
                    continue
                try:
                    due = self.store.claim_due_timers(limit=min(self.batch, free), lease=self.lease)
                    self._hand_over(pool, due)
                    if len(due) >= min(self.batch, free):
                        continue  # more may be due now
                    wait = self.store.seconds_to_next_timer()
                except Exception:
                    log.exception("timekeeper.store_failed")
                    stop.wait(1.0)
                    continue
                wait = self.max_sleep if wait is None else min(wait, self.max_sleep)
                if wait > 0:
                    try:
                        self.store.wait_for_timers(wait)
                    except Exception:
                        log.exception("timekeeper.wait_failed")
                        stop.wait(min(wait, 1.0))
        log.info("timekeeper.stopped", fired=self.fired, failed=self.failed)

    def _free_threads(self) -> int:
        """Firing threads free now; when none is, waits (at most ``max_sleep``) for one."""
        with self._slot_freed:
            if self._in_flight >= max(1, self.threads):
                self._slot_freed.wait(self.max_sleep)
            return max(0, max(1, self.threads) - self._in_flight)

    def _hand_over(self, pool: ThreadPoolExecutor, due: list[DueTimer]) -> None:
        with self._slot_freed:
            self._in_flight += len(due)
        for timer in due:
            pool.submit(self._fire_and_free, timer)

    def _fire_and_free(self, timer: DueTimer) -> None:
        try:
            self._fire_one(timer)
        finally:
            with self._slot_freed:
                self._in_flight -= 1
                self._slot_freed.notify()


def fire_inline(service: TableService) -> Callable[[DueTimer], object]:
    """Fire in this process, through ``run_command`` (the lowest lateness: no broker hop)."""
    return lambda timer: fire_timer(service, timer)


def fire_through_queue(app: Celery, store: EventStore) -> Callable[[DueTimer], object]:
    """Fire by sending the timeout to the commands queue, as a platform sends a seat's move.

    The row stays until the timeout's append removes it; if the broker loses the message, the
    lease runs out and the timer is claimed again. A claim after the first looks for the
    command's outcome first: one recorded (a refusal leaves the row behind) means the timer is
    done with, and it is dropped instead of sent again."""
    outcomes = outcome_store(store)

    def fire(timer: DueTimer) -> None:
        command_id = timeout_command_id(timer.stream_id, timer.key)
        if timer.attempts > 1 and outcomes.load_outcome(command_id) is not None:
            store.drop_timer(timer.stream_id, timer.key)  # type: ignore[attr-defined]
            return
        from workers.client import submit

        submit(app, timer.stream_id, timer.command, command_id=command_id, actor=Actor.timer())

    return fire
