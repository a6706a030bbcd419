"""Problem details (RFC 9457) for every error the API gives, and never a stack trace.

``Problem(status, title, detail)`` raised anywhere becomes ``application/problem+json``
``{"type", "title", "status", "detail"}`` (and extension members, e.g. ``limit``); FastAPI's
own errors (404 no route, 405 wrong method, 422 validation) are problem documents that name
what was wrong; a table whose rules version this process does not have (``RulesVersion
Unavailable``, from any route that folds or commands it) is 503 with ``Retry-After``, naming
the table's version and this process's (an upgraded process answers for it); a store that
cannot be reached just now (PostgreSQL restarting) is 503 with ``Retry-After``; anything
unexpected is logged here with its trace and a correlation id, and answered 500 with that id
and no detail of the code.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import anyio
import psycopg
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from events.envelope import InvalidIdError
from services.rules.variants.versions import RulesVersionUnavailable

log = structlog.get_logger("paiju.api")
MEDIA_TYPE = "application/problem+json"
CORRELATION_HEADER = "X-Correlation-ID"
_GIVEN_CORRELATION = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
RULES_RETRY_AFTER = 5
"""Seconds a caller waits before asking again for a table of a rules version this process
lacks: long enough for a load balancer to send it to an upgraded process, or a rollout to move."""


class Problem(Exception):
    def __init__(
        self,
        status: int,
        title: str,
        detail: str,
        headers: dict[str, str] | None = None,
        extensions: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail, self.headers = status, title, detail, headers
        self.extensions = extensions or {}


def problem_response(
    status: int,
    title: str,
    detail: str,
    headers: dict[str, str] | None = None,
    extensions: dict[str, Any] | None = None,
) -> JSONResponse:
    # "about:blank" unless the problem names its kind (``answers.problem_type``)
    body = {"type": "about:blank", **(extensions or {}), "title": title, "status": status,
            "detail": detail}  # fmt: skip
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


PROBLEM_DETAILS: dict[str, Any] = {
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "limit": {"type": "string", "description": "429: the limit that was reached"},
        "retry_after": {"type": "integer", "description": "429: seconds until it allows one more"},
        "correlation_id": {"type": "string", "description": "500: the id the server logged"},
        "rules_version": {"type": "string", "description": "503: the table's rules version"},
        "known_versions": {"type": "array", "items": {"type": "string"},
                           "description": "503: the rules versions this process has"},
    },
}
"""The schema of ``ProblemDetails`` in the OpenAPI document."""

PROBLEM_REF = {"$ref": "#/components/schemas/ProblemDetails"}
PROBLEM_SCHEMA: dict[str, Any] = {
    "description": "A problem (RFC 9457)",
    "content": {MEDIA_TYPE: {"schema": PROBLEM_REF}},
}
PROBLEM_STATUSES = (400, 401, 403, 404, 405, 409, 412, 413, 422, 429, 500, 503)
"""The statuses any route may answer with a problem document (documented on every route)."""


def problem_responses() -> dict[int | str, dict[str, Any]]:
    return {status: PROBLEM_SCHEMA for status in PROBLEM_STATUSES}


class CorrelationIds:
    """Gives each HTTP request a correlation id: bound in the log context (the commands it
    sends carry it to the workers), kept in ``request.state`` and sent back in
    ``X-Correlation-ID``. A caller's own id is kept if it is short and plain."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(CORRELATION_HEADER.lower().encode(), b"")
        text = given.decode("latin-1")
        correlation = text if _GIVEN_CORRELATION.match(text) else uuid.uuid4().hex
        scope.setdefault("state", {})["correlation_id"] = correlation

        started = False

        async def tagged(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[CORRELATION_HEADER] = correlation
                started = True
            await send(message)

        with structlog.contextvars.bound_contextvars(correlation_id=correlation):
            try:
                await self.app(scope, receive, tagged)
            except Exception as error:
                if not (started and _client_gone(error)):
                    raise
                # FastAPI's stream machinery can trip on its own closed pipe when the client
                # drops a live stream: the answer was given, nobody is left to tell.
                log.info("api.client_gone", path=scope.get("path", "")[:200])


def _client_gone(error: BaseException) -> bool:
    """Only closed-stream errors (anyio's), however grouped: a client that went away."""
    if isinstance(error, BaseExceptionGroup):
        return all(_client_gone(inner) for inner in error.exceptions)
    return isinstance(error, anyio.BrokenResourceError | anyio.ClosedResourceError)


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if p != "body") or "body"


def _http_detail(request: Request, error: StarletteHTTPException) -> tuple[str, str]:
    """FastAPI's and Starlette's own errors, said as what the request got wrong."""
    if error.status_code == 404 and error.detail == "Not Found":
        return "Not found", f"no route {request.url.path[:200]!r}"
    if error.status_code == 405:
        allowed = (error.headers or {}).get("Allow", "")
        return "Method not allowed", f"{request.method} is not allowed here; allowed: {allowed}"
    detail = error.detail if isinstance(error.detail, str) else "see the status"
    return detail, detail


STORE_RETRY_AFTER = 2
"""Seconds a client waits before asking again while the store cannot be reached."""


def install(app: FastAPI) -> None:
    @app.exception_handler(Problem)
    async def _problem(request: Request, error: Problem) -> JSONResponse:
        return problem_response(error.status, error.title, error.detail, error.headers,
                                error.extensions)  # fmt: skip

    @app.exception_handler(InvalidIdError)
    async def _bad_id(request: Request, error: InvalidIdError) -> JSONResponse:
        # An id a request carried (a body's table_id, say) that no store could keep.
        return problem_response(422, "Invalid id", str(error))

    @app.exception_handler(RulesVersionUnavailable)
    async def _rules_unavailable(request: Request, error: RulesVersionUnavailable) -> JSONResponse:
        # Not the request's fault, nor the table's: another process (upgraded) answers for it.
        log.warning("api.rules_version_unavailable", path=request.url.path[:200],
                    rules_version=error.version, known=error.known)  # fmt: skip
        have = ", ".join(error.known) or "none"
        return problem_response(
            503, "Rules version unavailable",
            f"this table is played under rules version {error.version!r}, which this process "
            f"does not have (it has: {have}); ask again, or ask a process that has it",
            {"Retry-After": str(RULES_RETRY_AFTER)},
            {"rules_version": error.version, "known_versions": list(error.known),
             "retry_after": RULES_RETRY_AFTER},
        )  # fmt: skip

    @app.exception_handler(psycopg.OperationalError)
    async def _store_unreachable(request: Request, error: psycopg.OperationalError) -> JSONResponse:
        # PostgreSQL restarting or unreachable: nothing this request asked was done (a command
        # claimed nothing; a retry with the same Idempotency-Key is answered as the first).
        log.warning("api.store_unavailable", path=request.url.path[:200], error=str(error)[:200])
        return problem_response(
            503, "Store unavailable",
            "the event store cannot be reached just now; send the same request again",
            {"Retry-After": str(STORE_RETRY_AFTER)}, {"retry_after": STORE_RETRY_AFTER},
        )  # fmt: skip

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [f"{_where(tuple(e['loc']))}: {e['msg']}" for e in error.errors()[:5]]
        return problem_response(422, "Invalid request", "; ".join(problems))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        title, detail = _http_detail(request, error)
        return problem_response(error.status_code, title, detail, getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        correlation = getattr(request.state, "correlation_id", None) or uuid.uuid4().hex
        log.error("api.unexpected", path=request.url.path, method=request.method,
                  correlation_id=correlation, error=repr(error), exc_info=error)  # fmt: skip
        return problem_response(
            500, "Internal error",
            "the server could not answer this request; it was logged",
            {CORRELATION_HEADER: correlation}, {"correlation_id": correlation},
        )  # fmt: skip
