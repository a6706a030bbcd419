"""The base of Paiju's tasks: a task asks its app's parts (``workers.parts``) for the table
service, made once per worker process on the process's one store.

The parts are made on first use in the process that runs tasks: after a prefork worker forked
its children, so no connection is ever shared across a fork. In a threads pool every thread
shares them: the stores are thread-safe, and one folded-table cache serves all threads.
"""

from __future__ import annotations

import threading
from typing import Any

from celery import Task, signals

from services.settings import Settings, load_settings
from services.tables import TableService
from workers.parts import Parts, parts_of

_OPENED: list[Parts] = []  # the parts of this process that tasks asked for
_OPENED_LOCK = threading.Lock()


class PaijuTask(Task):  # type: ignore[misc]
    @property
    def settings(self) -> Settings:
        settings = getattr(self.app, "settings", None)
        return settings if isinstance(settings, Settings) else load_settings()

    @property
    def parts(self) -> Parts:
        parts = parts_of(self.app)
        with _OPENED_LOCK:
            if not any(p is parts for p in _OPENED):
                _OPENED.append(parts)
        return parts

    @property
    def service(self) -> TableService:
        return self.parts.table_service()


@signals.worker_process_shutdown.connect(weak=False, dispatch_uid="paiju.close_services")
@signals.worker_shutdown.connect(weak=False, dispatch_uid="paiju.close_services_main")
def close_services(**_: Any) -> None:
    """Close the parts this process opened for its tasks (a worker stopping)."""
    with _OPENED_LOCK:
        opened = list(_OPENED)
        _OPENED.clear()
    for parts in opened:
        parts.close()
