"""The Celery app, from a factory: ``create_app(settings)``; ``celery -A workers.app`` finds
``app`` here (built from the environment on first use, so importing this module reads nothing).

Every choice below follows from one rule: the broker is never the record of anything. A
command's outcome is in the event store, keyed by its command id, so messages may be delivered
twice (the id answers the second delivery) and must never be dropped unanswered: a message is
acknowledged only once its task has run (``task_acks_late``), given back if the worker dies
under it (``task_reject_on_worker_lost``), and a worker takes one at a time (prefetch 1) so a
crash strands nothing else. No task waits on an ETA, so Redis may re-deliver an unacknowledged
message after a short ``visibility_timeout``.
"""

from __future__ import annotations

from typing import Any

from celery import Celery, signals
from kombu import Queue

import workers.logging  # noqa: F401  (connects the logging signals for every app)
from services.settings import Settings, load_settings
from workers.queues import ROUTES, QueueNames, is_command_queue, rules_queues, shard_queues

TASK_MODULES = ("workers.tasks.commands", "workers.tasks.effects")
"""Modules whose ``shared_task``s every app runs; a new task module is added here."""


class PaijuCelery(Celery):
    """A Celery app that carries the ``Settings`` it was made from (tasks read them) and its
    process's parts (``workers.parts.Parts``, the composition root, set by the root)."""

    settings: Settings
    parts: Any = None


def transport_options(settings: Settings) -> dict[str, Any]:
    if settings.embedded:  # kombu's default of 1 s would add a second to every command
        return {"polling_interval": settings.polling_interval}
    return {
        "global_keyprefix": settings.key_prefix,
        "visibility_timeout": settings.visibility_timeout,
        # A message whose worker died unacknowledged comes back once the visibility timeout
        # has passed, but only when a worker sweeps for it: kombu's default sweep is every
        # 100 s (10 s x 10); every tenth of the timeout instead.
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": max(1, settings.visibility_timeout // 10),
        # The sweep holds a lock in Redis; a worker killed while holding it would stop every
        # sweep for kombu's default of 300 s.
        "unacked_mutex_expire": settings.visibility_timeout,
    }


def broker_transport(settings: Settings) -> dict[str, Any]:
    """On Redis, kombu's transport with reads that drop an entry no task can be made of
    (``workers.broker``) rather than die on it; ``rediss://`` keeps kombu's own, whose TLS
    defaults are chosen from the URL's scheme. On ``memory://``, kombu's with short waits
    (``workers.embedded``)."""
    if settings.broker_url.startswith("redis://"):
        return {"broker_transport": "workers.broker:Transport"}
    if settings.embedded:  # the embedded worker's, whose warm stop is prompt
        return {"broker_transport": "workers.embedded:PromptMemoryTransport"}
    return {}


def celery_config(settings: Settings) -> dict[str, Any]:
    return {
        # kombu warns on every connection to a URL naming no host; memory:// has none to name
        "broker_url": "memory://localhost/" if settings.broker_url == "memory://" else settings.broker_url,
        "broker_connection_retry_on_startup": True,
        **broker_transport(settings),
        "broker_transport_options": transport_options(settings),
        "task_serializer": "json",
        "result_serializer": "json",
        "event_serializer": "json",
        "accept_content": ["json"],
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "task_ignore_result": True,  # outcomes are in the store, not in a result backend
        "task_create_missing_queues": False,
        "task_queues": [
            *(Queue(name.value, routing_key=name.value) for name in QueueNames),
            *(Queue(name, routing_key=name) for name in rules_queues()),
            *(Queue(name, routing_key=name) for name in shard_queues(settings.command_shards)),
        ],
        "task_default_queue": QueueNames.maintenance.value,
        "task_routes": ROUTES,
        "worker_hijack_root_logger": False,
        "worker_concurrency": settings.concurrency,
        "worker_cancel_long_running_tasks_on_connection_loss": True,
        "enable_utc": True,
        "timezone": "UTC",
    }


def create_app(settings: Settings | None = None) -> PaijuCelery:
    """A Celery app for ``settings`` (default: from the environment)."""
    settings = settings or load_settings()
    app = PaijuCelery("paiju", include=list(TASK_MODULES))
    app.settings = settings
    app.conf.update(celery_config(settings))
    if settings.rules_queues_only:
        @signals.celeryd_after_setup.connect(weak=False, dispatch_uid=f"paiju.rules_only.{id(app)}")
        def _rules_only(sender: Any, instance: Any, **_: Any) -> None:
            if instance.app is app:
                serve_rules_queues_only(app)
    return app


def serve_rules_queues_only(app: Celery) -> None:
    """Stop consuming ``commands`` (kept: the queues of the rules versions this worker has);
    run once the worker has its queues (``PAIJU_RULES_QUEUES_ONLY``)."""
    queues = app.amqp.queues
    served = [name for name in queues.consume_from if is_command_queue(name)]
    if served and len(queues.consume_from) > len(served):
        queues.deselect(served)


_app: PaijuCelery | None = None


def __getattr__(name: str) -> Any:
    """``workers.app.app``: the app of this process's environment, built once."""
    global _app
    if name in ("app", "celery"):
        if _app is None:
            _app = create_app()
        return _app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
