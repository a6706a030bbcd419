"""Serving the metrics: one ``/metrics`` per process, a prefork worker's children added up.

Two registries answer on one endpoint. The **recorded** one holds what ``ops.metrics``
counts as things happen: prometheus_client's default registry, or, in a prefork worker, a
``MultiProcessCollector`` over the files its children write (``use_multiprocess``: the
directory is wiped at start, and a child that exits is marked dead). The **read** one holds
collectors that look when scraped (queue depth in Redis, open streams, projection lag, timers
due): multiprocess mode forbids such collectors among the files, so they stay apart.

    registry = process_registry(queue_depth(settings))  # the API's (workers.queue_depth)
    text = exposition(registry)                         # or serve_metrics(settings, registry)
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import structlog
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from services.settings import Settings

log = structlog.get_logger("paiju.metrics")

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


def use_multiprocess(directory: str | None = None) -> tuple[Path, bool]:
    """Record this process's metrics, and its future children's, in files under ``directory``
    (else ``$PROMETHEUS_MULTIPROC_DIR``, else a fresh temporary directory), wiped of earlier
    runs' files first: a worker restarted with ``max_tasks_per_child`` would otherwise add up
    every pid it ever had. Must run before the first metric is made (``ops.metrics``
    makes them on first use). The directory, and whether it was made here (to remove)."""
    from prometheus_client import values

    from ops import metrics

    if metrics._made is not None:
        raise RuntimeError("metrics were recorded before multiprocess mode was switched on")
    given = directory or multiprocess_dir()
    path = Path(given) if given else Path(tempfile.mkdtemp(prefix="paiju-metrics-"))
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()
    os.environ[MULTIPROC_ENV] = str(path)
    values.ValueClass = values.get_value_class()  # prometheus_client read the variable at import
    return path, not given


def child_exited(pid: int | None = None) -> None:
    """A prefork child is gone: its live gauges leave the sums (its counters stay counted)."""
    directory = multiprocess_dir()
    if directory:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid(), directory)


class _Forward(Collector):
    """Another registry's metrics, as one collector of this one."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterator[Metric]:
        yield from self.registry.collect()


def recorded_registry() -> CollectorRegistry:
    """What this process (and, in multiprocess mode, every process of its directory) recorded."""
    directory = multiprocess_dir()
    if not directory:
        return REGISTRY
    from prometheus_client import multiprocess

    registry = CollectorRegistry(auto_describe=False)
    multiprocess.MultiProcessCollector(registry, path=directory)
    return registry


def process_registry(*read: Collector) -> CollectorRegistry:
    """The recorded metrics and the ``read`` collectors (each in a registry of its own), served
    as one."""
    looked_up = CollectorRegistry(auto_describe=False)
    for collector in read:
        looked_up.register(collector)
    served = CollectorRegistry(auto_describe=False)
    served.register(_Forward(recorded_registry()))
    served.register(_Forward(looked_up))
    return served


def exposition(registry: CollectorRegistry) -> bytes:
    return generate_latest(registry)


class MetricsServer:
    """``/metrics`` on ``settings.metrics_host``:``metrics_port`` in a daemon thread."""

    def __init__(self, settings: Settings, registry: CollectorRegistry) -> None:
        from prometheus_client import start_http_server

        assert settings.metrics_port is not None
        self.server, self.thread = start_http_server(
            settings.metrics_port, settings.metrics_host, registry=registry
        )
        host, port = self.server.server_address[:2]
        self.address = f"http://{host}:{port}/metrics"
        log.info("metrics.serving", address=self.address)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve_metrics(settings: Settings, *read: Collector) -> MetricsServer | None:
    """This process's ``/metrics``, if ``PAIJU_METRICS_PORT`` is set (None otherwise). A port
    another process holds (every part of ``paiju serve`` is given the same environment) costs
    this part its metrics, never its work: it is logged, and the part runs on."""
    if settings.metrics_port is None:
        return None
    try:
        return MetricsServer(settings, process_registry(*read))
    except OSError as error:
        log.error("metrics.not_served", host=settings.metrics_host, port=settings.metrics_port,
                  error=str(error))  # fmt: skip
        return None


def remove_dir(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


# --- collectors that look when scraped -------------------------------------------------------


class Gauges(Collector):
    """Gauges computed by ``read`` at each scrape: ``(name, help, labels, [(values, value)])``.
    A ``read`` that fails yields nothing (the scrape goes on) and logs why."""

    def __init__(self, read: Callable[[], Iterable[tuple[str, str, list[str], list[Any]]]]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        try:
            found = list(self.read())
        except Exception as error:
            log.warning("metrics.read_failed", error=f"{type(error).__name__}: {error}")
            return
        for name, text, labels, samples in found:
            family = GaugeMetricFamily(name, text, labels=labels)
            for label_values, value in samples:
                family.add_metric(label_values, value)
            yield family
