"""The API on the embedded path: a SQLite store, ``memory://`` with a worker thread, the app
in process (``client``: httpx over ASGITransport) and under uvicorn on 127.0.0.1:0
(``served``: for the streams, which ASGITransport buffers forever, httpx #2186)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager

import httpx
import pytest
from api_kit import Api, open_dealt_table_sync, platform_headers
from fastapi import FastAPI
from fuzz_kit import Credentials
from starlette.testclient import TestClient

from readmodels import catalog
from readmodels.runner import Projector
from services.api.app import create_api
from services.api.context import ApiContext
from services.api.keys import SCOPES
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


@asynccontextmanager
async def _no_lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield  # the module's server runs the context's threads; the fuzzer's client must not


@pytest.fixture(scope="module")
def fuzzed(api: Api) -> Iterator[tuple[FastAPI, Credentials]]:
    """The app with its limits off (the fuzzer sends thousands), a dealt table and tokens."""
    settings = api.ctx.settings
    api.ctx.settings = settings.model_copy(update={
        "api_rate_limit_key": "", "api_rate_limit_commands": "", "api_rate_limit_reads": "",
        "api_rate_limit_anonymous": "", "api_command_wait": 0.5})  # fmt: skip
    try:
        app = create_api(api.ctx)
    finally:
        api.ctx.settings = settings
    app.router.lifespan_context = _no_lifespan
    key = api.ctx.keys.create(list(SCOPES), "fuzz").token
    with TestClient(app) as client:
        table = open_dealt_table_sync(client, key)
        minted = client.post(f"/v1/tables/{table.table_id}/tokens", headers=platform_headers(key),
                             json={"role": "operator", "subject": "fuzz"})  # fmt: skip
        operator = minted.json()["token"]
    projector = Projector(api.ctx.store, api.ctx.read_models(), list(catalog.ALL))
    projector.attach()
    projector.catch_up()  # the read models built, so reads answer rather than "behind"
    yield app, Credentials(key, table, operator)
