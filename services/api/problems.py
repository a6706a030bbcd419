"""Problem details (RFC 9457) for every error the API gives, and never a stack trace.

``Problem(status, title, detail)`` raised anywhere becomes ``application/problem+json``
``{"type", "title", "status", "detail"}``; FastAPI's validation errors name the field that was
wrong; anything unexpected is logged here and answered 500 with no detail of the code.
"""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = structlog.get_logger("paiju.api")
MEDIA_TYPE = "application/problem+json"


class Problem(Exception):
    def __init__(
        self, status: int, title: str, detail: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(detail)
        self.status, self.title, self.detail, self.headers = status, title, detail, headers


def problem_response(
    status: int, title: str, detail: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


PROBLEM_SCHEMA: dict[str, Any] = {
    "description": "A problem (RFC 9457)",
    "content": {MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/ProblemDetails"}}},
}


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if p != "body") or "body"


def install(app: FastAPI) -> None:
    @app.exception_handler(Problem)
    async def _problem(request: Request, error: Problem) -> JSONResponse:
        return problem_response(error.status, error.title, error.detail, error.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [f"{_where(tuple(e['loc']))}: {e['msg']}" for e in error.errors()[:5]]
        return problem_response(422, "Invalid request", "; ".join(problems))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = error.detail if isinstance(error.detail, str) else "see the status"
        return problem_response(error.status_code, detail, detail, getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        log.error("api.unexpected", path=request.url.path, error=repr(error), exc_info=error)
        return problem_response(500, "Internal error", "the server could not answer this request; it was logged")
