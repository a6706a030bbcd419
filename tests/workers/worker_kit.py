"""What the workers' tests share with their fixtures (a module of its own: conftest names clash
across test folders)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from events.store.base import EventStore

REDIS_URL = os.environ.get("PAIJU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@dataclass
class Through:
    name: str
    app: Any
    store: EventStore
    log_path: Path
    worker_pid: int | None = None  # the worker's main process, when it is a process of its own

    def pool_processes(self) -> list[int]:
        """The worker's pool processes (its main process's children), read from /proc."""
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == self.worker_pid:
                    children.append(int(stat.parent.name))
        return children

    def log_lines_until(
        self, done: Callable[[list[dict[str, Any]]], bool], timeout: float = 30.0
    ) -> list[dict[str, Any]]:
        """The log's lines once ``done`` holds for them (the worker writes its lines after it
        records the outcome), or as they are when ``timeout`` runs out."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.log_lines()
            if done(lines) or time.monotonic() > deadline:
                return lines
            time.sleep(0.05)

    def log_lines(self) -> list[dict[str, Any]]:
        lines = []
        for text in self.log_path.read_text("utf-8", "replace").splitlines():
            with contextlib.suppress(ValueError):
                line = json.loads(text)
                if isinstance(line, dict):
                    lines.append(line)
        return lines


def paiju() -> list[str]:
    script = Path(sys.executable).parent / "paiju"
    if script.exists():
        return [str(script)]
    found = shutil.which("paiju")
    return [found] if found else [sys.executable, "-m", "services.cli.main"]


def stop(worker: subprocess.Popen[bytes]) -> None:
    """Warm shutdown of the worker and its pool (its own session), then kill if it hangs."""
    if worker.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)


def forget_keys(prefix: str) -> None:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
