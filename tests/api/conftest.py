"""The API on the embedded path: a SQLite store, ``memory://`` with a worker thread, the app
in process (``client``: httpx over ASGITransport) and under uvicorn on 127.0.0.1:0
(``served``: for the streams, which ASGITransport buffers forever, httpx #2186)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from api_kit import Api

from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.settings import load_settings
from workers.embedded import EmbeddedWorker


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    root = tmp_path_factory.mktemp("api")
    settings = load_settings(
        store_url=f"sqlite:///{root}/api.sqlite3", api_drop_grace_seconds=0.3,
        api_heartbeat_seconds=0.3, api_command_wait=5,
    )  # fmt: skip
    ctx = ApiContext.open(settings)
    server = ApiServer(create_api(ctx))
    with EmbeddedWorker(ctx.app, concurrency=2):
        server.start()
        try:
            key = ctx.keys.create(["tables", "tokens", "operator"], "tests").token
            yield Api(ctx, server.address, key)
        finally:
            server.stop()
            ctx.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client(api: Api) -> AsyncIterator[httpx.AsyncClient]:
    """The same app as ``api`` serves, in process (its own FastAPI object on the context)."""
    transport = httpx.ASGITransport(app=create_api(api.ctx))
    async with httpx.AsyncClient(transport=transport, base_url="http://api.test") as found:
        yield found


@pytest.fixture
def http(api: Api) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=api.base, timeout=10) as found:
        yield found
