"""The ops dashboard: server-rendered pages for operators, updated live by server-sent events.

- ``GET /ops/dashboard``: the page (live tables, rooms, 排行榜 and 称号, recent penalties, the
  health of the parts), rendered with the current snapshot; without a credential, the sign-in
  form (200: nothing was refused); with one refused (a revoked key, a session signed out), the
  form and why (401).
- ``POST /ops/dashboard/session`` (form ``key=pk_...``, a key with the ``operator`` scope): a
  session cookie and back to the page; ``POST /ops/dashboard/session/end`` signs out (the
  session is ended in the store: its cookie is refused from then on, at every API process).
- ``GET /ops/dashboard/events``: the stream. An event ``snapshot`` every second, and as soon as
  the store's head moves (at most every quarter second), with every panel's HTML; the page
  swaps them in. Cookie, ``Authorization: Bearer pk_...`` or ``?access_token=``.
- ``GET /ops/dashboard/snapshot``: the same snapshot as JSON, for scripts.
Who may watch: ``services.api.dashboard_session``. What is shown: ``dashboard_data``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from importlib import resources
from string import Template
from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from services.api import dashboard_render, dashboard_session
from services.api.auth import Ctx
from services.api.context import ApiContext
from services.api.dashboard_data import Dashboard, Snapshot
from services.api.dashboard_session import Operator
from services.api.problems import Problem

router = APIRouter(prefix="/ops/dashboard", tags=["dashboard"])
STATIC = {"dashboard.js": "text/javascript", "dashboard.css": "text/css"}
SNAPSHOT_SECONDS = 1.0
_made = threading.Lock()


def _file(folder: str, name: str) -> str:
    return resources.files("services.api").joinpath(folder, name).read_text("utf-8")


def dashboard_of(request: Request) -> Dashboard:
    """The app's one ``Dashboard`` (its snapshot is shared by every viewer)."""
    state = request.app.state
    with _made:
        if getattr(state, "dashboard", None) is None:
            ctx: ApiContext = state.context
            state.dashboard = Dashboard(ctx.settings, ctx.store, ctx.read_models,
                                        logs=ctx.parts.logs())  # fmt: skip
    found: Dashboard = state.dashboard
    return found


Board = Annotated[Dashboard, Depends(dashboard_of)]


async def operator(request: Request, ctx: Ctx) -> Operator:
    return await dashboard_session.check(ctx, dashboard_session.credential(request))


async def stream_operator(request: Request, ctx: Ctx) -> Operator:
    return await dashboard_session.check(ctx, dashboard_session.credential(request, query=True))


def sign_in_page(status: int, message: str = "") -> HTMLResponse:
    shown = f'<p class="problem" role="alert">{dashboard_render.e(message)}</p>' if message else ""
    body = Template(_file("templates", "dashboard_signin.html")).substitute(message=shown)
    return HTMLResponse(body, status_code=status)


@router.get("", response_class=HTMLResponse, summary="The ops dashboard (operators)",
            include_in_schema=False)  # a page for a browser, as /ops/replay
async def page(request: Request, ctx: Ctx, board: Board) -> HTMLResponse:
    try:
        who = await dashboard_session.check(ctx, dashboard_session.credential(request))
    except Problem as problem:
        if dashboard_session.credential(request) is None:
            # nothing was refused: the form is what a browser asks for before it signs in (a
            # 401 here was an error in its console on the way to every sign-in)
            return sign_in_page(200)
        return sign_in_page(problem.status, problem.detail)
    snapshot: Snapshot = await run_in_threadpool(board.snapshot)
    panels = dashboard_render.panels(snapshot)
    body = Template(_file("templates", "dashboard.html")).substitute(
        who=dashboard_render.e(who.label or who.key_id), state=dashboard_render.overall(snapshot),
        at=dashboard_render.e(snapshot.at.isoformat()), **panels,
    )  # fmt: skip
    return HTMLResponse(body, headers={"Cache-Control": "no-store"})


@router.post("/session", summary="Sign in with an operator API key (form field key)",
             include_in_schema=False)  # answers the page or a redirect
async def session(request: Request, ctx: Ctx) -> Response:
    body = await request.body()
    key = (parse_qs(body.decode("utf-8", "replace")).get("key") or [""])[0].strip()
    try:
        _, token, seconds = await dashboard_session.sign_in(ctx, key)
    except Problem as problem:
        return sign_in_page(problem.status, problem.detail)
    done = RedirectResponse(dashboard_session.PATH, status_code=303)
    done.set_cookie(dashboard_session.COOKIE, token, max_age=seconds, httponly=True,
                    samesite="strict", path=dashboard_session.PATH,
                    secure=request.url.scheme == "https")  # fmt: skip
    return done


@router.post("/session/end", summary="Sign out of the dashboard", include_in_schema=False)
async def session_end(request: Request, ctx: Ctx) -> Response:
    # Ended in the store, not only in this browser: a kept copy of the cookie is refused too.
    await dashboard_session.sign_out(ctx, dashboard_session.credential(request))
    done = RedirectResponse(dashboard_session.PATH, status_code=303)
    done.delete_cookie(dashboard_session.COOKIE, path=dashboard_session.PATH)
    return done


@router.get("/snapshot", summary="What the dashboard shows, as JSON")
async def snapshot(board: Board, who: Annotated[Operator, Depends(operator)]) -> dict[str, Any]:
    found: Snapshot = await run_in_threadpool(board.snapshot)
    return found.model_dump(mode="json")


@router.get("/events", response_class=EventSourceResponse, summary="The dashboard's stream")
async def events(
    ctx: Ctx, board: Board, who: Annotated[Operator, Depends(stream_operator)]
) -> AsyncIterator[ServerSentEvent]:
    checked = 0.0
    loop_time = asyncio.get_running_loop().time
    for _ in range(10**9):  # bounded; a viewer reconnects (EventSource does so by itself)
        seen = ctx.wakeups.generation
        if loop_time() - checked >= dashboard_session.RECHECK_SECONDS:
            if not await dashboard_session.still_live(ctx, who):
                yield ServerSentEvent(event="signed_out", data={"reason": "session ended"})
                return
            checked = loop_time()
        found: Snapshot = await run_in_threadpool(board.snapshot)
        yield ServerSentEvent(event="snapshot", data=dashboard_render.event_data(found))
        if await ctx.wakeups.wait(seen, SNAPSHOT_SECONDS):
            await asyncio.sleep(board.fresh)  # a burst of events: one snapshot


@router.get("/static/{name}", summary="The dashboard's script and style", include_in_schema=False)
async def static(name: str) -> Response:
    if name not in STATIC:
        raise Problem(404, "Not found", f"the dashboard has no file {name[:40]!r}")
    return Response(_file("static", name), media_type=STATIC[name],
                    headers={"Cache-Control": "max-age=300"})  # fmt: skip
