"""The embedded default's Celery worker, a thread of the API's process: its warm stop lets the
task in flight finish, and its queue waits are short so that stop does not wait them out."""

from __future__ import annotations

import threading
from pathlib import Path

from kombu.transport import memory

from services.settings import load_settings
from workers.app import create_app
from workers.embedded import EmbeddedWorker, PromptMemoryTransport
from workers.queues import QueueNames


def test_a_warm_stop_lets_the_task_in_flight_finish_first(tmp_path: Path) -> None:
    app = create_app(load_settings(store_url=f"sqlite:///{tmp_path}/embedded.sqlite3"))
    began, release, finished = threading.Event(), threading.Event(), threading.Event()

    @app.task(name="tests.hold_until_released")  # type: ignore[untyped-decorator]
    def hold_until_released() -> None:
        began.set()
        release.wait(10)
        finished.set()

    worker = EmbeddedWorker(app, concurrency=1)
    worker.start()
    hold_until_released.apply_async(queue=QueueNames.maintenance.value)
    assert began.wait(10), "the worker never took the task"
    stopping = threading.Thread(target=worker.stop)
    stopping.start()
    stopping.join(0.5)
    assert stopping.is_alive() and not finished.is_set()  # the stop waits on the task
    release.set()
    stopping.join(10)
    assert finished.is_set() and not stopping.is_alive()


def test_the_embedded_app_reads_memorys_own_queues_through_the_prompt_transport() -> None:
    app = create_app(load_settings(store_url="sqlite:///unused.sqlite3"))
    with app.connection_for_read() as reading, app.connection_for_write() as writing:
        assert isinstance(reading.transport, PromptMemoryTransport)
        # the queues the API's producers fill are memory.Channel's, one set per process
        assert reading.transport.Channel is writing.transport.Channel is memory.Channel
