"""The effects task: post one delivery the reactor dispatched, on the ``effects`` queue.

The message carries only the delivery's key and its claim's token; the body, and whether it
is still due, come from the outbox row (the record of the delivery). So a message the broker
delivers twice, or late after its lease ran out and the row was claimed again, posts
nothing (``deliver`` answers ``stale``), and a message the broker loses costs only a wait:
the row is claimed again once the lease runs out.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import httpx
from celery import Celery

from workers.effects.delivery import Result, WebhookConfig, deliver
from workers.effects.outbox import Claim, Outbox, open_outbox
from workers.reactor.runner import Dispatch

TASK_NAME = "paiju.effects.deliver_webhook"


class _Resources:
    """The outbox and HTTP client of one worker process (made after a prefork fork)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[tuple[int, str], tuple[Outbox, httpx.Client]] = {}

    def get(self, store_url: str, config: WebhookConfig) -> tuple[Outbox, httpx.Client]:
        key = (os.getpid(), store_url)
        with self._lock:
            if key not in self._made:
                self._made[key] = (open_outbox(store_url), httpx.Client(timeout=config.timeout))
            return self._made[key]

    def close(self) -> None:
        with self._lock:
            for outbox, client in self._made.values():
                client.close()
                outbox.close()
            self._made.clear()


RESOURCES = _Resources()


def register(app: Celery, store_url: str, config: WebhookConfig) -> Any:
    """Define the effects task on ``app`` (the worker side); returns the task."""

    @app.task(name=TASK_NAME, ignore_result=True, acks_late=True, shared=False)
    def deliver_webhook(key: str, token: str) -> Result:
        outbox, client = RESOURCES.get(store_url, config)
        return deliver(outbox, key, token, config, client)

    return deliver_webhook


def celery_dispatch(app: Celery, queue: str) -> Dispatch:
    """The reactor's dispatch through Celery: the task by name, so that the reactor's
    process needs no webhook secret and no task of its own."""

    def send(claim: Claim) -> None:
        app.send_task(TASK_NAME, args=(claim.key, claim.token), queue=queue)

    return send
