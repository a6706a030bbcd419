"""The cluster's own PostgreSQL and Redis: started in a temporary folder on free ports of
127.0.0.1, so that a fault run may crash and restart them without touching the machine's.

PostgreSQL is initialised with ``initdb`` (as the ``postgres`` user when run as root: the
server refuses to run as root) and crashed with ``pg_ctl stop -m immediate``, which is a
power cut as far as the data is concerned: the restart replays the WAL. Redis keeps an
append-only file (``appendfsync everysec``) with ``noeviction``, as ``deploy/`` runs it, and is
crashed with SIGKILL and started again on the same file.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
import redis


class ServerError(RuntimeError):
    """A server of the cluster's own did not start, with where its log is."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _pg_bin(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))), None)
    if found is None:
        raise ServerError(f"{name} not found (on PATH or in /usr/lib/postgresql/*/bin)")
    return found


def _as_postgres() -> list[str]:
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class PrivatePostgres:
    """A PostgreSQL server in ``root``/pg on a free port; its store URL is ``url``."""

    def __init__(self, root: Path) -> None:
        # a folder of its own under /tmp: the server runs as ``postgres``, which may not enter
        # ``root`` (pytest's and mkdtemp's folders are 0700)
        self.data = Path(tempfile.mkdtemp(prefix="paiju-pg-")) / "pg"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.log = self.data.parent / "postgres.log"
        self.restarts = 0

    def start(self) -> None:
        if not (self.data / "PG_VERSION").exists():
            self.data.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(self.data, "postgres", "postgres")
                shutil.chown(self.data.parent, "postgres", "postgres")
            self._run([_pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                       "--no-sync", "-E", "UTF8"])  # fmt: skip
        options = (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 "
                   "-c max_connections=300 -c shared_buffers=256MB")  # fmt: skip
        self.log.touch()
        if os.geteuid() == 0:
            shutil.chown(self.log, "postgres")
        self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.log),
                   "-w", "-t", "60", "start"])  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(psycopg.OperationalError):
                psycopg.connect(self.url, connect_timeout=2).close()
                return
            time.sleep(0.1)
        raise ServerError(f"PostgreSQL on port {self.port} does not answer: see {self.log}")

    def crash(self) -> None:
        """Stop at once, as a power cut would (no checkpoint; the restart replays the WAL)."""
        self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])

    def restart(self) -> None:
        self.crash()
        self.start()
        self.restarts += 1

    def stop(self) -> None:
        """Stop and remove its folder."""
        with contextlib.suppress(ServerError):
            self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"])
        shutil.rmtree(self.data.parent, ignore_errors=True)

    def _run(self, argv: list[str]) -> None:
        done = subprocess.run([*_as_postgres(), *argv], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise ServerError(f"{Path(argv[0]).name} failed ({done.returncode}): "
                              f"{(done.stderr or done.stdout).strip()[-400:]} (log {self.log})")  # fmt: skip


class PrivateRedis:
    """A redis-server in ``root``/redis on a free port, with an append-only file (or, not
    ``persistent``, keeping nothing on disk: a restart is then an empty Redis)."""

    def __init__(self, root: Path, persistent: bool = True) -> None:
        self.persistent = persistent
        self.dir = root / "redis"
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = root / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
                 str(self.dir), "--save", "", "--appendonly", "yes" if self.persistent else "no",
                 "--appendfsync", "everysec",
                 "--maxmemory-policy", "noeviction"],
                stdout=log, stderr=log, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.RedisError):
                if self.client().ping():
                    return
            time.sleep(0.05)
        raise ServerError(f"redis-server on port {self.port} did not start: see {self.log}")

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)

    def restart(self) -> None:
        """SIGKILL, then start again on the append-only file (at most a second of writes lost)."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.start()
        self.restarts += 1

    def restart_empty(self) -> None:
        """``shutdown nosave`` and start again: (not persistent) every key gone."""
        with contextlib.suppress(redis.RedisError):
            self.client().shutdown(nosave=True)
        if self.process is not None:
            self.process.wait(10)
        self.start()
        self.restarts += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
