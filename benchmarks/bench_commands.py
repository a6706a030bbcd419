"""Commands per second through Celery + Redis + PostgreSQL, beside a trivial task (by hand).

A private ``redis-server`` (free port, nothing saved) and a fresh PostgreSQL schema. ``--tables``
tables are opened and dealt here (``TableService``); each table's next ``--per-table`` moves are
chosen by random legal bots (``services.bots.random_bot``) on a copy of its state folded here
(the rules are pure, so the worker reaches the same states), so every command is a real one:
discards, passes, claims, as the hand goes. Then, for each ``--concurrency`` (worker
processes of one ``paiju worker``, prefork):

- **commands**: the worker started on the ``commands`` queue; ``--inflight`` client threads
  each take a table no other thread holds, ``submit`` its next command and wait for its outcome
  (``await_outcome``: the PostgreSQL ``LISTEN`` the client library uses), so a table has one
  command in flight at a time and the worker has ``--inflight`` to do at once. Rate =
  commands / time. Latency from the moment before ``submit`` to the outcome's ``recorded_at``
  (the worker writes it right after the append returned: *appended*) and to the outcome seen
  by the client (*answered*), measured at ``--moderate`` in flight (moderate load).
- **trivial**: a task that only pushes a mark to a Redis list, on Paiju's own app
  (``create_app``: acks late, prefetch 1, ..., ``benchmarks/celery_trivial.py``), run by a
  ``celery worker`` of the same kind (prefork, the same processes) on the same broker and
  driven the same way (each client thread waits for its mark with ``BLPOP``); the goal's ratio
  is to this one.
- **defaults**: the same trivial task on a Celery app with Celery's defaults (acks early,
  prefetch 4), to show what the app's settings themselves cost.

    .venv/bin/python benchmarks/bench_commands.py [--concurrency 1,2] [--commands 3000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from bench_timers import percentile, pg_schema
from celery import Celery
from celery_countdown import private_redis, wait_until

from events.store import open_store
from services.bots.random_bot import random_command
from services.rules.table import decide_and_evolve
from services.rules.table.commands import Command, OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.settings import load_settings
from services.tables import Accepted, TableService
from services.tables.runner import outcome_store
from workers.app import create_app
from workers.client import submit

PLAYERS = ("ann", "bo", "cy", "di")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Table:
    table_id: str
    commands: deque[Command]
    sent: int = 0


@dataclass
class Phase:
    """What one driven phase gave: its rate and each command's latencies (seconds)."""

    done: int = 0
    seconds: float = 0.0
    appended: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    failed: int = 0

    @property
    def rate(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0


def prepare_tables(url: str, count: int, per_table: int, seed: int) -> deque[Table]:
    """Open and deal ``count`` tables; each gets its next ``per_table`` bot moves."""
    store = open_store(url)
    service = TableService(store, cached_tables=count)
    variants = ["shanghai", "harbin", "shandong", "tanggu"]
    tables: deque[Table] = deque()
    for i in range(count):
        table_id = f"cmd-{seed}-{i:05d}"
        opened = service.handle(
            table_id,
            OpenTable(table_id=table_id, variant=variants[i % 4], players=PLAYERS),
            command_id=f"open-{table_id}",
        )
        assert isinstance(opened, Accepted), opened
        dealt = service.handle(table_id, StartHand(), command_id=f"deal-{table_id}")
        assert isinstance(dealt, Accepted) and dealt.state is not None, dealt
        state, rng, moves = dealt.state, random.Random(f"{seed}-{i}"), deque[Command]()
        while len(moves) < per_table and not state.hand_over:
            command = random_command(state, seats_to_act(state)[0], rng)
            _, state = decide_and_evolve(state, command)
            moves.append(command)
        tables.append(Table(table_id, moves))
    store.close()
    return tables


def drive(inflight: int, budget: int, one: Callable[[int], tuple[float, float] | None]) -> Phase:
    """``inflight`` threads call ``one(thread)`` until ``budget`` calls are made."""
    phase, lock, left = Phase(), threading.Lock(), [budget]

    def loop(index: int) -> None:
        while True:
            with lock:
                if left[0] <= 0:
                    return
                left[0] -= 1
            got = one(index)
            with lock:
                if got is None:
                    phase.failed += 1
                else:
                    phase.done += 1
                    phase.appended.append(got[0])
                    phase.answered.append(got[1])

    threads = [threading.Thread(target=loop, args=(i,)) for i in range(inflight)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phase.seconds = time.perf_counter() - began
    return phase


def command_sender(
    app: Celery, url: str, tables: deque[Table]
) -> tuple[Callable[[int], tuple[float, float] | None], Callable[[], None]]:
    store = open_store(url)
    outcomes = outcome_store(store)
    lock = threading.Lock()

    def one(_: int) -> tuple[float, float] | None:
        with lock:  # a table no other thread holds, with a move left
            while tables and not tables[0].commands:
                tables.popleft()
            if not tables:
                return None
            table = tables.popleft()
        command = table.commands.popleft()
        command_id = f"{table.table_id}-m{table.sent}"
        table.sent += 1
        sent = time.time()
        submit(app, table.table_id, command, command_id=command_id)
        outcome = outcomes.wait_for_outcome(command_id, 30.0)
        seen = time.time()
        with lock:
            tables.append(table)
        if outcome is None or not outcome.accepted:
            print(f"  {command_id}: {outcome}", flush=True)
            return None
        return outcome.recorded_at.timestamp() - sent, seen - sent

    return one, store.close


def trivial_sender(
    app: Celery, broker: str, queue: str
) -> Callable[[int], tuple[float, float] | None]:
    clients: dict[int, redis.Redis] = {}

    def one(index: int) -> tuple[float, float] | None:
        client = clients.setdefault(index, redis.Redis.from_url(broker))
        mark = f"bench:done:{uuid.uuid4().hex}"
        sent = time.time()
        app.send_task("bench.mark", (mark,), queue=queue)
        if client.blpop([mark], timeout=30) is None:
            return None
        seen = time.time()
        return seen - sent, seen - sent

    return one


@contextlib.contextmanager
def worker(argv: list[str], env: dict[str, str], cwd: Path) -> Iterator[None]:
    log = open(os.devnull, "w")  # noqa: SIM115  (closed below, after the process)
    process = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=log, stderr=log, start_new_session=True
    )
    try:
        yield
    finally:
        process.terminate()  # warm shutdown: the worker stops its own pool
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        log.close()


def paiju_env(concurrency: int, broker: str, url: str, prefix: str) -> dict[str, str]:
    return {
        **os.environ,
        "PAIJU_BROKER_URL": broker,
        "PAIJU_STORE_URL": url,
        "PAIJU_KEY_PREFIX": prefix,
        "PAIJU_CONCURRENCY": str(concurrency),
        "PAIJU_LOG_LEVEL": "WARNING",
    }


def paiju_worker(concurrency: int, env: dict[str, str]) -> Iterator[None]:
    paiju = Path(sys.executable).with_name("paiju")
    argv = [str(paiju), "worker", "--concurrency", str(concurrency), "--queues", "commands"]
    return worker(argv, env, ROOT)


def trivial_worker(
    concurrency: int, broker: str, env: dict[str, str], paiju_app: bool
) -> Iterator[None]:
    """``paiju_app``: the task on Paiju's app (its settings); else on Celery's defaults."""
    module, queue = (
        ("celery_trivial", "maintenance") if paiju_app else ("celery_countdown", "bench")
    )
    env = {**env, "BENCH_BROKER": broker}
    argv = [
        sys.executable, "-m", "celery", "-A", module, "worker", "--pool", "prefork",
        "--concurrency", str(concurrency), "--queues", queue, "--loglevel", "WARNING",
        "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    return worker(argv, env, Path(__file__).parent)


def run(args: argparse.Namespace) -> list[tuple[int, str, Phase, Phase]]:
    found = []
    with private_redis() as broker, pg_schema() as url:
        prefix = f"bench-{uuid.uuid4().hex[:6]}:"
        app = create_app(load_settings(broker_url=broker, store_url=url, key_prefix=prefix))
        print(f"preparing {args.tables} tables ...", flush=True)
        tables = prepare_tables(url, args.tables, args.per_table, args.seed)
        one_command, close = command_sender(app, url, tables)
        on_app = trivial_sender(app, broker, "maintenance")
        on_defaults = trivial_sender(Celery("bench_trivial", broker=broker), broker, "bench")
        for c in args.concurrency:
            env = paiju_env(c, broker, url, prefix)
            kinds = (
                ("commands", lambda c=c, e=env: paiju_worker(c, e), one_command),
                ("trivial", lambda c=c, e=env: trivial_worker(c, broker, e, True), on_app),
                ("defaults", lambda c=c, e=env: trivial_worker(c, broker, e, False), on_defaults),
            )
            for kind, start, one in kinds:
                with start():
                    wait_until(lambda o=one: o(0) is not None, 60, f"a {kind} worker")
                    drive(args.inflight, args.warmup, one)
                    busy = drive(args.inflight, args.commands, one)
                    moderate = drive(args.moderate, args.latency, one)
                print(
                    f"  {kind} × {c}: {busy.rate:,.0f}/s at {args.inflight} in flight;"
                    f" {moderate.rate:,.0f}/s at {args.moderate}; failed {busy.failed}",
                    flush=True,
                )
                found.append((c, kind, busy, moderate))
        close()
    return found


def report(found: list[tuple[int, str, Phase, Phase]], args: argparse.Namespace) -> None:
    print(f"\n{'worker processes':>16} {'kind':9} {'per s':>7} {'ratio':>6}"
          f"  at {args.moderate} in flight: per s, appended p50/p99, answered p50/p99 (ms)")  # fmt: skip
    rates = {(c, k): b.rate for c, k, b, _ in found}
    for concurrency, kind, busy, moderate in found:
        ratio = busy.rate / rates[(concurrency, "trivial")]
        cells = [
            percentile(values, p) * 1000
            for values in (moderate.appended, moderate.answered)
            for p in (50, 99)
        ]
        print(
            f"{concurrency:>16} {kind:9} {busy.rate:7,.0f} {ratio:6.2f}  {moderate.rate:7,.0f}"
            f"  {cells[0]:6.1f} / {cells[1]:6.1f}   {cells[2]:6.1f} / {cells[3]:6.1f}"
        )
    for concurrency, kind, busy, _ in found:
        if kind == "commands" and busy.answered:
            print(
                f"  commands × {concurrency} at {args.inflight} in flight: answered p50"
                f" {statistics.median(busy.answered) * 1000:.1f} ms"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=lambda s: [int(c) for c in s.split(",")],
                        default=[1, 2])  # fmt: skip
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--per-table", type=int, default=60, help="bot moves prepared a table")
    parser.add_argument("--commands", type=int, default=3000, help="commands a busy phase")
    parser.add_argument("--inflight", type=int, default=16, help="in flight in a busy phase")
    parser.add_argument("--moderate", type=int, default=2, help="in flight, latency phase")
    parser.add_argument("--latency", type=int, default=600, help="commands a latency phase")
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    report(run(args), args)


if __name__ == "__main__":
    main()
