"""``paiju serve``: every part of the service, on the embedded default or as processes.

Embedded (``PAIJU_BROKER_URL`` unset, i.e. ``memory://``): one process and nothing to install.
The SQLite store, Celery's in-memory transport with a worker in a thread, the timekeeper, the
projector (the read models) and the reactor as threads; the in-memory queue dies with the
process, which loses no command a caller was told about (outcomes are in the store; a caller
that got none sends it again).

With a broker other processes reach (``redis://``), the same parts run as separate OS
processes (``paiju api``, ``paiju worker``, ``paiju timekeeper``, ``paiju projector``,
``paiju reactor``), any number of each, restarted when one exits: what the store and the
leases make safe is exactly that any of them may die at any moment. The API processes listen
on ports of their own (one each, chosen before they start, so a restarted one comes back where
it was) and share one token secret, so a seat token minted by one is good at every other.

The demo (``--demo``) is ``paiju demo``'s client in a thread: it plays over the API only, with
a key this process creates for it in the store and revokes when it stops.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TextIO

import structlog

from ops.health_parts import embedded_worker_beat, watched
from readmodels.runner import Projector
from services.demo.http_demo import HttpDemo, Plan
from services.settings import Settings
from workers.embedded import EmbeddedWorker
from workers.parts import Parts
from workers.reactor.runner import Reactor
from workers.resender import resender_for
from workers.timekeeper import Timekeeper

log = structlog.get_logger("paiju.serve")


@dataclass
class Embedded:
    """The parts of the embedded default, started and stopped together."""

    settings: Settings
    out: TextIO = sys.stdout
    demo_tables: int = 0
    demo_pace: float = 0.3
    demo_hands: int | None = None  # per table; None: until stopped
    demo_idle_seat: int | None = 3
    with_api: bool = True
    stop: threading.Event = field(default_factory=threading.Event)
    demo_stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        # one set of parts for every thread: one store, one cache of folds, one app
        self.parts = Parts(self.settings)
        self.app = self.parts.app
        self.worker = EmbeddedWorker(self.app, concurrency=self.settings.concurrency)
        self.worker.start()
        self.store = self.parts.store()  # made here: the beats look at it
        self.beats = [embedded_worker_beat(self.settings).start()]
        self.timekeeper = self.parts.timekeeper()  # firing here, on the parts' table service
        self._part("timekeeper", self.timekeeper)
        resender = resender_for(self.store, self.app)  # type: ignore[arg-type]
        self._thread("resender", resender.run)
        self.projector = self.parts.projector()
        self._part("projector", self.projector)
        self.reactor = self.parts.reactor()  # None: no webhook
        if self.reactor is not None:  # it dispatches to the effects queue, which the worker serves
            self._part("reactor", self.reactor)
        self.readers: list[Timekeeper | Projector | Reactor] = []
        for partition in sorted(self.settings.table_store_urls()):  # each table store's readers too
            found = [("timekeeper", self.parts.timekeeper(partition=partition)),
                     ("projector", self.parts.projector(partition=partition)),
                     ("reactor", self.parts.reactor(partition=partition))]  # fmt: skip
            for name, reader in found:
                if reader is not None:
                    self.readers.append(reader)
                    self._part(name, reader, partition)
        self.api = None
        if self.with_api:  # the platform's HTTP API, on this process's app and worker thread
            from services.api.run import RunningApi

            self.api = RunningApi(self.settings, parts=self.parts, any_port_if_taken=True).__enter__()
        self.demo: HttpDemo | None = None
        self.demo_key: str | None = None
        if self.demo_tables:
            if self.api is None:
                raise ValueError("the demo plays over the API: start it with the API")
            # operator: at its end the demo dissolves its tables' hands in play (demo.closing)
            made = self.api.ctx.keys.create(["tables", "tokens", "operator"], "paiju serve --demo")
            self.demo_key = made.key.key_id
            self.demo = HttpDemo(self.api.address, made.token, demo_plan(self), self.out)
            # stopped first, on an event of its own: it ends its tables through the parts
            self.demo_thread = threading.Thread(target=self._play_demo, args=(self.demo_stop,),
                                                name="demo", daemon=True)  # fmt: skip
            self.demo_thread.start()

    def _play_demo(self, stop: threading.Event) -> None:
        assert self.demo is not None
        try:
            asyncio.run(self.demo.run(stop))
        except Exception as error:  # the demo's end is printed; the service goes on
            print(f"paiju serve: the demo stopped: {error}", file=self.out, flush=True)
            log.warning("serve.demo_failed", error=str(error))

    def _part(self, name: str, part: Timekeeper | Projector | Reactor, partition: int = 0) -> None:
        """A part in a thread of its own, writing its heartbeat as its process would (the
        API's /readyz and the dashboard read them from this process's board)."""

        def run(stop: threading.Event) -> None:
            with watched(name, self.settings, part, partition):
                part.run(stop)

        self._thread(f"{name}@{partition}" if partition else name, run)

    def _thread(self, name: str, run: Callable[[threading.Event], None]) -> None:
        thread = threading.Thread(target=run, args=(self.stop,), name=name, daemon=True)
        thread.start()
        self.threads.append(thread)

    def close(self) -> None:
        if self.demo is not None:  # the demo first: its tables closed while the parts still run
            self.demo_stop.set()
            self.demo_thread.join(30)
        self.stop.set()
        for thread in self.threads:
            thread.join(10)
        if self.api is not None:
            if self.demo_key is not None:
                self.api.ctx.keys.revoke(self.demo_key)
            self.api.__exit__(None, None, None)
        for beat in self.beats:
            beat.stop()
        self.worker.stop()
        for part in [self.reactor, *self.readers]:
            if isinstance(part, Reactor):
                part.outbox.close()
        for part in [self.projector, *self.readers]:
            if isinstance(part, Projector):
                part.db.close()  # its own database, apart from the parts' read models
        self.parts.close()


@dataclass
class Part:
    """One OS process of the service, restarted whenever it exits."""

    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = None
    restarts: int = 0

    def ensure(self, env: dict[str, str]) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        if self.process is not None:
            self.restarts += 1
            log.warning("part.exited", part=self.name, code=self.process.returncode)
        self.process = subprocess.Popen(self.argv, env=env)

    def terminate(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def wait(self, timeout: float) -> None:
        if self.process is not None:
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()


def demo_plan(service: Embedded) -> Plan:
    from services.demo.http_demo import TIMING

    timing = {**TIMING, **service.settings.default_timing()}  # PAIJU_TURN_SECONDS and friends
    return Plan(tables=service.demo_tables, hands=service.demo_hands, pace=service.demo_pace,
                idle_seat=service.demo_idle_seat, timing=timing, close_at_end=True)  # fmt: skip


def parts(
    workers: int,
    timekeepers: int,
    reactors: int,
    with_reactor: bool,
    projectors: int = 1,
    api_ports: Sequence[int] = (),
    partitions: Sequence[int] = (),
) -> list[Part]:
    """The processes of a distributed run: a ``paiju api`` on each of ``api_ports``, then
    ``paiju worker`` and friends, n of each (more than one projector: the others stand by,
    each build led by one); the readers again for each table store in ``partitions``."""
    paiju = [sys.executable, "-m", "services.cli.main"]
    found = [Part(f"api-{n}", [*paiju, "api", "--port", str(port)]) for n, port in enumerate(api_ports)]
    found += [Part(f"worker-{n}", [*paiju, "worker"]) for n in range(workers)]
    found += [Part(f"timekeeper-{n}", [*paiju, "timekeeper"]) for n in range(timekeepers)]
    found += [Part(f"projector-{n}", [*paiju, "projector"]) for n in range(projectors)]
    if with_reactor:
        found += [Part(f"reactor-{n}", [*paiju, "reactor"]) for n in range(reactors)]
    for p in partitions:  # a table store's log: its own timekeepers, projectors and reactors
        on = ["--partition", str(p)]
        found += [Part(f"timekeeper-{n}@{p}", [*paiju, "timekeeper", *on]) for n in range(timekeepers)]
        found += [Part(f"projector-{n}@{p}", [*paiju, "projector", *on]) for n in range(projectors)]
        if with_reactor:
            found += [Part(f"reactor-{n}@{p}", [*paiju, "reactor", *on]) for n in range(reactors)]
    return found


def api_ports(host: str, first: int, count: int) -> list[int]:
    """Ports for ``count`` API processes: ``first``, ``first + 1``, ... where free, else any
    free one (``first`` 0: any free ones). Chosen here, before they start, so that the demo and
    the printed addresses know them, and a restarted process comes back on its own port."""
    found: list[int] = []
    for n in range(count):
        wanted = first + n if first else 0
        port = _bindable(host, wanted) if wanted else None
        found.append(port if port is not None else _bindable(host, 0) or 0)
    return found


def _bindable(host: str, port: int) -> int | None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return None
        bound: int = probe.getsockname()[1]
        return bound


def shared_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The parts' environment: one token secret for every API process (a seat token minted by
    one is good at the others), made here when none is set."""
    env = dict(environ)
    env.setdefault("PAIJU_API_TOKEN_SECRET", secrets.token_urlsafe(32))
    return env


def supervise(group: list[Part], stop: threading.Event, poll: float = 1.0,
              env: Mapping[str, str] | None = None) -> None:  # fmt: skip
    """Keep every part running until ``stop``; then stop them all (SIGTERM, then SIGKILL)."""
    env = dict(os.environ if env is None else env)
    try:
        while not stop.is_set():
            for part in group:
                part.ensure(env)
            stop.wait(poll)
    finally:
        for part in group:
            part.terminate()
        deadline = time.monotonic() + 20
        for part in group:
            part.wait(max(0.1, deadline - time.monotonic()))
