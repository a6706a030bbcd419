"""The platform-notification reactor: tail the global order, write the outbox, dispatch.

``step`` reads the events after the checkpoint (``store.read_all``), and in ONE transaction
inserts a delivery row for each one the platform is told of and moves the checkpoint from
where this reactor read it to the batch's last position (``Outbox.advance``, a
compare-and-set). Why that is enough:

* the store's positions never overtake (``events.store.base``): every event below a position
  the reactor has read is already readable, so a batch skips nothing, and gaps (aborted
  appends) are only numbers no event will ever take;
* a crash before the commit writes nothing, and the next reactor reads the same batch again;
  a crash after it leaves rows that are dispatched from the outbox, not from memory;
* two reactors at once: the second compare-and-set finds the checkpoint moved, writes
  nothing, and its reactor reloads the checkpoint and reads on from there.

``dispatch_due`` claims the rows that are due (with a lease) and hands each claim to
``dispatch``: the Celery effects task in production (``workers.effects.tasks``), or
``inline(...)``, which posts from this thread. A claim whose task never records a result is
claimed again once its lease runs out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import structlog

from events.store.base import EventStore
from workers.effects.body import NOTIFIED, idempotency_key, notification_body
from workers.effects.delivery import WebhookConfig, deliver
from workers.effects.outbox import Claim, NewDelivery, Outbox

log = structlog.get_logger("paiju.reactor")

DEFAULT_NAME = "platform_webhooks"
Dispatch = Callable[[Claim], None]


def inline(outbox: Outbox, config: WebhookConfig, client: httpx.Client | None = None) -> Dispatch:
    """A dispatch that posts at once, in the calling thread (no broker)."""
    http = client or httpx.Client(timeout=config.timeout)

    def post(claim: Claim) -> None:
        deliver(outbox, claim.key, claim.token, config, http)

    return post


@dataclass
class Counts:
    events: int = 0  # events read and handled by this reactor
    written: int = 0  # delivery rows it wrote
    races_lost: int = 0  # batches another reactor had written first
    dispatched: int = 0  # claims handed to dispatch


class Reactor:
    def __init__(
        self,
        store: EventStore,
        outbox: Outbox,
        dispatch: Dispatch,
        *,
        name: str = DEFAULT_NAME,
        batch: int = 500,
        lease_seconds: float = 30.0,
        idle_seconds: float = 1.0,
        claim_limit: int = 100,
    ) -> None:
        """``lease_seconds`` must exceed the longest a dispatched delivery can take (its
        post's timeout and the queue's wait): a lease that runs out while the task still
        runs lets a second one post the same key."""
        self.store, self.outbox, self.dispatch = store, outbox, dispatch
        self.name, self.batch = name, batch
        self.lease_seconds, self.idle_seconds, self.claim_limit = (
            lease_seconds,
            idle_seconds,
            claim_limit,
        )
        self.position = outbox.checkpoint(name)
        self.counts = Counts()

    def step(self) -> int:
        """Handle the next batch after the checkpoint; the number of events read (0: none)."""
        events = self.store.read_all(self.position + 1, self.batch)
        if not events:
            return 0
        rows = [
            NewDelivery(
                idempotency_key(e.position), e.position, e.stream_id, e.type, notification_body(e)
            )
            for e in events
            if e.type in NOTIFIED
        ]
        last = events[-1].position
        if self.outbox.advance(self.name, self.position, last, rows):
            self.position = last
            self.counts.events += len(events)
            self.counts.written += len(rows)
        else:  # another reactor wrote this batch (or part of it) first: go on from its point
            self.counts.races_lost += 1
            self.position = self.outbox.checkpoint(self.name)
        return len(events)

    def dispatch_due(self) -> int:
        """Claim the due deliveries and dispatch them; the number dispatched."""
        claims = self.outbox.claim_due(self.claim_limit, self.lease_seconds)
        for claim in claims:
            self.dispatch(claim)  # a failure leaves the rest leased: claimed again later
            self.counts.dispatched += 1
        return len(claims)

    def catch_up(self, limit: int = 10_000) -> int:
        """Step until no event is left after the checkpoint (bounded); events read."""
        total = 0
        for _ in range(limit):
            read = self.step()
            if not read:
                return total
            total += read
        return total

    def run(self, stop: threading.Event) -> None:
        """Step and dispatch until ``stop`` is set; between rounds, sleep until an event
        arrives, a delivery falls due, or ``idle_seconds`` pass."""
        while not stop.is_set():
            try:
                if self.step() or self.dispatch_due():
                    continue
                wait = self.idle_seconds
                due = self.outbox.seconds_to_next_due()
                if due is not None:
                    wait = min(wait, max(due, 0.01))
                self.store.wait_for_events(self.position, wait)
            except Exception:  # the database or broker is away: say so, wait, go on
                log.exception("reactor round failed; retrying", reactor=self.name)
                stop.wait(self.idle_seconds)

    def start(self, stop: threading.Event) -> threading.Thread:
        """``run`` in a daemon thread (``paiju serve``'s embedded mode)."""
        thread = threading.Thread(target=self.run, args=(stop,), name=f"reactor-{self.name}")
        thread.daemon = True
        thread.start()
        return thread
