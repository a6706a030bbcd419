"""Timer lateness (fired − due) of the timekeeper, beside a Celery countdown (run by hand).

Every contender gets ``--timers`` timers due uniformly in ``--min``–``--max`` seconds from when
each is written, one contender at a time in the same run:

- **tables** (PostgreSQL and SQLite): real tables. ``--timers`` tables are opened through
  ``TableService`` with ``timing={"turn": 1..4}`` (spread over the tables), then dealt one after
  another: each deal's append writes the dealer's turn timer. A ``Timekeeper`` thread (its own
  store and ``TableService``, as ``paiju timekeeper`` has) fires them with ``fire_timer``: the
  table's ``TimeOut`` through the command path, so 托管 plays the move and the next seat's turn
  timer is written (those later timers keep firing as load, and are not counted).
- **synthetic** (PostgreSQL and SQLite): one stream per timer, one append carrying a ``Timer``
  due ``U(min, max)`` seconds later; the fire callback appends the stream's timeout event
  (``timers=()``), as a table's would, without the rules' work.
- **celery countdown**: ``apply_async(countdown=U(min, max))`` of a trivial task on a private
  ``redis-server`` and a ``celery worker`` subprocess (prefork, 2 processes); lateness = the
  moment the task starts − the moment intended (see ``celery_countdown``).

Two lateness figures for the timekeeper: *fired* (the fire callback starts; due times are the
store's clock, the same machine's) and *appended* (the timeout's events are committed: the
append returned).

    .venv/bin/python benchmarks/bench_timers.py [--timers 1000] [--only tables,synthetic,celery]
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from psycopg import sql

from events.envelope import Actor, NewEvent
from events.store import open_store
from events.store.base import EventStore
from events.store.timers import DueTimer, Timer
from services.rules.table.commands import OpenTable, StartHand
from services.tables import Accepted, TableService
from services.tables.runner import fire_timer
from services.tables.timers import timeout_command_id
from workers.timekeeper import Timekeeper

PG_DB = "postgresql://postgres@127.0.0.1:5432/paiju_test"
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
PLAYERS = ("ann", "bo", "cy", "di")
PERCENTILES = (50, 95, 99)


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least ``p`` % of the values at or below it."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


@dataclass
class Lateness:
    """Per counted timer: seconds late when the fire started, and when its append returned."""

    name: str
    expected: int
    fired: dict[tuple[str, str], float] = field(default_factory=dict)
    appended: dict[tuple[str, str], float] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, key: tuple[str, str], fired: float, appended: float | None) -> None:
        with self.lock:
            if key in self.fired:
                return  # a second firing (a lease that ran out) is not a new timer
            self.fired[key] = fired
            if appended is not None:
                self.appended[key] = appended
            if len(self.fired) >= self.expected:
                self.done.set()

    def rows(self) -> list[tuple[str, list[float]]]:
        found = [(f"{self.name}, fired", list(self.fired.values()))]
        if self.appended:
            found.append((f"{self.name}, appended", list(self.appended.values())))
        return found


def timed_fire(lateness: Lateness, fire: Callable[[DueTimer], bool]) -> Callable[[DueTimer], None]:
    """``fire`` says whether the timer it fired is one the benchmark counts."""

    def run(timer: DueTimer) -> None:
        started = time.time()
        counted = fire(timer)
        ended = time.time()
        if counted:
            due = timer.due_at.timestamp()
            lateness.record((timer.stream_id, timer.key), started - due, ended - due)

    return run


@contextlib.contextmanager
def timekeeper(store: EventStore, fire: Callable[[DueTimer], None]) -> Iterator[Timekeeper]:
    keeper = Timekeeper(store, fire)  # type: ignore[arg-type]  # both stores are TimerStores
    stop = threading.Event()
    thread = threading.Thread(target=keeper.run, args=(stop,), name="timekeeper", daemon=True)
    thread.start()
    try:
        yield keeper
    finally:
        stop.set()
        thread.join(10)


def open_and_deal(url: str, ids: list[str], seed: int, rate: float) -> None:
    """Open every table (no timer yet), then deal them in a shuffled order, ``rate`` deals a
    second: each deal's append writes that table's turn timer (1..4 s, spread over the
    tables)."""
    store = open_store(url)
    service = TableService(store)
    for i, table_id in enumerate(ids):
        timing = {"turn": 1 + i % 4}
        opened = service.handle(
            table_id,
            OpenTable(table_id=table_id, variant="shanghai", players=PLAYERS, timing=timing),
            command_id=f"open-{table_id}",
        )
        assert isinstance(opened, Accepted), opened
    order = ids[:]
    random.Random(seed).shuffle(order)  # turn lengths interleave in time, as tables' would
    began = time.monotonic()
    for n, table_id in enumerate(order):
        time.sleep(max(0.0, began + n / rate - time.monotonic()))
        dealt = service.handle(table_id, StartHand(), command_id=f"deal-{table_id}")
        assert isinstance(dealt, Accepted), dealt
    store.close()


def bench_tables(url: str, name: str, count: int, seed: int, rate: float, chain: bool) -> Lateness:
    """Real tables, fired through the command path by a timekeeper with its own store and
    service. A table's first timer is its deal's turn timer: that one is counted. After it
    the table waits on the next seat's turn; unless ``chain``, that later timer is dropped
    when due rather than fired, so the load is the counted timeouts (with ``chain`` every
    table times out every 1-4 s for as long as the run lasts). The dealer is another process
    on PostgreSQL (as a worker is), a thread on SQLite (``paiju serve`` is one process, and
    the timekeeper is woken only by appends in its own process)."""
    keeper_store = open_store(url)
    keeper_service = TableService(keeper_store)
    lateness = Lateness(name, count)
    seen: set[str] = set()  # tables whose first timer fired (a table's next timer is
    # written by the append of the one before, so two of a table's are never in flight)

    def fire(timer: DueTimer) -> bool:
        first = timer.stream_id not in seen
        seen.add(timer.stream_id)
        if first or chain:
            fire_timer(keeper_service, timer)
        else:
            keeper_store.drop_timer(timer.stream_id, timer.key)  # type: ignore[attr-defined]
        return first

    ids = [f"tt{seed}-{i:05d}" for i in range(count)]
    with timekeeper(keeper_store, timed_fire(lateness, fire)) as keeper:
        if url.startswith("sqlite"):
            dealer = threading.Thread(target=open_and_deal, args=(url, ids, seed, rate))
        else:
            dealer = multiprocessing.get_context("spawn").Process(  # type: ignore[assignment]
                target=open_and_deal, args=(url, ids, seed, rate)
            )
        dealer.start()
        dealer.join()
        lateness.done.wait(30)
    print(f"  {name}: {keeper.fired} timers fired or dropped ({keeper.failed} failed)")
    keeper_store.close()
    return lateness


def bench_synthetic(
    url: str, name: str, count: int, low: float, high: float, seed: int
) -> Lateness:
    """One stream per timer; the fire appends the stream's timeout event, as a table's would."""
    writer, keeper_store = open_store(url), open_store(url)
    rng = random.Random(seed)
    lateness = Lateness(name, count)

    def append_timeout(timer: DueTimer) -> bool:
        event = NewEvent("wait_timed_out", {"key": timer.key}, Actor.timer(), "bench")
        command_id = timeout_command_id(timer.stream_id, timer.key)
        keeper_store.append(timer.stream_id, 1, [event], command_id, timer.command, ())
        return True

    with timekeeper(keeper_store, timed_fire(lateness, append_timeout)):
        for i in range(count):
            stream = f"ts{seed}-{i:05d}"
            command = {"command": "time_out", "wait": "turn", "seat": 0, "version": 1}
            timer = Timer("turn:0:v1", rng.uniform(low, high), command)
            started = NewEvent("wait_started", {}, Actor.system(), "bench")
            writer.append(stream, 0, [started], f"start-{stream}", {"command": "wait"}, [timer])
        lateness.done.wait(30)
    writer.close()
    keeper_store.close()
    return lateness


@contextlib.contextmanager
def fresh_store(kind: str) -> Iterator[str]:
    if kind == "postgres":
        with pg_schema() as url:
            yield url
    else:
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{Path(tmp) / 'timers.sqlite3'}"


@contextlib.contextmanager
def pg_schema() -> Iterator[str]:
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'paiju_test'").fetchone():
            conn.execute("CREATE DATABASE paiju_test")
    schema = f"bench_timers_{uuid.uuid4().hex[:8]}"
    try:
        yield f"{PG_DB}?schema={schema}"
    finally:
        with psycopg.connect(PG_DB, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


Rounds = dict[str, list[list[float]]]  # contender -> one list of lateness per round


def one_round(args: argparse.Namespace, seed: int) -> list[tuple[str, list[float]]]:
    parts, stores = args.only.split(","), args.stores.split(",")
    results: list[tuple[str, list[float]]] = []
    for part in ("tables", "synthetic"):
        for store in (s for s in ("postgres", "sqlite") if s in stores and part in parts):
            print(f"{part} on {store} ...", flush=True)
            name = f"{part}, {store}"
            with fresh_store(store) as url:  # none of another part's timers left in it
                if part == "tables":
                    got = bench_tables(url, name, args.timers, seed, args.deal_rate, args.chain)
                else:
                    got = bench_synthetic(url, name, args.timers, args.min, args.max, seed)
            results += got.rows()
    if "celery" in parts:
        from celery_countdown import countdown_lateness

        print("celery countdown ...", flush=True)
        results.append(
            ("celery countdown", countdown_lateness(args.timers, args.min, args.max, seed))
        )
    return results


def report(rounds: Rounds, expected: int) -> None:
    """Each figure is the median over rounds of that round's figure."""
    count = len(next(iter(rounds.values())))
    print(f"\nlateness in ms, {expected} timers a round, medians of {count} rounds' figures")
    print(f"{'contender':34} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}  p99 each round")
    for name, runs in rounds.items():
        cells = [statistics.median(percentile(r, p) * 1000 for r in runs) for p in PERCENTILES] + [
            statistics.median(max(r) * 1000 for r in runs)
        ]
        each = " ".join(f"{percentile(r, 99) * 1000:.1f}" for r in runs)
        counted = min(len(r) for r in runs)
        short = "" if counted == expected else f"  (only {counted} fired)"
        print(f"{name:34} " + " ".join(f"{c:7.1f}" for c in cells) + f"  {each}{short}")
    celery = rounds.get("celery countdown")
    if celery:
        print("\np50 and p99 as ratios to the Celery countdown's (median of per-round ratios):")
        for name, runs in rounds.items():
            ratios = [
                statistics.median(
                    percentile(r, p) / percentile(c, p) for r, c in zip(runs, celery, strict=True)
                )
                for p in (50, 99)
            ]
            print(f"  {name:34} {ratios[0]:6.2f} {ratios[1]:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timers", type=int, default=1000, help="timers a round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min", type=float, default=1.0, help="earliest due, seconds")
    parser.add_argument("--max", type=float, default=4.0, help="latest due, seconds")
    parser.add_argument("--only", default="tables,synthetic,celery")
    parser.add_argument("--stores", default="postgres,sqlite")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deal-rate", type=float, default=100.0, help="tables: deals a second")
    parser.add_argument(
        "--chain", action="store_true", help="tables: fire every later timer too (heavy load)"
    )
    parser.add_argument(
        "--switch-interval", type=float, help="sys.setswitchinterval for this process (s)"
    )
    args = parser.parse_args()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    rounds: Rounds = {}
    for index in range(args.rounds):
        print(f"round {index + 1}/{args.rounds}", flush=True)
        for name, values in one_round(args, args.seed + index):
            rounds.setdefault(name, []).append(values)
    report(rounds, args.timers)


if __name__ == "__main__":
    main()
