"""Operations: ``/metrics`` (Prometheus), ``/healthz`` (liveness), ``/readyz`` (readiness).

``/metrics`` is what this process recorded (commands, when a worker runs in it; rate-limit
refusals) and what is read when scraped: queue depth in Redis, open streams, each
projection's lag behind the store head, timers due. ``/readyz`` is 200 when the store and the
broker answer, else 503, and reports every part (``workers.health.assess``): its problems
("no worker heartbeat for 42 s", "projector points stopped at position …"). None of them
needs a key: serve them on the operators' network only.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry
from starlette.concurrency import run_in_threadpool

from services.api.context import ApiContext
from workers import health, metrics_serve

router = APIRouter(tags=["operations"])


def _store_gauges(ctx: ApiContext) -> metrics_serve.Gauges:
    look = health.StoreLook(ctx.settings.store_url)

    def read() -> list[tuple[str, str, list[str], list[Any]]]:
        head, builds = look.head(), look.projections()
        return [
            ("paiju_store_head_position", "The store's last position", [], [([], head)]),
            ("paiju_projection_lag", "Positions each projection's live build is behind the"
             " store head", ["projection"],
             [([name], max(0, head - position)) for name, (position, _) in sorted(builds.items())]),
            ("paiju_projection_stopped", "1 when a projection's live build stopped at an event"
             " it cannot apply", ["projection"],
             [([name], int(error is not None)) for name, (_, error) in sorted(builds.items())]),
            ("paiju_timers_due", "Timers whose due time has passed, not yet fired", [],
             [([], look.timers_due())]),
        ]  # fmt: skip

    return metrics_serve.Gauges(read)


def _streams(ctx: ApiContext) -> metrics_serve.Gauges:
    def read() -> list[tuple[str, str, list[str], list[Any]]]:
        open_ = sum(ctx.presence.open.values()) if ctx.presence is not None else 0
        return [("paiju_open_streams", "Seat streams open on this API process", [], [([], open_)])]

    return metrics_serve.Gauges(read)


def registry_of(ctx: ApiContext) -> CollectorRegistry:
    """One per API context, made on the first scrape."""
    registry = getattr(ctx, "_ops_registry", None)
    if registry is None:
        registry = metrics_serve.process_registry(
            metrics_serve.queue_depth(ctx.settings), _streams(ctx), _store_gauges(ctx)
        )
        ctx._ops_registry = registry  # type: ignore[attr-defined]
    return registry


@router.get("/metrics", summary="Prometheus metrics of this process and the service")
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
