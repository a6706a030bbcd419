"""再送 (the resender): every command the API answered 202 ends in an outcome, whatever the
broker loses.

The API keeps each client command in the store before it queues it (``command_requests``,
``claim_request``). A queue message can still be lost: Redis restarted empty, or a message
popped by a worker killed before it ran. So every ``every`` seconds the resender claims the
kept commands that have waited ``older_than`` seconds with no outcome (each claimed for
``lease`` seconds, so several resenders share them and none is sent twice in a lease) and
sends each again under its command id, which makes a second run answer with the first's
events (``run_command``). It runs beside the timekeeper (``paiju timekeeper`` and
``paiju serve``), the part that already fires what the store keeps.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import structlog

from events.envelope import Actor
from events.outcomes import CommandRequest, RequestStore

if TYPE_CHECKING:
    from celery import Celery

log = structlog.get_logger("paiju.resender")


class Resender:
    def __init__(
        self,
        store: RequestStore,
        app: Celery,
        *,
        older_than: float = 15.0,
        lease: float = 30.0,
        every: float = 2.0,
        batch: int = 200,
    ) -> None:
        self.store, self.app = store, app
        self.older_than, self.lease, self.every, self.batch = older_than, lease, every, batch
        self.resent = 0

    def sweep(self) -> int:
        """Send again what waits unanswered now; how many were sent."""
        from workers.client import submit

        claimed = self.store.claim_unanswered(self.older_than, self.lease, self.batch)
        for request in claimed:
            try:
                submit(self.app, request.table_id, **_task_arguments(request))
            except Exception:  # the broker is away: the claim's lease runs out, tried again
                log.warning("resender.send_failed", command_id=request.command_id, exc_info=True)
                continue
            self.resent += 1
            log.warning("resender.resent", command_id=request.command_id,
                        table_id=request.table_id, waited=str(request.requested_at))  # fmt: skip
        return len(claimed)

    def run(self, stop: threading.Event) -> None:
        """Until ``stop``; a store that fails is tried again at the next sweep."""
        while not stop.wait(self.every):
            try:
                while self.sweep() >= self.batch and not stop.is_set():
                    pass  # more are waiting: on at once
            except Exception:
                log.exception("resender.store_failed")


def _task_arguments(request: CommandRequest) -> dict[str, Any]:
    """``submit``'s arguments from the body the API kept (``services.api.commands``)."""
    body = json.loads(request.body)
    actor = body.get("actor")
    return {
        "command": body["command"],
        "command_id": request.command_id,
        "actor": None if actor is None else Actor.from_dict(actor),
        "if_version": body.get("if_version"),
    }


def resender_for(store: RequestStore, app: Celery) -> Resender:
    """Sends again after the app's ``PAIJU_RESEND_AFTER`` seconds, each claim leased for twice
    that."""
    after = app.settings.resend_after  # type: ignore[attr-defined]
    return Resender(store, app, older_than=after, lease=2 * after)


def start_resender(store: object, app: Celery, stop: threading.Event) -> threading.Thread | None:
    """The resender in a daemon thread until ``stop`` (None when the store keeps no requests)."""
    if not isinstance(store, RequestStore):
        return None
    resender = resender_for(store, app)
    thread = threading.Thread(target=resender.run, args=(stop,), name="resender", daemon=True)
    thread.start()
    return thread
