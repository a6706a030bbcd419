"""The embedded API's ``/metrics``: the commands its worker thread ran, and its open streams."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import httpx
from ops_kit import samples, until

from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.settings import load_settings
from workers.embedded import EmbeddedWorker

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "api"))
from api_kit import open_dealt_table_sync  # noqa: E402

OPENED = (("command", "open_table"), ("outcome", "accepted"))


def test_the_api_counts_its_worker_threads_commands_and_its_open_streams(tmp_path: Path) -> None:
    settings = load_settings(store_url=f"sqlite:///{tmp_path}/api.sqlite3", api_command_wait=5)
    ctx = ApiContext.open(settings)
    server = ApiServer(create_api(ctx))
    with EmbeddedWorker(ctx.app, concurrency=2):
        server.start()
        try:
            key = ctx.keys.create(["tables", "tokens", "operator"], "ops").token
            with httpx.Client(base_url=server.address, timeout=10,
                              headers={"Authorization": f"Bearer {key}"}) as http:  # fmt: skip
                def scraped() -> str:
                    return http.get("/metrics").text

                before = samples(scraped(), "paiju_commands_total")[OPENED]
                table = open_dealt_table_sync(http, key)
                assert samples(scraped(), "paiju_commands_total")[OPENED] == before + 1
                streaming, leave = threading.Event(), threading.Event()

                def watch() -> None:
                    url = f"{server.address}/v1/tables/{table.table_id}/seats/0/events"
                    with httpx.stream("GET", url, headers=table.seat(0), timeout=10) as response:
                        for line in response.iter_lines():
                            if line.startswith("data:"):
                                streaming.set()
                                leave.wait(10)
                                return

                watcher = threading.Thread(target=watch)
                watcher.start()
                try:
                    assert streaming.wait(10), "the stream sent nothing"
                    assert samples(scraped(), "paiju_open_streams") == {(): 1}
                finally:
                    leave.set()
                    watcher.join(10)
                assert until(lambda: samples(scraped(), "paiju_open_streams") == {(): 0}, 10)
        finally:
            server.stop()
            ctx.close()
