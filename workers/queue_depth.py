"""How deep the workers' queues are, for ``/metrics`` and the dashboard: ``LLEN`` of each
queue's lists in Redis (kombu keeps one list per priority step) and the unacknowledged hash."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import structlog

from ops.metrics_serve import Gauges
from services.settings import Settings
from workers.queues import QueueNames, shard_queues

log = structlog.get_logger("paiju.metrics")

PRIORITY_SEPARATOR = "\x06\x16"  # kombu's Redis transport: queue "commands" at priority 3
PRIORITY_STEPS = (0, 3, 6, 9)  # is the list "commands\x06\x163"


def queue_depth(settings: Settings) -> Gauges:
    """Messages waiting in each Celery queue (``LLEN`` of its lists in Redis) and delivered but
    not acknowledged; ``paiju_broker_up`` 0 when Redis does not answer."""
    import redis

    client = None if settings.embedded else redis.Redis.from_url(
        settings.broker_url, socket_timeout=1.0, socket_connect_timeout=1.0)  # fmt: skip
    prefix = settings.key_prefix
    lock = threading.Lock()
    names = [*(q.value for q in QueueNames), *shard_queues(settings.command_shards)]

    def read() -> Iterator[tuple[str, str, list[str], list[Any]]]:
        if client is None:
            return
        try:
            with lock, client.pipeline(transaction=False) as pipe:
                for name in names:
                    for step in PRIORITY_STEPS:
                        suffix = f"{PRIORITY_SEPARATOR}{step}" if step else ""
                        pipe.llen(f"{prefix}{name}{suffix}")
                pipe.hlen(f"{prefix}unacked")
                counts = pipe.execute()
        except redis.RedisError as error:
            log.warning("metrics.broker_unreachable", error=str(error))
            yield "paiju_broker_up", "1 when Redis answered this scrape", [], [([], 0)]
            return
        steps = len(PRIORITY_STEPS)
        depths = [([name], sum(counts[n * steps:(n + 1) * steps]))
                  for n, name in enumerate(names)]  # fmt: skip
        yield "paiju_broker_up", "1 when Redis answered this scrape", [], [([], 1)]
        yield "paiju_queue_depth", "Messages waiting in each Celery queue", ["queue"], depths
        yield ("paiju_queue_unacked", "Messages delivered to a worker and not yet acknowledged",
               [], [([], counts[-1])])  # fmt: skip

    return Gauges(read)
