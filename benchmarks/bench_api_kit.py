"""What the API benchmarks share: the service as processes (``paiju api``, ``paiju worker``,
``paiju timekeeper``) on a private Redis and a PostgreSQL schema of their own, a key, and the
CPU and memory of a process tree read from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from bench_timers import pg_schema
from celery_countdown import free_port, private_redis

from events.store import open_store
from services.api.keys import KeyStore
from services.cluster.procs import cpu_seconds, rss_mib, tree

__all__ = ["Service", "cpu_seconds", "rss_mib", "service", "tree", "wait_answering"]  # the benchmarks import these from here

ROOT = Path(__file__).resolve().parent.parent
PAIJU = [sys.executable, "-m", "services.cli.main"]


@dataclass
class Service:
    env: dict[str, str]
    api: str
    key: str
    pids: dict[str, int] = field(default_factory=dict)


def wait_answering(base: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{base}/openapi.json", timeout=5).status_code == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"no API at {base} after {timeout} s")


@contextlib.contextmanager
def service(workers: int, concurrency: int, extra_env: dict[str, str] | None = None,
            timekeeper: bool = True, sharded: bool = False) -> Iterator[Service]:  # fmt: skip
    """A private redis-server, a fresh PostgreSQL schema, one ``paiju api``, ``workers``
    ``paiju worker`` processes (``concurrency`` each) and a timekeeper, stopped at the end.
    ``sharded``: one command shard per worker (``PAIJU_COMMAND_SHARDS``)."""
    with private_redis() as redis_url, pg_schema() as store_url:
        port = free_port()
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
               "PAIJU_BROKER_URL": redis_url, "PAIJU_STORE_URL": store_url,
               "PAIJU_API_PORT": str(port), "PAIJU_LOG_LEVEL": "WARNING",
               "PAIJU_API_TOKEN_SECRET": "a-benchmark-secret-of-32-bytes-or-more",
               # many streams per seat (the fan-out benchmark): connects are limited per seat
               "PAIJU_API_RATE_LIMIT_STREAM_CONNECTS": "100000/minute",
               **(extra_env or {})}  # fmt: skip
        if sharded and workers > 1:
            env["PAIJU_COMMAND_SHARDS"] = str(workers)
        open_store(store_url).close()  # migrated once, before the processes race to do it
        keys = KeyStore(store_url)
        key = keys.create(["tables", "tokens"], "benchmark").token
        keys.close()
        argvs = {"api": [*PAIJU, "api"]}
        argvs |= {f"worker-{n}": [*PAIJU, "worker", "--concurrency", str(concurrency),
                                  "--queues", "commands"] for n in range(workers)}  # fmt: skip
        if timekeeper:
            argvs["timekeeper"] = [*PAIJU, "timekeeper"]
        def env_of(name: str) -> dict[str, str]:
            shard = name.removeprefix("worker-")
            return env | {"PAIJU_COMMAND_SHARD": shard} if "PAIJU_COMMAND_SHARDS" in env and shard != name else env

        processes = {name: subprocess.Popen(argv, env=env_of(name), cwd=ROOT, start_new_session=True)
                     for name, argv in argvs.items()}  # fmt: skip
        try:
            base = f"http://127.0.0.1:{port}"
            wait_answering(base)
            time.sleep(3)  # the workers up too (they log nothing at WARNING)
            yield Service(env, base, key, {n: p.pid for n, p in processes.items()})
        finally:
            for process in processes.values():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
            for process in processes.values():
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(10)
