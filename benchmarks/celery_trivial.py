"""A trivial task on Paiju's own Celery app (``create_app``: acks late, prefetch 1, JSON, its
queues), for ``bench_commands``: what a command costs beyond what the app's settings cost.

    celery -A celery_trivial worker -Q maintenance   (PAIJU_BROKER_URL, BENCH_BROKER set)
"""

from __future__ import annotations

import functools
import os

import redis

from workers.app import create_app

app = create_app()


@functools.cache
def results() -> redis.Redis:
    return redis.Redis.from_url(os.environ["BENCH_BROKER"])


@app.task(name="bench.mark", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def mark(key: str) -> None:
    """Tell the waiting client it ran; nothing else."""
    results().rpush(key, 1)
