"""The base of Paiju's tasks: per worker process, one ``TableService`` on the app's store.

The service is built on first use in the process that runs tasks: after a prefork worker
forked its children, so no connection is ever shared across a fork (and rebuilt if the
process id changed under it). In a threads pool every thread shares it: the stores are
thread-safe, and one folded-table cache serves all threads.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from celery import Task, signals

from events.store import open_store
from services.settings import Settings, load_settings
from services.tables import TableService

_OPENED: list[PaijuTask] = []  # the tasks of this process holding a service
_OPENED_LOCK = threading.Lock()


class PaijuTask(Task):  # type: ignore[misc]
    _service: TableService | None = None
    _service_pid: int = 0

    @property
    def settings(self) -> Settings:
        settings = getattr(self.app, "settings", None)
        return settings if isinstance(settings, Settings) else load_settings()

    @property
    def service(self) -> TableService:
        service = self._service
        if service is None or self._service_pid != os.getpid():
            with _OPENED_LOCK:
                if self._service is None or self._service_pid != os.getpid():
                    self._service = build_service(self.settings)
                    self._service_pid = os.getpid()
                    _OPENED.append(self)
                service = self._service
        return service


def build_service(settings: Settings) -> TableService:
    return TableService(
        open_store(settings.store_url),
        cached_tables=settings.table_cache,
        snapshot_key=settings.snapshot_key_bytes(),
    )


@signals.worker_process_shutdown.connect(weak=False, dispatch_uid="paiju.close_services")
@signals.worker_shutdown.connect(weak=False, dispatch_uid="paiju.close_services_main")
def close_services(**_: Any) -> None:
    """Close the stores this process opened for its tasks (a worker stopping)."""
    with _OPENED_LOCK:
        holders = list(_OPENED)
        _OPENED.clear()
        services = [task._service for task in holders]
        for task in holders:
            task._service = None
    for service in services:
        if service is not None:
            service.store.close()
