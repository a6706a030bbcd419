"""The embedded service (``paiju serve``'s parts as threads of this process) on a SQLite file
in a test's folder, with an API on a free port: for tests that play over real HTTP."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from services.serve import Embedded
from services.settings import load_settings


@contextlib.contextmanager
def embedded_service(folder: Path, name: str) -> Iterator[Embedded]:
    """The service on ``folder/name.sqlite3``, its in-memory broker and no webhooks."""
    settings = load_settings(store_url=f"sqlite:///{folder}/{name}.sqlite3", api_port=0,
                             broker_url="memory://", webhook_url=None)  # fmt: skip
    embedded = Embedded(settings)
    embedded.start()
    try:
        yield embedded
    finally:
        embedded.close()
