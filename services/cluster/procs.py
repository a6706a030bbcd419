"""The cluster's parts as OS processes: each ``paiju`` command in a session of its own (so a
kill -9 of the session takes a prefork worker's pool with it, as a container's end would), a
log file per run, a probe that says when it answers, and its CPU and memory read from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

PAIJU = [sys.executable, "-m", "services.cli.main"]
TICKS = os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it (a prefork worker's pool)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process tree so far."""
    total = 0
    for p in tree(pid):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / TICKS


def rss_mib(pid: int) -> float:
    """Resident memory of the process tree, MiB."""
    total = 0
    for p in tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


@dataclass
class ClusterPart:
    """One process of the cluster: ``kind`` (api, worker, timekeeper, projector, reactor),
    its ``paiju`` arguments and environment, and ``probe``: the URL that answers 200 once it
    is up (an API's /healthz, another part's /metrics on its own port)."""

    name: str
    kind: str
    argv: list[str]
    env: dict[str, str]
    logs: Path
    probe: str
    process: subprocess.Popen[bytes] | None = None
    runs: int = 0
    cpu_before: float = 0.0  # CPU of earlier runs (a killed process's CPU is gone from /proc)
    log_path: Path = field(default_factory=Path)
    started: float = 0.0  # time.monotonic() of the current run's start

    def start(self) -> None:
        self.runs += 1
        self.started = time.monotonic()
        self.log_path = self.logs / f"{self.name}-{self.runs}.log"
        with self.log_path.open("w") as out:
            self.process = subprocess.Popen([*PAIJU, *self.argv], env=self.env, stdout=out,
                                            stderr=out, start_new_session=True)  # fmt: skip

    @property
    def pid(self) -> int:
        assert self.process is not None, f"{self.name} was never started"
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def answering(self, timeout: float = 1.0) -> bool:
        """Its probe answers 200 (and the process is the one started last)."""
        if not self.alive():
            return False
        try:
            return httpx.get(self.probe, timeout=timeout).status_code == 200
        except httpx.HTTPError:
            return False

    def wait_answering(self, timeout: float) -> float | None:
        """Seconds until it answers, None if it did not within ``timeout``."""
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            if self.answering():
                return time.monotonic() - began
            time.sleep(0.05)
        return None

    def cpu(self) -> float:
        """CPU seconds of every run so far (the current one read live)."""
        return self.cpu_before + (cpu_seconds(self.pid) if self.alive() else 0.0)

    def kill_group(self) -> None:
        """SIGKILL the part's whole session (a worker's main process and its pool)."""
        # The supervisor thread starts a new run into ``self.process`` as soon as it sees this
        # one dead, so wait on the run that was killed, never on the attribute.
        killed = self.process
        if killed is None:
            return
        self.cpu_before += cpu_seconds(killed.pid)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(killed.pid, signal.SIGKILL)
        killed.wait(60)  # reaped at once, unless the machine is swamped

    def stop(self, timeout: float = 30) -> int | None:
        """A warm stop (SIGTERM to the session), SIGKILL if it hangs; its exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.cpu_before += cpu_seconds(self.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill_group()
        return self.process.returncode

    def log_tail(self, lines: int = 20) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text("utf-8", "replace").splitlines()[-lines:])
