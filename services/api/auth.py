"""Who is asking, as FastAPI dependencies: a platform API key, or a table token.

``Authorization: Bearer pk_...`` is an API key (``platform(scope)`` checks its scope);
``Authorization: Bearer <jwt>`` a seat, spectator or operator token (``table_token``). Only
the stream route also takes ``?access_token=``, since a browser's EventSource sets no header.
Every failure is a 401 (who are you?) or 403 (not this) naming what was wrong.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from services.api.context import ApiContext
from services.api.keys import PREFIX, ApiKey
from services.api.problems import Problem
from services.api.tokens import TableToken, TokenProblem

bearer = HTTPBearer(auto_error=False, description="pk_... API key, or a table token")
_CHALLENGE = {"WWW-Authenticate": "Bearer"}


def context(request: Request) -> ApiContext:
    found: ApiContext = request.app.state.context
    return found


Ctx = Annotated[ApiContext, Depends(context)]
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _unauthorized(detail: str) -> Problem:
    return Problem(401, "Unauthorized", detail, _CHALLENGE)


def forbidden(detail: str) -> Problem:
    return Problem(403, "Forbidden", detail)


async def verify_key(ctx: ApiContext, raw: str | None, scope: str | tuple[str, ...]) -> ApiKey:
    """The live API key ``raw``, which must have ``scope`` (a tuple: one of them); else 401
    or 403."""
    if raw is None:
        raise _unauthorized("this route needs a platform API key: Authorization: Bearer pk_...")
    if not raw.startswith(PREFIX):
        raise _unauthorized("this route needs a platform API key (pk_...), not a table token")
    key = await run_in_threadpool(ctx.keys.verify, raw)
    if key is None:
        raise _unauthorized("the API key is unknown, malformed or revoked")
    wanted = (scope,) if isinstance(scope, str) else scope
    if not set(wanted) & set(key.scopes):
        named = " or ".join(repr(s) for s in wanted)
        raise forbidden(f"the API key {key.key_id} lacks the {named} scope")
    return key


def platform(scope: str) -> Callable[..., Awaitable[ApiKey]]:
    """A dependency: the live API key of the request, which must have ``scope``."""

    async def check(
        credentials: Credentials, ctx: Ctx
    ) -> ApiKey:
        return await verify_key(ctx, None if credentials is None else credentials.credentials,
                                scope)  # fmt: skip

    return check


def _read_token(ctx: ApiContext, raw: str | None) -> TableToken:
    if not raw:
        raise _unauthorized("this route needs a table token: Authorization: Bearer <token>")
    if raw.startswith(PREFIX):
        raise _unauthorized("this route needs a table token the platform minted, not an API key")
    try:
        return ctx.signer.read(raw)
    except TokenProblem as problem:
        raise _unauthorized(str(problem)) from None


def table_token(credentials: Credentials, ctx: Ctx) -> TableToken:
    return _read_token(ctx, None if credentials is None else credentials.credentials)


def stream_token(request: Request, credentials: Credentials, ctx: Ctx) -> TableToken:
    """The header's token, else ``?access_token=`` (EventSource cannot set headers)."""
    raw = credentials.credentials if credentials is not None else None
    return _read_token(ctx, raw or request.query_params.get("access_token"))


def for_table(token: TableToken, table_id: str) -> TableToken:
    if token.table_id != table_id:
        raise forbidden(f"this token is for table {token.table_id!r}, not {table_id!r}")
    return token


def for_seat(token: TableToken, table_id: str, seat: int) -> TableToken:
    for_table(token, table_id)
    if token.role != "seat":
        raise forbidden(f"a {token.role} token acts for no seat; seat {seat} needs its own token")
    if token.seat != seat:
        raise forbidden(f"this token is for seat {token.seat}, not seat {seat}")
    return token


Token = Annotated[TableToken, Depends(table_token)]
StreamToken = Annotated[TableToken, Depends(stream_token)]
TablesKey = Annotated[ApiKey, Depends(platform("tables"))]
TokensKey = Annotated[ApiKey, Depends(platform("tokens"))]
OperatorKey = Annotated[ApiKey, Depends(platform("operator"))]
