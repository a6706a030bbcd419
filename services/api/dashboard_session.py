"""Who may watch the ops dashboard: an operator of the whole service, not of one table.

The credential is a platform API key with the ``operator`` scope (``paiju keys create
--scopes operator``). A browser signs in once with it (``POST /ops/dashboard/session``) and gets a
session cookie for a shift (``SESSION_SECONDS``): a JWT signed with the API's token secret,
naming the key (``{"kind": "ops", "key": key_id, "aud": "paiju-ops", "exp", ...}``),
HttpOnly, SameSite=Strict, for ``/ops/dashboard`` only. The key itself is never stored in the
browser. Every request checks the session's signature and expiry, that it was not signed
out, and that its key is still live with the ``operator`` scope, so revoking the key ends its
sessions (an open stream within ``RECHECK_SECONDS``). Signing out records the session's id
(``jti``) in the store until it would have expired (``KeyStore.end_session``): a copy of the
cookie kept, or still open in another tab, is refused by every API process on that store.

Scripts may instead send the key itself (``Authorization: Bearer pk_...``); the stream also
takes ``?access_token=`` (a key or a session token), since EventSource cannot send headers.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

import jwt
from fastapi import Request
from starlette.concurrency import run_in_threadpool

from services.api.auth import forbidden, verify_key
from services.api.context import ApiContext
from services.api.keys import PREFIX
from services.api.problems import Problem

COOKIE = "paiju_ops"
PATH = "/ops/dashboard"
REPLAY_PATH = "/ops/replay"  # the replay viewer (routes_replay), linked from each live table
AUDIENCE = "paiju-ops"
SCOPE = "operator"
RECHECK_SECONDS = 10.0
SESSION_SECONDS = 8 * 3600  # a shift: the key's revocation still ends it within seconds


@dataclass(frozen=True)
class Operator:
    key_id: str
    label: str
    expires_at: int | None  # the session's end (None: the key itself was sent)
    session_id: str | None = None  # the session's jti (None: the key itself was sent)


@dataclass(frozen=True)
class Session:
    key_id: str
    expires_at: int
    session_id: str


def mint(ctx: ApiContext, key_id: str, seconds: int | None = None) -> tuple[str, int]:
    """A session token for the operator key ``key_id``, and when it expires."""
    now = int(time.time())
    expires = now + (seconds or SESSION_SECONDS)
    body = {"kind": "ops", "key": key_id, "sub": key_id, "aud": AUDIENCE, "iat": now,
            "exp": expires, "jti": secrets.token_hex(8)}  # fmt: skip
    return jwt.encode(body, ctx.signer.secret, algorithm="HS256"), expires


def _session(ctx: ApiContext, raw: str) -> Session:
    try:
        body = jwt.decode(raw, ctx.signer.secret, algorithms=["HS256"], audience=AUDIENCE,
                          options={"require": ["exp", "iat", "aud", "jti"]})  # fmt: skip
    except jwt.ExpiredSignatureError:
        raise Problem(401, "Unauthorized", "the dashboard session has expired: sign in again"
                      ) from None  # fmt: skip
    except jwt.InvalidTokenError as error:
        raise Problem(401, "Unauthorized", f"the dashboard session is not valid: {error}"
                      ) from None  # fmt: skip
    if body.get("kind") != "ops" or not isinstance(body.get("key"), str):
        raise Problem(401, "Unauthorized", "the token is not a dashboard session")
    return Session(body["key"], int(body["exp"]), str(body["jti"]))


def _live_operator_key(ctx: ApiContext, key_id: str, session_id: str | None = None) -> str:
    if session_id is not None and ctx.keys.session_ended(session_id):
        raise Problem(401, "Unauthorized", "this dashboard session was signed out: sign in again")
    key = ctx.keys.get(key_id)
    if key is None or key.revoked:
        raise Problem(401, "Unauthorized", f"the API key {key_id} of this session is revoked")
    if SCOPE not in key.scopes:
        raise forbidden(f"the API key {key_id} lacks the {SCOPE!r} scope")
    return key.label


async def check(ctx: ApiContext, raw: str | None) -> Operator:
    """The operator ``raw`` (an API key, or a session token) stands for; else 401 or 403."""
    if not raw:
        raise Problem(401, "Unauthorized", "the dashboard needs an operator: sign in with an API"
                      " key with the 'operator' scope", {"WWW-Authenticate": "Bearer"})  # fmt: skip
    if raw.startswith(PREFIX):
        key = await verify_key(ctx, raw, SCOPE)
        return Operator(key.key_id, key.label, None)
    session = _session(ctx, raw)
    label = await run_in_threadpool(_live_operator_key, ctx, session.key_id, session.session_id)
    return Operator(session.key_id, label, session.expires_at, session.session_id)


def credential(request: Request, query: bool = False) -> str | None:
    """The request's header key, else its session cookie, else (``query``) ``?access_token=``."""
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer ") and header[7:].strip():
        return header[7:].strip()
    return request.cookies.get(COOKIE) or (request.query_params.get("access_token") if query
                                           else None)  # fmt: skip


async def sign_in(ctx: ApiContext, key: str) -> tuple[Operator, str, int]:
    """An operator key's session: who, its token (the cookie's value) and its lifetime."""
    if not key.startswith(PREFIX):
        raise Problem(401, "Unauthorized", "sign in with a platform API key (pk_...)")
    operator = await check(ctx, key)
    token, expires = mint(ctx, operator.key_id)
    return operator, token, expires - int(time.time())


async def sign_out(ctx: ApiContext, raw: str | None) -> None:
    """End the session ``raw`` names for good, at every API process on the store (a key, or
    a session no longer valid, has nothing to end)."""
    if not raw or raw.startswith(PREFIX):
        return
    try:
        session = _session(ctx, raw)
    except Problem:
        return
    await run_in_threadpool(ctx.keys.end_session, session.session_id, session.expires_at,
                            int(time.time()))  # fmt: skip


async def still_live(ctx: ApiContext, operator: Operator) -> bool:
    """Whether the operator's key is still live (an open stream asks now and then)."""
    if operator.expires_at is not None and operator.expires_at <= time.time():
        return False
    try:
        await run_in_threadpool(_live_operator_key, ctx, operator.key_id, operator.session_id)
    except Problem:
        return False
    return True


DEMO_LABEL = "paiju serve --demo: dashboard"


def where_to_watch(ctx: ApiContext, address: str, demo: bool = False) -> str:
    """What ``paiju serve`` prints: the dashboard's address and how to sign in. For the demo, a
    link that signs in by itself with an operator key made for it (in the fragment, which no
    request carries; the page's script posts it and forgets it); the last demo's key is
    revoked, so one lives at a time."""
    page = f"{address}{PATH}"
    if not demo:
        return f"dashboard on {page} (sign in with a key: paiju keys create --scopes operator)"
    for old in ctx.keys.list():
        if old.label == DEMO_LABEL and not old.revoked:
            ctx.keys.revoke(old.key_id)
    made = ctx.keys.create([SCOPE], DEMO_LABEL)
    return (f"dashboard on {page}#key={made.token} (signs in as the demo's operator);"
            f" replay viewer on {address}{REPLAY_PATH}#key={made.token}")  # fmt: skip
