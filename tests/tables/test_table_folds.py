"""The tables a process keeps folded (``services.tables.folds``): the API's reads fold tables in
parallel, each by one thread at a time, every fold the table as stored however many threads read
it at once; the table service and the readers keep one bounded set of folds between them."""

from __future__ import annotations

import threading
from pathlib import Path

from tables.games import Bots, opened

from events.store import open_store
from events.store.base import EventStore
from services.rules.table import TableState
from services.tables import TableService, loader
from services.tables.folds import KeptFolds, TableFolds

WAIT = 30  # seconds: the bound of every wait here (none is expected to run out)


class HeldStore:
    """The store, but a read of ``held``'s events waits until ``release`` is set."""

    def __init__(self, store: EventStore, held: str) -> None:
        self.store, self.held = store, held
        self.reading, self.release = threading.Event(), threading.Event()

    def read_stream(self, stream: str, *args: object, **kwargs: object) -> object:
        if stream == self.held:
            self.reading.set()
            assert self.release.wait(WAIT), "the held read was never released"
        return self.store.read_stream(stream, *args, **kwargs)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)


def fresh(store: EventStore, table_id: str) -> TableState:
    return loader.load(store, table_id).state


def test_a_table_whose_read_is_held_does_not_hold_up_another_tables(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/folds.sqlite3")
    service = TableService(store)
    opened(service, "slow")
    opened(service, "fast")
    held = HeldStore(store, "slow")
    folds = TableFolds(held)  # type: ignore[arg-type]
    slow: list[TableState] = []
    reader = threading.Thread(target=lambda: slow.append(folds.load("slow")))
    reader.start()
    assert held.reading.wait(WAIT)  # the slow table's read is under way, and held
    assert folds.load("fast") == fresh(store, "fast")  # answered while the other waits
    assert reader.is_alive() and slow == []
    held.release.set()
    reader.join(WAIT)
    assert slow == [fresh(store, "slow")] and folds.held() == 0  # no lock is left behind
    store.close()


def test_views_stay_the_tables_as_stored_while_threads_read_them_as_they_are_played(
    tmp_path: Path,
) -> None:  # fmt: skip
    store = open_store(f"sqlite:///{tmp_path}/folds.sqlite3")
    service = TableService(store)
    tables = ["t1", "t2", "t3"]
    states = {t: opened(service, t) for t in tables}
    folds = TableFolds(store, cached_tables=2)  # fewer kept than read: folds are dropped too
    seen: list[tuple[str, TableState]] = []
    seen_lock, done = threading.Lock(), threading.Event()

    def read(n: int) -> None:
        for i in range(200):  # bounded; stops early once the play is over
            table = tables[(n + i) % len(tables)]
            state = folds.load(table)
            with seen_lock:
                seen.append((table, state))
            if done.is_set():
                return

    readers = [threading.Thread(target=read, args=(n,)) for n in range(6)]
    for r in readers:
        r.start()
    bots = {t: Bots(service, t, seed=n) for n, t in enumerate(tables)}
    for _ in range(40):  # the tables move on while they are read
        for t in tables:
            states[t] = bots[t].play(states[t])
    done.set()
    for r in readers:
        r.join(WAIT)
    assert seen and not any(r.is_alive() for r in readers)
    for table, state in seen:  # each fold read is the table as stored at its version
        events = store.read_stream(table)[: state.version]
        assert state == loader.fold(store, table, events, loader.LoadedTable(TableState(), 0)).state
    for t in tables:
        assert folds.load(t) == states[t] == fresh(store, t)
    assert folds.held() == 0
    store.close()


def test_the_service_and_the_readers_keep_one_bounded_set_of_folds(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/kept.sqlite3")
    kept = KeptFolds(limit=2)
    service = TableService(store, kept=kept)
    folds = TableFolds(store, kept=kept)
    states = {t: opened(service, t) for t in ("t1", "t2")}
    assert {t: kept.get(t).state for t in states} == states  # type: ignore[union-attr]
    opened(TableService(store), "t3")  # another process's table: read here, then kept
    folds.load("t3")
    assert len(kept) == 2 and kept.get("t1") is None  # the least recently used went first
    assert kept.get("t3") == loader.load(store, "t3")  # kept as the store has it
    assert kept.get("t2").state == states["t2"]  # type: ignore[union-attr]


class CountedStore:
    """The store, counting the reads a caller makes of it."""

    def __init__(self, store: EventStore) -> None:
        self.store, self.reads = store, []  # type: list[str]

    def read_stream(self, stream: str, *args: object, **kwargs: object) -> object:
        self.reads.append(f"stream {stream}")
        return self.store.read_stream(stream, *args, **kwargs)  # type: ignore[arg-type]

    def read_event(self, stream: str, version: int) -> object:
        self.reads.append(f"event {stream}@{version}")
        return self.store.read_event(stream, version)

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)


def test_a_tables_rules_version_is_read_from_its_opening_event_once_and_never_folded(
    tmp_path: Path,
) -> None:
    store = open_store(f"sqlite:///{tmp_path}/folds.sqlite3")
    state = opened(TableService(store), "east.1")
    counted = CountedStore(store)
    folds = TableFolds(counted)  # type: ignore[arg-type]
    assert folds.rules_version("east.1") == state.rules_version
    assert folds.rules_version("east.1") == state.rules_version  # remembered: no second read
    assert counted.reads == ["event east.1@1"]
    assert folds.rules_version("no.such.table") is None
    store.close()


def test_a_kept_fold_names_its_tables_rules_version_without_a_read(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/folds.sqlite3")
    state = opened(TableService(store), "east.1")
    counted = CountedStore(store)
    folds = TableFolds(counted)  # type: ignore[arg-type]
    folds.load("east.1")
    counted.reads.clear()
    assert folds.rules_version("east.1") == state.rules_version and counted.reads == []
    store.close()


def test_a_stream_that_does_not_open_a_table_has_no_rules_version(tmp_path: Path) -> None:
    from events.envelope import Actor
    from services.rules.events.presence import SeatDisconnected
    from services.tables.codec import to_new_event

    store = open_store(f"sqlite:///{tmp_path}/folds.sqlite3")
    store.append("not.a.table", 0, [to_new_event(SeatDisconnected(seat=1), Actor.system())])
    assert TableFolds(store).rules_version("not.a.table") is None
    store.close()
