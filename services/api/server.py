"""Running the API under uvicorn in a thread: for ``paiju serve``, ``paiju api`` and tests.

``ApiServer(api, host, port).start()`` returns once uvicorn listens (port 0: any free port)
and ``address`` says where; ``stop()`` asks it to finish and joins the thread.
"""

from __future__ import annotations

import threading
import time

import uvicorn
from fastapi import FastAPI


class CannotListen(OSError):
    """The API could not bind its address: the port is in use, or not this process's to bind."""


class ApiServer:
    def __init__(self, api: FastAPI, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host, self.port = host, port
        config = uvicorn.Config(
            api, host=host, port=port, log_level="warning", access_log=False,
            lifespan="on", timeout_graceful_shutdown=2,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="paiju-api", daemon=True)

    def start(self, timeout: float = 10.0) -> ApiServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if self.thread.is_alive() and time.monotonic() > deadline:
                raise RuntimeError(f"the API server did not start within {timeout:g} s")
            if not self.thread.is_alive():  # uvicorn gave up: it could not bind
                raise CannotListen(
                    f"the API cannot listen on {self.host}:{self.port}: the port is in use or"
                    " not ours to bind (PAIJU_API_PORT chooses another; 0: any free one)"
                )
            time.sleep(0.01)
        return self

    @property
    def address(self) -> str:
        socket = self.server.servers[0].sockets[0]
        host, port = socket.getsockname()[:2]
        return f"http://{host}:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
