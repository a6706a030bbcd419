"""What the API's routes share: settings, the Celery app, the store, the readers, the signer.

``ApiContext.open(settings)`` builds it from the settings (the embedded default or the
distributed one alike: the API only ever enqueues commands and reads the store);
``ApiContext(..., app=...)`` lets ``paiju serve`` hand it the app its worker thread serves.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from celery import Celery

from events.store import open_store
from events.store.base import EventStore
from readmodels.db import ProjectionDB, open_projection_db
from services.api.keys import KeyStore
from services.api.tokens import TokenSigner
from services.api.waits import Waits
from services.api.wakeups import Wakeups
from services.rules.table import TableState
from services.settings import Settings
from services.tables.folds import TableFolds
from services.tables.service import TableService


@dataclass
class ApiContext:
    settings: Settings
    app: Celery
    store: EventStore
    keys: KeyStore
    signer: TokenSigner
    service: TableService = field(init=False)
    folds: TableFolds = field(init=False)
    wakeups: Wakeups = field(init=False)
    waits: Waits = field(init=False)
    read_lock: threading.Lock = field(default_factory=threading.Lock)
    presence: Any = None  # services.api.presence.Presence, set by create_api
    _read_models: ProjectionDB | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # The tables views fold: a lock per table, so reads of different tables run in parallel.
        self.folds = TableFolds(self.store, snapshot_key=self.settings.snapshot_key_bytes())
        # A reader's own TableService: its seat streams (stream_for keeps no state), never
        # writes; the process's one cache of folds is the views'.
        self.service = TableService(self.store, snapshot_key=self.settings.snapshot_key_bytes(),
                                    kept=self.folds.kept)  # fmt: skip
        self.wakeups = Wakeups(self.store)
        self.waits = Waits(self.settings.api_max_waits)

    @classmethod
    def open(cls, settings: Settings, app: Celery | None = None) -> ApiContext:
        from workers.app import create_app

        pepper = settings.api_key_pepper
        secret = settings.api_token_secret
        return cls(
            settings,
            app or create_app(settings),
            open_store(settings.store_url),
            KeyStore(settings.store_url, None if pepper is None else pepper.get_secret_value().encode()),
            TokenSigner(None if secret is None else secret.get_secret_value().encode()),
        )

    def load(self, table_id: str) -> TableState:
        """The table now: one thread folds a table at a time, other tables in parallel."""
        return self.folds.load(table_id)

    def read_models(self) -> ProjectionDB:
        """The read models' database (the store's own), opened on the first read."""
        with self.read_lock:
            if self._read_models is None:
                self._read_models = open_projection_db(self.settings.store_url)
            return self._read_models

    def start(self) -> None:
        self.wakeups.start()

    def close(self) -> None:
        self.wakeups.stop()
        self.keys.close()
        if self._read_models is not None:
            self._read_models.close()
        self.store.close()
