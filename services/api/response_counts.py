"""Counts every answer of the API by status class (``paiju_http_responses_total{status}``), so
that an API answering 5xx can be alerted on (``deploy/alerts.yaml``: ``PaijuApiErrors``).

A request that ends in an exception before any answer was started is counted 5xx: Starlette's
outermost handler answers it 500, outside this middleware.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ops import metrics


class ResponseCounts:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        counted = False

        async def counting(message: Message) -> None:
            nonlocal counted
            if message["type"] == "http.response.start" and not counted:
                counted = True
                metrics.http_response(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        except Exception:
            if not counted:
                metrics.http_response(500)
            raise
