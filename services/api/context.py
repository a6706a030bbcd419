"""What the API's routes share: settings, the Celery app, the store, the readers, the signer.

``ApiContext.open(settings)`` builds it from the composition root (``workers.parts``), for the
embedded default or the distributed one alike: the API only ever enqueues commands and reads
the store; ``ApiContext.open(settings, parts=...)`` lets ``paiju serve`` share its process's
parts (one store, one cache of folds) with the API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from celery import Celery

from events.store.base import EventStore
from readmodels.db import ProjectionDB
from services.api.keys import KeyStore
from services.api.tokens import TokenSigner
from services.api.waits import Waits
from services.api.wakeups import Wakeups
from services.rules.table import TableState
from services.settings import Settings
from services.tables.feed import TableFeeds
from services.tables.folds import TableFolds
from services.tables.service import TableService
from workers.parts import Parts


@dataclass
class ApiContext:
    settings: Settings
    parts: Parts
    keys: KeyStore
    signer: TokenSigner
    owns_parts: bool = True  # False: the parts are a caller's (``paiju serve``), closed by it
    app: Celery = field(init=False)
    store: EventStore = field(init=False)
    service: TableService = field(init=False)
    folds: TableFolds = field(init=False)
    feeds: TableFeeds = field(init=False)
    wakeups: Wakeups = field(init=False)
    waits: Waits = field(init=False)
    presence: Any = None  # services.api.presence.Presence, set by create_api

    def __post_init__(self) -> None:
        self.app = self.parts.app
        self.store = self.parts.store()
        # The tables views fold (a lock per table, so reads of different tables run in
        # parallel) and the service the seat streams use (it never writes here) share the
        # process's one cache of folds.
        self.folds = self.parts.table_folds()
        self.service = self.parts.table_service()
        # the tables this process streams, each read and folded once for all its streams,
        # fed what the follower reads, their folds kept where views fold on from
        self.feeds = TableFeeds(self.store, self.folds.kept)
        self.wakeups = Wakeups(self.store, feeds=self.feeds, logs=self.parts.logs())
        self.waits = Waits(self.settings.api_max_waits)

    @classmethod
    def open(cls, settings: Settings, parts: Parts | None = None) -> ApiContext:
        """The API's context from the composition root: ``parts`` a caller shares (it closes
        them), else parts of its own."""
        pepper = settings.api_key_pepper
        secret = settings.api_token_secret
        return cls(
            settings,
            parts or Parts(settings),
            KeyStore(settings.store_url, None if pepper is None else pepper.get_secret_value().encode()),
            TokenSigner(None if secret is None else secret.get_secret_value().encode()),
            owns_parts=parts is None,
        )

    def load(self, table_id: str) -> TableState:
        """The table now: one thread folds a table at a time, other tables in parallel."""
        return self.folds.load(table_id)

    def read_models(self) -> ProjectionDB:
        """The read models' database (the store's own), opened on the first read."""
        return self.parts.read_models()

    def start(self) -> None:
        self.wakeups.start()

    def close(self) -> None:
        self.wakeups.stop()
        self.keys.close()
        if self.owns_parts:
            self.parts.close()
