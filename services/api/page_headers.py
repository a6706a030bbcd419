"""The headers every answer carries so that no other site can frame, sniff or script our pages.

The HTML pages (the ops dashboard and its sign-in form, the replay viewer) load only their own
script and style files and read only this origin: no inline script, no inline style, no other
host. So the Content-Security-Policy allows exactly that, forbids framing (clickjacking the
sign-out or the replay's export) and form posts elsewhere; ``X-Frame-Options`` says the same
to older browsers, ``nosniff`` keeps a JSON answer from being run as a script, and
``no-referrer`` keeps a page's address (a table id, a player searched for) from other sites.
FastAPI's own API docs (``/docs``, ``/redoc``) load Swagger UI from a CDN with an inline
script: they get every header but the policy.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
ALWAYS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
API_DOCS = ("/docs", "/redoc")  # FastAPI's defaults (and /docs/oauth2-redirect)


class PageHeaders:
    """Adds ``ALWAYS`` to every HTTP answer, and ``POLICY`` to all but the API docs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        extra = list(ALWAYS)
        if not path.startswith(API_DOCS):
            extra.append((b"content-security-policy", POLICY.encode()))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)
