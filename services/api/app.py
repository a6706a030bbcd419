"""The platform's HTTP API: ``create_api(ctx)`` is the FastAPI app on one ``ApiContext``.

Routes: the platform's (an API key: open tables, deal, mint tokens), a seat's (its token:
commands, view, legal commands, its live stream) and outcomes of commands. Every error is a
problem document (RFC 9457); bodies are bounded; CORS is off unless origins are configured.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.api import (
    problems,
    routes_dashboard,
    routes_ops,
    routes_platform,
    routes_reads,
    routes_replay,
    routes_replay_seat,
    routes_rooms,
    routes_rulings,
    routes_seats,
    routes_stream,
    routes_table_life,
)
from services.api.bodies import room_settings_schema, seat_command_schema
from services.api.commands import REQUIRED_HEADERS
from services.api.context import ApiContext
from services.api.limits import RateLimits, rate_limited
from services.api.page_headers import PageHeaders
from services.api.presence import Presence
from services.api.response_counts import ResponseCounts
from services.api.wire import CommandRefusal


class BodyLimit:
    """Refuses a body over ``limit`` bytes with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise problems.Problem(413, "Body too large",
                                       f"a request body is at most {self.limit} bytes")  # fmt: skip
            return message

        await self.app(scope, bounded, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problems.problem_response(
            413, "Body too large", f"a request body is at most {self.limit} bytes"
        )
        await response(scope, receive, send)


def _parameters(schema: dict[str, Any]) -> None:
    """Mark the headers a route cannot go without as required (``commands.REQUIRED_HEADERS``),
    and say an optional parameter as one that may be left out, not as one that may be null: a
    query or a header holds text, so FastAPI's ``anyOf [..., {"type": "null"}]`` of an
    ``int | None`` told clients they may send ``?min_position=null``."""
    for methods in schema.get("paths", {}).values():
        for operation in methods.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "header" and parameter["name"].lower() in REQUIRED_HEADERS:
                    parameter["required"] = True
                found = parameter.get("schema", {})
                kinds = [k for k in found.get("anyOf", []) if k.get("type") != "null"]
                if "anyOf" in found and len(kinds) == 1:
                    del found["anyOf"]
                    found.update(kinds[0])


def _seat_command_body(schema: dict[str, Any], components: dict[str, Any]) -> None:
    """The seat's command route reads its body itself (to answer a bad one in its own words):
    the document says what it reads, one of the seat's commands (``bodies``)."""
    body, defs = seat_command_schema()
    for name, model in defs.items():
        components.setdefault(name, model)
    route = schema["paths"]["/v1/tables/{table_id}/commands"]["post"]
    route["requestBody"]["content"]["application/json"]["schema"] = body


def create_api(ctx: ApiContext) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx.start()
        yield
        ctx.wakeups.stop()

    api = FastAPI(
        title="Paiju platform API",
        version="1",
        summary="Tables, seats, commands and live per-seat streams of the Paiju table service",
        lifespan=lifespan,
        responses=problems.problem_responses(),
        dependencies=[Depends(rate_limited)],  # every route, those of every router included
    )
    # no redirect of "/v1/reads/rooms/" to "/v1/reads/rooms": a path the document does not
    # have is 404, not another route's answer (a list read as one room's)
    api.router.redirect_slashes = False
    api.state.context = ctx
    api.state.rate_limits = RateLimits(ctx.settings)
    ctx.presence = ctx.presence or Presence(ctx)
    problems.install(api)
    routers = (routes_platform, routes_seats, routes_stream, routes_reads, routes_replay,
               routes_replay_seat, routes_rulings, routes_dashboard, routes_rooms,
               routes_table_life)  # fmt: skip
    for module in routers:
        api.include_router(module.router)
    api.include_router(routes_ops.router)  # /metrics, /healthz, /readyz
    api.add_middleware(BodyLimit, limit=ctx.settings.api_max_body_bytes)
    api.add_middleware(problems.CorrelationIds)  # every answer carries it
    api.add_middleware(PageHeaders)  # CSP, no framing, nosniff, no referrer: every answer
    api.add_middleware(ResponseCounts)  # outermost of ours: every answer counted
    origins = [o.strip() for o in ctx.settings.api_cors_origins.split(",") if o.strip()]
    if origins:
        api.add_middleware(CORSMiddleware, allow_origins=origins, allow_methods=["GET", "POST", "PUT"],
                           allow_headers=["Authorization", "Content-Type", "Idempotency-Key",
                                          "If-Match", "Last-Event-ID"],
                           expose_headers=["Retry-After", problems.CORRELATION_HEADER])  # fmt: skip

    default_openapi = api.openapi

    def openapi() -> dict[str, Any]:
        if api.openapi_schema is None:
            schema = default_openapi()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            components["ProblemDetails"] = problems.PROBLEM_DETAILS
            refusal = CommandRefusal.model_json_schema(
                ref_template="#/components/schemas/{model}", mode="serialization")
            for name, model in refusal.pop("$defs", {}).items():
                components.setdefault(name, model)  # FastAPI's own, where it has one
            components["CommandRefusal"] = refusal
            _parameters(schema)
            _seat_command_body(schema, components)
            components["RoomSettings"] = room_settings_schema(components["RoomSettings"])
            api.openapi_schema = schema
        return api.openapi_schema

    api.openapi = openapi  # type: ignore[method-assign]
    return api
