"""Operations: ``/metrics`` (Prometheus), ``/healthz`` (liveness), ``/readyz`` (readiness).

``/metrics`` is what this process recorded (commands, when a worker runs in it) and what is
read when scraped: queue depth in Redis, open streams, each projection's lag behind the store
head, timers due, rate-limit refusals (``limits.COUNTS``). ``/readyz`` is 200 when the store and the
broker answer, else 503, and reports every part (``ops.health.assess``): its problems
("no worker heartbeat for 42 s", "projector points stopped at position …"). None of them
needs a key: serve them on the operators' network only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.concurrency import run_in_threadpool

from ops import health, metrics_serve
from services.api.context import ApiContext
from services.api.limits import COUNTS
from workers.queue_depth import queue_depth

router = APIRouter(tags=["operations"])


def _store_gauges(ctx: ApiContext) -> metrics_serve.Gauges:
    look = health.DeploymentLook(ctx.settings)  # the home store and every table store

    def read() -> list[tuple[str, str, list[str], list[Any]]]:
        head, builds = look.home.head(), look.lags()
        return [
            ("paiju_store_head_position", "The (home) store's last position", [], [([], head)]),
            ("paiju_projection_lag", "Positions each projection's live build is behind the"
             " store head (every table store's too)", ["projection"],
             [([name], max(0, lag)) for name, (lag, _) in sorted(builds.items())]),
            ("paiju_projection_stopped", "1 when a projection's live build stopped at an event"
             " it cannot apply", ["projection"],
             [([name], int(error is not None)) for name, (_, error) in sorted(builds.items())]),
            ("paiju_timers_due", "Timers whose due time has passed, not yet fired (in every"
             " store)", [],
             [([], look.timers_due())]),
        ]  # fmt: skip

    return metrics_serve.Gauges(read)


def _streams(ctx: ApiContext) -> metrics_serve.Gauges:
    def read() -> list[tuple[str, str, list[str], list[Any]]]:
        open_ = sum(ctx.presence.open.values()) if ctx.presence is not None else 0
        return [("paiju_open_streams", "Seat streams open on this API process", [], [([], open_)])]

    return metrics_serve.Gauges(read)


class _RateLimitCounts(Collector):
    """The API's rate-limit refusals, counted where they are decided (``limits.COUNTS``)."""

    def collect(self) -> Iterator[Metric]:
        counts = COUNTS.snapshot()
        refused = CounterMetricFamily("paiju_rate_limit_refusals", "Requests refused by a rate"
                                      " limit, by limit", labels=["limit"])  # fmt: skip
        for limit, count in sorted(dict(counts["refused"]).items()):  # type: ignore[arg-type]
            refused.add_metric([limit], count)
        yield refused
        faults = CounterMetricFamily("paiju_rate_limit_storage_faults", "Times the rate limits'"
                                     " storage failed (requests let through meanwhile)")  # fmt: skip
        faults.add_metric([], counts["storage_faults"])  # type: ignore[arg-type]
        yield faults


def registry_of(ctx: ApiContext) -> CollectorRegistry:
    """One per API context, made on the first scrape."""
    registry = getattr(ctx, "_ops_registry", None)
    if registry is None:
        registry = metrics_serve.process_registry(
            queue_depth(ctx.settings), _streams(ctx), _store_gauges(ctx),
            _RateLimitCounts(),
        )
        ctx._ops_registry = registry  # type: ignore[attr-defined]
    return registry


@router.get("/metrics", summary="Prometheus metrics of this process and the service",
            response_class=PlainTextResponse)  # fmt: skip
async def metrics(request: Request) -> Response:
    ctx: ApiContext = request.app.state.context
    body = await run_in_threadpool(metrics_serve.exposition, registry_of(ctx))
    return Response(body, media_type=metrics_serve.CONTENT_TYPE)


@router.get("/healthz", summary="Liveness: this process answers")
async def healthz() -> dict[str, str]:
    return {"status": "alive"}


@router.get("/readyz", summary="Readiness: the store and the broker; every part's health")
async def readyz(request: Request) -> JSONResponse:
    ctx: ApiContext = request.app.state.context
    report = await run_in_threadpool(health.assess, ctx.settings)
    return JSONResponse(report.as_json(), status_code=200 if report.ready else 503)
