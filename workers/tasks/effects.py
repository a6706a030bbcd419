"""The effects task: post one webhook delivery the reactor dispatched (queue ``effects``).

The message carries only the delivery's key and its claim's token; the body, and whether it
is still due, come from the outbox row, the record of the delivery. So a message the broker
delivers twice (even to two workers at once), or late after its lease ran out and the row
was claimed again, posts nothing (``deliver`` answers ``stale``); a message the broker loses
costs only a wait: the row is claimed again once its lease runs out. No countdown: a retry
is the row's ``next_attempt_at``, which the reactor's dispatcher finds.
"""

from __future__ import annotations

import os
import threading

import httpx
from celery import Celery, shared_task

from workers.effects.delivery import Result, WebhookConfig, deliver, webhook_config
from workers.effects.outbox import Claim, Outbox, open_outbox
from workers.logging import get_logger
from workers.reactor.runner import Dispatch
from workers.task import PaijuTask

DELIVER_TASK = "paiju.effects.deliver_webhook"

log = get_logger("paiju.webhooks")


class _Resources:
    """The outbox, HTTP client and webhook settings of one worker process (made after a
    prefork fork, as ``PaijuTask.service`` is)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[int, tuple[Outbox, httpx.Client, WebhookConfig | None]] = {}

    def get(self, task: PaijuTask) -> tuple[Outbox, httpx.Client, WebhookConfig | None]:
        pid = os.getpid()
        with self._lock:
            if pid not in self._made:
                settings = task.settings
                config = webhook_config(settings)
                timeout = config.timeout if config is not None else 5.0
                self._made[pid] = (open_outbox(settings.store_url), httpx.Client(timeout=timeout),
                                   config)  # fmt: skip
            return self._made[pid]

    def close(self) -> None:
        with self._lock:
            for outbox, client, _ in self._made.values():
                client.close()
                outbox.close()
            self._made.clear()


RESOURCES = _Resources()


@shared_task(name=DELIVER_TASK, base=PaijuTask, bind=True, acks_late=True, ignore_result=True)
def deliver_webhook(self: PaijuTask, key: str, token: str) -> Result | None:
    outbox, client, config = RESOURCES.get(self)
    if config is None:  # a worker without PAIJU_WEBHOOK_URL: leave the row to one with it
        log.warning("webhook.not_configured", key=key)
        return None
    return deliver(outbox, key, token, config, client)


def celery_dispatch(app: Celery) -> Dispatch:
    """The reactor's dispatch: the effects task by name (routed to ``effects``), so the
    reactor's process needs neither the webhook secret nor an HTTP client."""

    def send(claim: Claim) -> None:
        app.send_task(DELIVER_TASK, args=(claim.key, claim.token))

    return send
