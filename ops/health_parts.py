"""Each long-running part's heartbeat and ``/metrics``, started and stopped with the part.

    with watched("timekeeper", settings, keeper):       # paiju timekeeper, reactor, projector
        run_until_stopped("timekeeper", keeper.run)

    watch_worker(app, settings)                          # paiju worker, before worker_main

A heartbeat thread looks at the part every ``PAIJU_HEARTBEAT_SECONDS`` (its loop's own
liveness stamp, its positions, its store) and writes what it saw (``ops.health``). The
prefork worker's main process serves the sum of its children's metrics files and writes the
worker's heartbeat; the children only record.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import structlog
from celery import Celery, signals
from prometheus_client.registry import Collector

from ops import metrics_serve
from ops.health import Heartbeat, StoreLook, board_for, instance_name
from services.settings import Settings
from services.tables.partitions import merged_position

log = structlog.get_logger("paiju.health")
Look = Callable[[], tuple[list[str], dict[str, Any]]]


class Beat:
    """A daemon thread writing ``part``'s heartbeat; removed again on a clean stop."""

    def __init__(self, part: str, settings: Settings, look: Look, partition: int = 0) -> None:
        self.part, self.settings, self.look = part, settings, look
        self.board = board_for(settings)
        # one process may read several partitions: a beat for each, told apart
        self.instance = instance_name() + (f"@{partition}" if partition else "")
        self.extra: dict[str, Any] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"heartbeat-{part}", daemon=True)

    def start(self) -> Beat:
        self._thread.start()
        return self

    def beat(self) -> Heartbeat:
        try:
            problems, detail = self.look()
        except Exception as error:
            problems, detail = [f"cannot look at itself: {type(error).__name__}: {error}"], {}
        heartbeat = Heartbeat(self.part, self.instance, time.time(), problems,
                              {**self.extra, **detail})  # fmt: skip
        self.board.write(heartbeat)
        return heartbeat

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.beat()
            except Exception as error:  # the broker is away: the heartbeat goes stale, as it should
                log.warning("heartbeat.not_written", part=self.part, error=str(error))
            self._stop.wait(self.settings.heartbeat_seconds)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        with contextlib.suppress(Exception):
            self.board.remove(Heartbeat(self.part, self.instance, 0.0))


def _with_store(settings: Settings, look: Look) -> Look:
    store = StoreLook(settings.store_url)

    def both() -> tuple[list[str], dict[str, Any]]:
        problems, detail = look()
        problem = store.problem()
        return ([problem] if problem else []) + problems, detail

    return both


def _head(settings: Settings, partition: int) -> Callable[[], int]:
    """The head of a partition's log as a merged position (the home store's: its own)."""
    if not partition:
        return StoreLook(settings.store_url).head
    look, base = StoreLook(settings.table_store_urls()[partition]), merged_position(partition, 0)
    return lambda: base + look.head()


def _timekeeper(settings: Settings, keeper: Any, partition: int = 0) -> tuple[Look, list[Collector]]:
    stuck_after = max(settings.heartbeat_stale_seconds, 3 * keeper.max_sleep)

    def look() -> tuple[list[str], dict[str, Any]]:
        idle = time.monotonic() - keeper.beat if keeper.beat else 0.0
        problems = [f"timekeeper loop stuck for {idle:.0f} s"] if idle > stuck_after else []
        return problems, {"fired": keeper.fired, "failed": keeper.failed}

    in_flight = metrics_serve.Gauges(lambda: [(
        "paiju_timers_in_flight", "Timers claimed by this timekeeper and not yet fired", [],
        [([], keeper._in_flight)])])  # fmt: skip
    return look, [in_flight]


def _projector(settings: Settings, projector: Any, partition: int = 0) -> tuple[Look, list[Collector]]:
    head = _head(settings, partition)

    def look() -> tuple[list[str], dict[str, Any]]:
        led = {c.projection.name: c for c in projector.consumers if c.lease is not None}
        problems = [f"projector {name} {c.stopped}" for name, c in sorted(led.items())
                    if c.stopped and c.stopped != "dropped"]  # fmt: skip
        return problems, {"leading": {name: c.position for name, c in sorted(led.items())}}

    def lag() -> list[tuple[str, str, list[str], list[Any]]]:
        top = head()
        led = [c for c in projector.consumers if c.lease is not None and c.build.active]
        return [("paiju_projection_lag", "Positions the live build of each projection this"
                 " projector leads is behind the store head", ["projection"],
                 [([c.projection.name], max(0, top - c.position)) for c in led])]  # fmt: skip

    return look, [metrics_serve.Gauges(lag)]


def _reactor(settings: Settings, reactor: Any, partition: int = 0) -> tuple[Look, list[Collector]]:
    head = _head(settings, partition)

    def look() -> tuple[list[str], dict[str, Any]]:
        counts = reactor.counts
        return [], {"position": reactor.position, "written": counts.written,
                    "dispatched": counts.dispatched}  # fmt: skip

    def lag() -> list[tuple[str, str, list[str], list[Any]]]:
        return [("paiju_reactor_lag", "Positions the notification reactor is behind the store"
                 " head", [], [([], max(0, head() - reactor.position))])]  # fmt: skip

    return look, [metrics_serve.Gauges(lag)]


LOOKS = {"timekeeper": _timekeeper, "projector": _projector, "reactor": _reactor}


@contextlib.contextmanager
def watched(part: str, settings: Settings, subject: Any, partition: int = 0) -> Iterator[Beat]:
    """``part``'s heartbeat and, if ``PAIJU_METRICS_PORT`` is set, its ``/metrics``; a reader
    of a table store (``partition``) beats as an instance of its own."""
    look, read = LOOKS[part](settings, subject, partition)
    server = metrics_serve.serve_metrics(settings, *read)
    beat = Beat(part, settings, _with_store(settings, look), partition)
    beat.extra["partition"] = partition
    if server is not None:
        beat.extra["metrics"] = server.address
    beat.start()
    try:
        yield beat
    finally:
        beat.stop()
        if server is not None:
            server.stop()


def embedded_worker_beat(settings: Settings) -> Beat:
    """The heartbeat of the embedded default's worker thread (its queue is this process's)."""
    detail = {"concurrency": settings.concurrency, "embedded": True}
    return Beat("worker", settings, _with_store(settings, lambda: ([], detail)))


def watch_worker(app: Celery, settings: Settings) -> None:
    """A prefork worker's metrics (its children's, added up in the main process) and heartbeat.

    Called in ``paiju worker`` before ``worker_main``: multiprocess mode is on before any
    metric exists and before the pool forks; the heartbeat starts once the worker is ready
    (consuming) and is removed when it shuts down."""
    server, directory, made_here = None, None, False
    if settings.metrics_port is not None:
        directory, made_here = metrics_serve.use_multiprocess(settings.metrics_dir)
        server = metrics_serve.serve_metrics(settings)
    detail = {"concurrency": settings.concurrency}
    if server is not None:
        detail["metrics"] = server.address  # type: ignore[assignment]
    beat = Beat("worker", settings, _with_store(settings, lambda: ([], detail)))

    @signals.worker_process_shutdown.connect(weak=False, dispatch_uid="paiju.metrics.child_exit")
    def _child_exit(**_: Any) -> None:
        metrics_serve.child_exited()

    @signals.worker_ready.connect(weak=False, dispatch_uid="paiju.health.worker_ready")
    def _ready(**_: Any) -> None:
        beat.start()

    @signals.worker_shutdown.connect(weak=False, dispatch_uid="paiju.health.worker_shutdown")
    def _shutdown(**_: Any) -> None:
        beat.stop()
        if server is not None:
            server.stop()
        if made_here and directory is not None:
            metrics_serve.remove_dir(directory)
