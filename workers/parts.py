"""The composition root: every part a process runs, built once from its ``Settings``.

    parts = Parts(settings)            # or parts_of(app) inside a task
    parts.app                          # the Celery app (its ``parts`` is this object)
    parts.table_service()              # deciding commands, on the process's one store
    parts.table_folds()                # the API's reads, sharing the service's kept folds

Every process gets its parts here: the API (``ApiContext.open``), a worker's tasks
(``PaijuTask.service``, the effects task's outbox and HTTP client), the timekeeper, projector
and reactor commands, and ``paiju serve``, whose threads share one set. So one process holds
one store (one connection pool), one cache of folds (``KeptFolds``) whoever folds, and one
outbox. It stands with the workers on the ladder: below it only the event log, the engine,
the table service and the read models; above it the API and the CLI, which ask it for parts.

Parts are made on first use, in the process that uses them: after a prefork worker forked
its children, a child makes its own (a connection is never shared across a fork).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from events.store import open_store
from services.settings import Settings

if TYPE_CHECKING:  # each part's module is imported when the part is made: a projector's
    # process never loads Celery, a worker's never the read models' runner
    import httpx

    from events.store.base import EventStore
    from readmodels.base import Projection
    from readmodels.db import ProjectionDB
    from readmodels.runner import Projector
    from services.tables import TableService
    from services.tables.folds import KeptFolds, TableFolds
    from services.tables.partitions import Partitions
    from workers.app import PaijuCelery
    from workers.effects.delivery import WebhookConfig
    from workers.effects.outbox import Outbox
    from workers.reactor.runner import Reactor
    from workers.timekeeper import Timekeeper

T = TypeVar("T")
WEBHOOK_TIMEOUT_UNSET = 5.0  # seconds: the HTTP client's timeout where no webhook is configured


class Parts:
    """One process's parts, each made once (per process id) and closed together."""

    def __init__(self, settings: Settings, app: PaijuCelery | None = None,
                 store: EventStore | None = None) -> None:  # fmt: skip
        """``app``, ``store``: ones the caller made (a store the CLI opened with its checks)."""
        self.settings = settings
        self._app = app
        if app is not None:
            app.parts = self
        self._lock = threading.RLock()
        self._made: dict[str, object] = {} if store is None else {"store": store, "home": store}
        self._pid = os.getpid()

    @property
    def app(self) -> PaijuCelery:
        """The Celery app of these settings (made on first use)."""
        with self._lock:
            if self._app is None:
                from workers.app import create_app

                self._app = create_app(self.settings)
                self._app.parts = self
            return self._app

    def _one(self, name: str, make: Callable[[], T]) -> T:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's parts stay the parent's
                self._made, self._pid = {}, os.getpid()
            if name not in self._made:
                self._made[name] = make()
            return self._made[name]  # type: ignore[return-value]

    def partitions(self) -> Partitions:
        """The home store and the table stores (``PAIJU_TABLE_STORES``; none: the home's)."""
        from services.tables.partitions import LazyStores, Partitions

        def make() -> Partitions:
            home = self._one("home", lambda: open_store(self.settings.store_url))
            urls = self.settings.table_store_urls()
            if not urls:
                return Partitions(home)
            return Partitions(home, LazyStores({n: partial(open_store, url) for n, url in urls.items()}))

        return self._one("partitions", make)

    def store(self) -> EventStore:
        """The store the command path uses: the home store, or one routing each table to its
        partition's store (``RoutedStore``) when tables have stores of their own."""
        from services.tables.routed_store import RoutedStore

        def make() -> EventStore:
            partitions = self.partitions()
            if not partitions.spread:
                return partitions.home
            return RoutedStore(partitions)  # type: ignore[return-value]

        return self._one("store", make)

    def logs(self) -> dict[int, EventStore]:
        """Each partition's log for its readers (projectors, reactors, timekeepers, the API's
        follower), its positions merged positions (``PartitionLog``); the home store's is 0."""
        return {n: self.log(n) for n in self.partitions().readers()}

    def log(self, partition: int) -> EventStore:
        """One partition's log, as ``logs`` gives it, opening no other table store."""
        from services.tables.partitions import PartitionLog

        store = self.partitions().store(partition)
        return store if partition == 0 else PartitionLog(store, partition)  # type: ignore[return-value]

    def kept_folds(self) -> KeptFolds:
        """The tables this process folded last, whoever folded them."""
        from services.tables.folds import KeptFolds

        return self._one("kept", lambda: KeptFolds(self.settings.table_cache))

    def table_service(self) -> TableService:
        from services.tables import TableService

        return self._one("service", lambda: TableService(
            self.store(), snapshot_key=self.settings.snapshot_key_bytes(),
            kept=self.kept_folds(),
        ))  # fmt: skip

    def table_folds(self) -> TableFolds:
        """The tables read for views, each folded by one thread at a time, from the kept folds."""
        from services.tables.folds import TableFolds

        return self._one("folds", lambda: TableFolds(
            self.store(), snapshot_key=self.settings.snapshot_key_bytes(),
            kept=self.kept_folds(),
        ))  # fmt: skip

    def read_models(self) -> ProjectionDB:
        """The read models' database (the store's own)."""
        from readmodels.db import open_projection_db

        return self._one("read_models", lambda: open_projection_db(self.settings.store_url))

    def outbox(self) -> Outbox:
        """The webhook deliveries' outbox (the store's own)."""
        from workers.effects.outbox_open import open_outbox

        return self._one("outbox", lambda: open_outbox(self.settings.store_url))

    def webhook(self) -> tuple[httpx.Client, WebhookConfig | None]:
        """The HTTP client that posts webhooks, and their settings (None: none configured)."""

        def make() -> tuple[httpx.Client, WebhookConfig | None]:
            import httpx

            from workers.effects.delivery import webhook_config

            config = webhook_config(self.settings)
            timeout = config.timeout if config is not None else WEBHOOK_TIMEOUT_UNSET
            return httpx.Client(timeout=timeout), config

        return self._one("webhook", make)

    def projector(self, projections: Sequence[Projection] | None = None,
                  batch: int | None = None, partition: int = 0) -> Projector:  # fmt: skip
        """A projector (every projection of the catalog unless named) of one partition's log
        (the home store's: 0); it writes through a projection database of its own, in
        transactions of its own, and keeps its checkpoint for that partition."""
        from readmodels import catalog
        from readmodels.db import open_projection_db
        from readmodels.runner import Projector

        chosen = catalog.ALL if projections is None else projections
        db = open_projection_db(self.settings.store_url)
        log = self.log(partition)
        if batch is None:
            return Projector(log, db, chosen, partition=partition)
        return Projector(log, db, chosen, batch=batch, partition=partition)

    def timekeeper(self, *, via_queue: bool = False, lease: float | None = None,
                   partition: int = 0) -> Timekeeper:  # fmt: skip
        """The turn timers' keeper of one partition's store: firing through the commands
        queue, or here (through the table service, which finds each table's store)."""
        from workers.timekeeper import Timekeeper, fire_inline, fire_through_queue

        fire = (fire_through_queue(self.app, self.store()) if via_queue
                else fire_inline(self.table_service()))  # fmt: skip
        timers = self.partitions().store(partition)
        if lease is None:
            return Timekeeper(timers, fire)  # type: ignore[arg-type]
        return Timekeeper(timers, fire, lease=lease)  # type: ignore[arg-type]

    def reactor(self, *, inline_posts: bool = False, lease: float | None = None,
                partition: int = 0) -> Reactor | None:  # fmt: skip
        """The notification reactor of one partition's log (None: no webhook URL is set),
        with a checkpoint of its own; it posts from its own thread with ``inline_posts``,
        else dispatches to the effects queue.
        ``ValueError`` names a ``PAIJU_WEBHOOK_*`` variable that cannot be used."""
        from workers.reactor.wiring import DEFAULT_LEASE_SECONDS, reactor_for

        app = None if inline_posts else self.app
        return reactor_for(self.settings, self.log(partition), app=app, partition=partition,
                           lease_seconds=DEFAULT_LEASE_SECONDS if lease is None else lease)  # fmt: skip

    def close(self) -> None:
        """Close what this process made (a part asked for again is made again)."""
        with self._lock:
            made, self._made = self._made, {}
        if self._pid != os.getpid():
            return  # the parent's parts are the parent's to close
        for name in ("webhook", "outbox", "read_models", "store"):
            part = made.get(name)
            if isinstance(part, tuple):
                part[0].close()
            elif part is not None:
                part.close()  # type: ignore[attr-defined]


def parts_of(app: PaijuCelery) -> Parts:
    """The parts of ``app``'s process: those it was built with, else made from its settings
    (``celery -A workers.app``, whose app no root made)."""
    parts = getattr(app, "parts", None)
    if isinstance(parts, Parts):
        return parts
    return Parts(app.settings, app)
