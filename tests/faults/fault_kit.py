"""What the fault tests share: a private redis-server they may kill, ``paiju`` parts run as
processes a test supervises (killed, restarted), and the checks that count what a fault cost.

A module of its own, not a conftest (conftest names clash across test folders).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from services.cluster.checks import LogCount, count_log, sealed_seeds
from services.cluster.platform import Receiver, notified_keys
from services.cluster.servers import PrivateRedis as ClusterRedis

__all__ = ["LogCount", "Receiver", "count_log", "notified_keys", "sealed_seeds"]  # re-exported


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def paiju() -> list[str]:
    script = Path(sys.executable).parent / "paiju"
    if script.exists():
        return [str(script)]
    found = shutil.which("paiju")
    return [found] if found else [sys.executable, "-m", "services.cli.main"]


class PrivateRedis(ClusterRedis):
    """A redis-server of the test's own on a free port, keeping nothing on disk, so the test
    may kill it or restart it empty without touching the machine's Redis."""

    def __init__(self, root: Path) -> None:
        super().__init__(root, persistent=False)


@dataclass
class Part:
    """One ``paiju`` command as a process of its own session (so its pool dies with it), which
    the test starts, kills and starts again as a supervisor would; each run logs to a file."""

    name: str
    argv: list[str]
    env: dict[str, str]
    logs: Path
    process: subprocess.Popen[bytes] | None = None
    runs: int = 0
    log_path: Path = field(default_factory=Path)

    def start(self) -> None:
        self.runs += 1
        self.log_path = self.logs / f"{self.name}-{self.runs}.log"
        with self.log_path.open("w") as out:
            self.process = subprocess.Popen(
                [*paiju(), *self.argv], env=self.env, stdout=out, stderr=out,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        return self.log_path.read_text("utf-8", "replace") if self.log_path.exists() else ""

    def wait_for_log(self, text: str, timeout: float) -> bool:
        return self.wait_for_log_count(text, 1, timeout)

    def wait_for_log_count(self, text: str, times: int, timeout: float) -> bool:
        """Until ``text`` is in this run's log ``times`` times (False: it died, or timed out)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log_text().count(text) >= times:
                return True
            if not self.alive():
                return False
            time.sleep(0.02)
        return False

    def children(self) -> list[int]:
        """The part's own child processes (a worker's pool), read from /proc."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if self.process is not None and int(fields[1]) == self.process.pid:
                    found.append(int(stat.parent.name))
        return found

    def kill_group(self) -> None:
        """SIGKILL the part and every process of its session (a worker's main and pool)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """A warm stop (SIGTERM to the session), then SIGKILL if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.kill_group()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A redis-server of this test's own (the fault and operations tests' conftests take it
    from here), stopped after the test."""
    root = tmp_path / "redis"
    root.mkdir()
    server = PrivateRedis(root)
    server.start()
    try:
        yield server
    finally:
        server.stop()
