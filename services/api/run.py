"""The API with what it needs, started and stopped together (``paiju api``, ``paiju serve``).

``RunningApi(settings, parts=...)`` opens the context (on a caller's parts: ``paiju serve``),
serves it under uvicorn in a thread and, ``with_worker`` (the embedded default of ``paiju
api``), runs a worker thread for its commands.
"""

from __future__ import annotations

from types import TracebackType

from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.settings import Settings
from workers.embedded import EmbeddedWorker
from workers.parts import Parts


class RunningApi:
    def __init__(self, settings: Settings, parts: Parts | None = None, with_worker: bool = False,
                 any_port_if_taken: bool = False) -> None:  # fmt: skip
        self.settings, self.parts, self.with_worker = settings, parts, with_worker
        self.any_port_if_taken = any_port_if_taken
        self.worker: EmbeddedWorker | None = None

    def __enter__(self) -> RunningApi:
        self.ctx = ApiContext.open(self.settings, parts=self.parts)
        if self.with_worker:
            self.worker = EmbeddedWorker(self.ctx.app, concurrency=self.settings.concurrency)
            self.worker.start()
        api = create_api(self.ctx)
        try:
            self.server = ApiServer(api, self.settings.api_host, self.settings.api_port).start()
        except RuntimeError:
            if not self.any_port_if_taken:
                self.__exit__(None, None, None)
                raise
            # ``paiju serve`` on a machine where the port is taken: any free one, printed
            self.server = ApiServer(api, self.settings.api_host, 0).start()
        return self

    @property
    def address(self) -> str:
        return self.server.address

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:  # fmt: skip
        if getattr(self, "server", None) is not None:
            self.server.stop()
        if self.worker is not None:
            self.worker.stop()
        self.ctx.close()
