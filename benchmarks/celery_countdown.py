"""A trivial Celery task and the countdown lateness it gets, for the timer benchmark.

``countdown_lateness`` starts a private ``redis-server`` on a free port (no persistence, in a
temporary directory) and a ``celery worker`` subprocess on this module, sends ``count`` tasks
with ``apply_async(countdown=U(low, high))``, each carrying the moment it is meant to run, and
reads back when each started (the task pushes ``started − intended`` to a Redis list).
Also the app for ``celery -A celery_countdown worker`` (broker from ``BENCH_BROKER``).
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis
from celery import Celery

RESULTS = "bench:lateness"
app = Celery("bench_countdown", broker=os.environ.get("BENCH_BROKER", "redis://127.0.0.1:1/0"))
app.conf.update(
    task_serializer="json",
    accept_content=["json"],
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
    worker_hijack_root_logger=False,
)


@functools.cache
def results() -> redis.Redis:
    """This worker process's connection (one a task would cost a connect each time)."""
    return redis.Redis.from_url(os.environ["BENCH_BROKER"])


@app.task(name="bench.ran")
def ran(intended: float) -> None:
    started = time.time()
    results().rpush(RESULTS, started - intended)


@app.task(name="bench.mark")
def mark(key: str) -> None:
    """The trivial task of ``bench_commands``: tell the waiting client it ran."""
    results().rpush(key, 1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():  # type: ignore[operator]
                return
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """A redis-server of our own: 127.0.0.1, a free port, nothing saved."""
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="bench-redis-")
    server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            tmp,
        ],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_until(lambda: redis.Redis.from_url(url).ping(), 10, "redis-server")
        yield url
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def worker(client: Celery, broker: str, concurrency: int = 2) -> Iterator[None]:
    env = {**os.environ, "BENCH_BROKER": broker}
    here = Path(__file__).parent
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "celery_countdown",
            "worker",
            "--pool",
            "prefork",
            "--concurrency",
            str(concurrency),
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=here,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: client.control.ping(timeout=0.5), 30, "celery worker")
        yield
    finally:
        process.terminate()
        process.wait(30)


def countdown_lateness(count: int, low: float, high: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    with private_redis() as broker:
        client = Celery("bench_countdown_client", broker=broker)  # one app per broker
        with worker(client, broker):
            results = redis.Redis.from_url(broker)
            for _ in range(count):
                countdown = rng.uniform(low, high)
                client.send_task("bench.ran", (time.time() + countdown,), countdown=countdown)
            wait_until(lambda: results.llen(RESULTS) >= count, high + 30, f"{count} countdowns")
            lateness = [float(v) for v in results.lrange(RESULTS, 0, -1)]
        client.close()
        return lateness
