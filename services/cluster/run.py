"""The local cluster: a PostgreSQL and a Redis of its own, and the service's parts as separate
OS processes on 127.0.0.1 (N APIs, M workers, two timekeepers, two projectors, a reactor with
a platform's webhook endpoint), each restarted when it exits, as a container orchestrator
would. ``Cluster`` starts them all and stops them all; ``services.cluster.load`` plays bots
against it and ``services.cluster.faults`` hurts it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from events.store import open_store
from services.api.keys import KeyStore
from services.cluster.platform import Receiver
from services.cluster.procs import ClusterPart
from services.cluster.servers import PrivatePostgres, PrivateRedis, free_port
from services.settings import Settings, load_settings

SECRET = "cluster-platform-webhook-secret"
KINDS = ("api", "worker", "timekeeper", "reactor", "projector")


def api_base(api: ClusterPart) -> str:
    """The address an API part serves at (its probe is its /healthz)."""
    return api.probe.removesuffix("/healthz")


class ClusterError(RuntimeError):
    """A part or server of the cluster did not come up (the message says which and shows its
    log), or its load could not be seated in time."""


@dataclass(frozen=True)
class Shape:
    """How many of each part."""

    apis: int = 2
    workers: int = 2
    concurrency: int = 1  # each worker's pool processes
    timekeepers: int = 2
    projectors: int = 2
    reactors: int = 1
    sharded: bool = False  # each worker serves one shard of the commands (a table meets one)
    partitions: int = 0  # table stores beside the home store (0: every table in the home store)
    partition_servers: bool = False  # each table store a PostgreSQL server of its own, not a schema


@dataclass
class Exit:
    """A part that ended on its own or was killed, and when it was started again."""

    part: str
    code: int | None
    at: float
    planned: bool  # killed by the fault plan (not a crash of its own)


@dataclass
class Cluster:
    """Every part of the service as processes, restarted on exit while ``supervising``."""

    shape: Shape = field(default_factory=Shape)
    settings: dict[str, str] = field(default_factory=dict)  # PAIJU_* for every part
    root: Path | None = None  # logs and the servers' files (a temporary folder if None)
    parts: list[ClusterPart] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    planned: set[str] = field(default_factory=set)  # parts being killed on purpose now
    holding: bool = False  # True: exited parts are left down (the final stop)

    def __enter__(self) -> Cluster:
        self.root = Path(tempfile.mkdtemp(prefix="paiju-cluster-")) if self.root is None else self.root
        (self.root / "logs").mkdir(parents=True, exist_ok=True)
        self._stack = contextlib.ExitStack()
        try:
            self._start()
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def _start(self) -> None:
        assert self.root is not None
        self.postgres = PrivatePostgres(self.root)
        self.postgres.start()
        self._stack.callback(self.postgres.stop)
        self.redis = PrivateRedis(self.root)
        self.redis.start()
        self._stack.callback(self.redis.stop)
        self.store_url = self.postgres.url
        open_store(self.store_url).close()  # migrated once, before the parts race to do it
        self.table_servers: dict[int, PrivatePostgres] = {}
        self.table_stores: dict[int, str] = {}
        for number in range(1, self.shape.partitions + 1):
            self.table_stores[number] = self._table_store(number)
            open_store(self.table_stores[number]).close()
        keys = KeyStore(self.store_url)
        self.key = keys.create(["tables", "tokens"], "paiju cluster").token
        keys.close()
        self.receiver = Receiver(SECRET)
        self._stack.callback(self.receiver.close)
        self.env = self._environment()
        self.parts = self._parts()
        self._stack.callback(self.stop_all)
        for part in self.parts:
            part.start()
        for part in self.parts:
            if part.wait_answering(90) is None:
                raise ClusterError(f"{part.name} does not answer at {part.probe}:\n{part.log_tail()}")
        self._stop = threading.Event()
        self._supervisor = threading.Thread(target=self._supervise, name="supervisor", daemon=True)
        self._supervisor.start()

    def _table_store(self, number: int) -> str:
        """Table store ``number``: a schema of the home server, or a server of its own."""
        if not self.shape.partition_servers:
            return f"{self.postgres.url}?schema=tables{number}"
        assert self.root is not None
        server = PrivatePostgres(self.root)
        server.start()
        self._stack.callback(server.stop)
        self.table_servers[number] = server
        return server.url

    def settings_here(self) -> Settings:
        """The run's stores as this process reads them (the end checks: every partition)."""
        stores = " ".join(f"{n}={url}" for n, url in self.table_stores.items())
        return load_settings(store_url=self.store_url, table_stores=stores)

    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")}
        return env | {
            "PAIJU_BROKER_URL": self.redis.url, "PAIJU_STORE_URL": self.store_url,
            "PAIJU_LOG_LEVEL": "WARNING", "PAIJU_LOG_FORMAT": "json",
            "PAIJU_API_TOKEN_SECRET": "a-cluster-token-secret-of-32-bytes-or-more",
            "PAIJU_API_RATE_LIMIT_STREAM_CONNECTS": "100000/minute",
            "PAIJU_WEBHOOK_URL": self.receiver.url, "PAIJU_WEBHOOK_SECRET": SECRET,
            **self._shards(),
            **({"PAIJU_TABLE_STORES": " ".join(f"{n}={url}" for n, url in self.table_stores.items())}
               if self.table_stores else {}),
            **self.settings,
        }  # fmt: skip

    def _shards(self) -> dict[str, str]:
        """One command shard per worker (``workers.queues.command_queue``), when sharded."""
        shards = self.shape.workers if self.shape.sharded else 1
        return {"PAIJU_COMMAND_SHARDS": str(shards)} if shards > 1 else {}

    def _parts(self) -> list[ClusterPart]:
        assert self.root is not None
        logs, shape = self.root / "logs", self.shape
        found = []

        def add(kind: str, n: int | str, argv: list[str], port: int, probe_path: str, **env: str) -> None:
            probe = f"http://127.0.0.1:{port}{probe_path}"
            found.append(ClusterPart(f"{kind}-{n}", kind, argv, self.env | env, logs, probe))

        for n in range(shape.apis):
            port = free_port()
            add("api", n, ["api", "--port", str(port)], port, "/healthz")
        worker = ["worker", "--concurrency", str(shape.concurrency)]
        for kind, count, argv in (("worker", shape.workers, worker),
                                  ("timekeeper", shape.timekeepers, ["timekeeper"]),
                                  ("projector", shape.projectors, ["projector"]),
                                  ("reactor", shape.reactors, ["reactor"])):  # fmt: skip
            for n in range(count):
                port = free_port()
                shard = ({"PAIJU_COMMAND_SHARD": str(n)}
                         if kind == "worker" and "PAIJU_COMMAND_SHARDS" in self.env else {})  # fmt: skip
                add(kind, n, argv, port, "/metrics", PAIJU_METRICS_PORT=str(port), **shard)
        for number in self.table_stores:  # each table store's log: readers of its own
            for kind, count in (("timekeeper", shape.timekeepers), ("projector", shape.projectors),
                                ("reactor", shape.reactors)):  # fmt: skip
                for n in range(count):
                    port = free_port()
                    add(kind, f"{n}@{number}", [kind, "--partition", str(number)], port,
                        "/metrics", PAIJU_METRICS_PORT=str(port))  # fmt: skip
        return found

    @property
    def api_bases(self) -> list[str]:
        return [api_base(p) for p in self.of("api")]

    def of(self, kind: str) -> list[ClusterPart]:
        return [p for p in self.parts if p.kind == kind]

    def _supervise(self) -> None:
        while not self._stop.wait(0.1):
            for part in self.parts:
                if not part.alive() and not self.holding:
                    assert part.process is not None
                    code = part.process.returncode
                    self.exits.append(Exit(part.name, code, time.monotonic(), part.name in self.planned))
                    part.start()

    def kill(self, part: ClusterPart) -> float:
        """kill -9 the part's session; the supervisor starts it again. When (perf_counter)."""
        self.planned.add(part.name)
        try:
            part.kill_group()
            return time.perf_counter()
        finally:
            time.sleep(0.3)  # the supervisor sees the exit as planned
            self.planned.discard(part.name)

    def stop_kinds(self, *kinds: str) -> dict[str, int | None]:
        """Stop these parts (SIGTERM) and keep them down; each one's exit code."""
        self.holding = True
        return {p.name: p.stop() for p in self.parts if p.kind in kinds}

    def stop_all(self) -> None:
        self.holding = True
        if hasattr(self, "_stop"):
            self._stop.set()
            self._supervisor.join(5)
        for part in self.parts:
            part.stop()

    def unplanned_exits(self) -> list[Exit]:
        return [e for e in self.exits if not e.planned]

