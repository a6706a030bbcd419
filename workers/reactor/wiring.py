"""The notification reactor from ``Settings``: what ``paiju reactor`` and ``paiju serve`` run.

    reactor = reactor_for(settings, store, app=app)   # None: PAIJU_WEBHOOK_URL is not set
    thread = reactor.start(stop_event)                # ... stop_event.set(); thread.join()
    reactor.outbox.close()

With ``app`` (a ``workers.app`` Celery app) the due deliveries go to its ``effects`` queue,
where a worker posts them; without one, or with ``inline=True``, the reactor posts them from
its own thread.
"""

from __future__ import annotations

from celery import Celery

from events.store.base import EventStore
from services.settings import Settings
from workers.effects.delivery import webhook_config
from workers.effects.outbox import Claim
from workers.effects.outbox_open import open_outbox
from workers.queues import DELIVER_TASK
from workers.reactor.runner import DEFAULT_NAME, Dispatch, Reactor, inline

DEFAULT_LEASE_SECONDS = 30.0


def reactor_for(
    settings: Settings,
    store: EventStore,
    *,
    app: Celery | None = None,
    inline_posts: bool = False,
    lease_seconds: float = DEFAULT_LEASE_SECONDS,
    partition: int = 0,
) -> Reactor | None:
    """The reactor on ``store`` (opened on ``settings.store_url``), or None when no webhook
    URL is set. ``ValueError`` names a ``PAIJU_WEBHOOK_*`` variable that cannot be used."""
    config = webhook_config(settings)
    if config is None:
        return None
    if not config.timeout < lease_seconds:
        raise ValueError(
            f"the reactor's lease ({lease_seconds:g} s) must be longer than"
            f" PAIJU_WEBHOOK_TIMEOUT ({config.timeout:g} s)"
        )
    outbox = open_outbox(settings.store_url)
    dispatch = inline(outbox, config) if app is None or inline_posts else celery_dispatch(app)
    if partition:  # a table store's log: a checkpoint of its own, in merged positions
        return Reactor(store, outbox, dispatch, lease_seconds=lease_seconds,
                       name=f"{DEFAULT_NAME}@{partition}")  # fmt: skip
    return Reactor(store, outbox, dispatch, lease_seconds=lease_seconds)


def celery_dispatch(app: Celery) -> Dispatch:
    """The reactor's dispatch: the effects task by name (routed to ``effects``), so the
    reactor's process needs neither the webhook secret nor an HTTP client."""

    def send(claim: Claim) -> None:
        app.send_task(DELIVER_TASK, args=(claim.key, claim.token))

    return send
