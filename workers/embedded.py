"""A Celery worker in a thread of this process: the embedded default's (``memory://``) worker.

``memory://`` queues live in the process, so the worker must too. It runs Celery's own
``WorkController`` with a threads pool (no signal handlers: those belong to the main thread),
without mingle, gossip or heartbeat (the in-memory transport has no fanout). ``stop`` is a
warm shutdown: tasks running finish first. Logging is the host process's to configure
(``workers.logging.configure_logging``): this worker leaves it as it finds it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from celery import Celery
from celery.worker import WorkController, state
from kombu.transport import memory

from workers.queues import QueueNames

ALL_QUEUES = tuple(name.value for name in QueueNames)


#: How long one wait for a message lasts before the worker looks at its stop flag again.
STOP_CHECK_SECONDS = 0.1


class PromptMemoryTransport(memory.Transport):  # type: ignore[misc]
    """``memory://`` whose waits for a message are cut to ``STOP_CHECK_SECONDS``.

    Celery's worker loop waits 2 s for a message before it looks at its stop flag, so a warm
    stop took 3.7 s with nothing to run; with a short wait it takes a tenth of a second. Only a
    wait with a timeout is cut (one without a timeout must not end in ``socket.timeout``), and
    the queues are ``memory.Channel``'s, shared by every connection of the process as before.
    """

    def drain_events(self, connection: Any, timeout: float | None = None) -> Any:
        if timeout is not None:
            timeout = min(timeout, STOP_CHECK_SECONDS)
        return super().drain_events(connection, timeout=timeout)


class _Controller(WorkController):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.ready = threading.Event()
        super().__init__(*args, **kwargs)

    def on_consumer_ready(self, consumer: Any) -> None:
        self.ready.set()


class EmbeddedWorker:
    """``with EmbeddedWorker(app): ...`` runs ``app``'s tasks in a daemon thread."""

    def __init__(
        self,
        app: Celery,
        *,
        concurrency: int = 2,
        queues: Iterable[str] = ALL_QUEUES,
        loglevel: str = "WARNING",
    ) -> None:
        self.app = app
        self.concurrency = concurrency
        self.queues = list(queues)
        self.loglevel = loglevel
        self._controller: _Controller | None = None
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 30.0) -> None:
        self.app.finalize()
        # The pool's threads find the app through Celery's process default (they have no
        # current app of their own): without it they would run the tasks of Celery's
        # default app, with none of this app's settings.
        self.app.set_default()
        controller = _Controller(
            app=self.app,
            concurrency=self.concurrency,
            pool="threads",
            loglevel=self.loglevel,
            queues=self.queues,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            ready_callback=None,
        )
        thread = threading.Thread(target=controller.start, name="celery-embedded", daemon=True)
        thread.start()
        if not controller.ready.wait(timeout):
            raise RuntimeError(f"the embedded Celery worker was not ready within {timeout:g} s")
        self._controller, self._thread = controller, thread

    def stop(self, timeout: float = 30.0) -> None:
        """Warm shutdown. Celery's stop flag is the process's: one embedded worker at a time."""
        if self._thread is None:
            return
        state.should_stop = 0
        try:
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise RuntimeError(f"the embedded Celery worker did not stop within {timeout:g} s")
        finally:
            state.should_stop = None
            self._thread = self._controller = None

    def __enter__(self) -> EmbeddedWorker:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
