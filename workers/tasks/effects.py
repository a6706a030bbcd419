"""The effects task: post one webhook delivery the reactor dispatched (queue ``effects``).

The message carries only the delivery's key and its claim's token; the body, and whether it
is still due, come from the outbox row, the record of the delivery. So a message the broker
delivers twice (even to two workers at once), or late after its lease ran out and the row
was claimed again, posts nothing (``deliver`` answers ``stale``); a message the broker loses
costs only a wait: the row is claimed again once its lease runs out. No countdown: a retry
is the row's ``next_attempt_at``, which the reactor's dispatcher finds.
"""

from __future__ import annotations

from celery import shared_task

from workers.effects.delivery import Result, deliver
from workers.logging import get_logger
from workers.queues import DELIVER_TASK
from workers.task import PaijuTask

log = get_logger("paiju.webhooks")


@shared_task(name=DELIVER_TASK, base=PaijuTask, bind=True, acks_late=True, ignore_result=True)
def deliver_webhook(self: PaijuTask, key: str, token: str) -> Result | None:
    client, config = self.parts.webhook()
    if config is None:  # a worker without PAIJU_WEBHOOK_URL: leave the row to one with it
        log.warning("webhook.not_configured", key=key)
        return None
    return deliver(self.parts.outbox(), key, token, config, client)
