"""``paiju serve``: every part of the service, on the embedded default or as processes.

Embedded (``PAIJU_BROKER_URL`` unset, i.e. ``memory://``): one process and nothing to install.
The SQLite store, Celery's in-memory transport with a worker in a thread, the timekeeper, the
projector (the read models) and the reactor as threads; the in-memory queue dies with the
process, which loses no command a caller was told about (outcomes are in the store; a caller
that got none sends it again).

With a broker other processes reach (``redis://``), the same parts run as separate OS
processes (``paiju worker``, ``paiju timekeeper``, ``paiju projector``, ``paiju reactor``),
any number of each, restarted when one exits: what the store and the leases make safe is
exactly that any of them may die at any moment.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

import structlog

from events.store import open_store
from services.demo.driver import Demo
from services.rules.table.commands import Command
from workers.app import create_app
from workers.embedded import EmbeddedWorker
from workers.projections.runner import Projector
from workers.reactor.wiring import reactor_for
from workers.settings import Settings
from workers.task import build_service
from workers.timekeeper import Timekeeper, fire_inline

log = structlog.get_logger("paiju.serve")


@dataclass
class Embedded:
    """The parts of the embedded default, started and stopped together."""

    settings: Settings
    out: TextIO = sys.stdout
    demo_tables: int = 0
    demo_pace: float = 0.3
    with_api: bool = True
    stop: threading.Event = field(default_factory=threading.Event)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> None:
        self.app = create_app(self.settings)
        self.worker = EmbeddedWorker(self.app, concurrency=self.settings.concurrency)
        self.worker.start()
        self.store = open_store(self.settings.store_url)
        self.timekeeper = Timekeeper(self.store, fire_inline(build_service(self.settings)))  # type: ignore[arg-type]
        self._thread("timekeeper", self.timekeeper.run)
        self.projector = embedded_projector(self.settings)
        self._thread("projector", self.projector.run)
        self.reactor = reactor_for(self.settings, self.store, app=self.app)  # None: no webhook
        if self.reactor is not None:  # it dispatches to the effects queue, which the worker serves
            self._thread("reactor", self.reactor.run)
        self.api = None
        if self.with_api:  # the platform's HTTP API, on this process's app and worker thread
            from services.api.run import RunningApi

            self.api = RunningApi(self.settings, app=self.app, any_port_if_taken=True).__enter__()
        if self.demo_tables:
            self.demo = Demo(
                self.store,
                self.send,
                self.out,
                tables=self.demo_tables,
                timing=self.settings.default_timing() or None,
            )
            self._thread("demo", lambda stop: self.demo.run(stop, self.demo_pace))

    def send(self, table_id: str, command: Command, command_id: str) -> None:
        from workers.client import submit

        submit(self.app, table_id, command, command_id=command_id)

    def _thread(self, name: str, run: Callable[[threading.Event], None]) -> None:
        thread = threading.Thread(target=run, args=(self.stop,), name=name, daemon=True)
        thread.start()
        self.threads.append(thread)

    def close(self) -> None:
        self.stop.set()
        if self.api is not None:
            self.api.__exit__(None, None, None)
        for thread in self.threads:
            thread.join(10)
        self.worker.stop()
        if self.reactor is not None:
            self.reactor.outbox.close()
        self.store.close()


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


def embedded_projector(settings: Settings) -> Projector:
    """The read models kept in this process: every projection of the catalog."""
    from workers.projections import catalog
    from workers.projections.db import open_projection_db

    store = open_store(settings.store_url)
    return Projector(store, open_projection_db(settings.store_url), catalog.ALL)


def parts(
    workers: int,
    timekeepers: int,
    reactors: int,
    with_reactor: bool,
    projectors: int = 1,
    with_api: bool = False,
) -> list[Part]:
    """The processes of a distributed run: ``paiju worker`` and friends, n of each (more
    than one projector: the others stand by, each build led by one); ``with_api``: one
    ``paiju api`` too (not yet by default: run ``paiju api`` beside them)."""
    paiju = [sys.executable, "-m", "services.cli.main"]
    found = [Part(f"worker-{n}", [*paiju, "worker"]) for n in range(workers)]
    if with_api:
        found.append(Part("api", [*paiju, "api", "--any-port-if-taken"]))
    found += [Part(f"timekeeper-{n}", [*paiju, "timekeeper"]) for n in range(timekeepers)]
    found += [Part(f"projector-{n}", [*paiju, "projector"]) for n in range(projectors)]
    if with_reactor:
        found += [Part(f"reactor-{n}", [*paiju, "reactor"]) for n in range(reactors)]
    return found


def supervise(group: list[Part], stop: threading.Event, poll: float = 1.0) -> None:
    """Keep every part running until ``stop``; then stop them all (SIGTERM, then SIGKILL)."""
    env = dict(os.environ)
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
