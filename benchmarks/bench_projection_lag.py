"""Read-model lag while bots play at full speed through the workers (by hand).

A private ``redis-server`` (free port, nothing saved), a fresh PostgreSQL schema, ``paiju
worker`` processes on the ``commands`` queue, and a projector over every projection of the
catalog in a process of its own (``Projector.run``: woken by the store's ``NOTIFY``, batches of
``--batch``). ``--tables`` tables are opened and dealt, and their next moves chosen by random
legal bots (``bench_commands.prepare_tables``); then ``--inflight`` client threads ``submit``
each table's next command and wait for its outcome, one command in flight per table, as fast
as the workers answer (``bench_commands.drive``).

Lag of an event = the moment the projector's batch holding it committed (rows and checkpoint)
− the event's ``recorded_at`` (stamped by the table service as it appends), per projection, for
every event appended while the bots played. Reported: p50, p99 and max, over all events and
over the settlements (``hand_settled``: the events that move 积分).

    .venv/bin/python benchmarks/bench_projection_lag.py [--workers 2] [--tables 200] [--commands 6000]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_commands import command_sender, drive, paiju_env, paiju_worker, prepare_tables
from bench_timers import percentile, pg_schema
from celery_countdown import private_redis, wait_until

from events.envelope import RecordedEvent
from events.store import open_store
from readmodels.catalog import ALL
from readmodels.db import open_projection_db
from readmodels.runner import Consumer, Projector
from services.settings import load_settings
from workers.app import create_app
from workers.logging import configure_logging


class TimedProjector(Projector):
    """A projector that notes, for each event it applies after ``since``, how long after its
    ``recorded_at`` the batch holding it committed."""

    since: int = 0
    lags: list[tuple[str, str, float]]

    def _apply(self, consumer: Consumer, events: list[RecordedEvent]) -> None:
        super()._apply(consumer, events)
        committed = time.time()
        for event in events:
            if event.position > self.since:
                lag = committed - event.recorded_at.timestamp()
                self.lags.append((consumer.projection.name, event.type, lag))


def projector_process(url: str, batch: int, since: int, out: str) -> None:
    configure_logging("WARNING", "console")  # as `paiju projector` logs: no line a batch
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    projector = TimedProjector(open_store(url), open_projection_db(url), ALL, batch=batch)
    projector.since, projector.lags = since, []
    try:
        projector.run(stop)
        Path(out).write_text(json.dumps(projector.lags))
    finally:
        os._exit(0)


def caught_up(url: str) -> bool:
    store, db = open_store(url), open_projection_db(url)
    try:
        head = store.last_position()  # type: ignore[attr-defined]
        return all((b := db.active_build(p.name)) is not None and b.position == head for p in ALL)
    finally:
        db.close()
        store.close()


def line(name: str, lags: list[float]) -> str:
    ms = [lag * 1000 for lag in lags]
    if not ms:
        return f"  {name}: no events"
    return (f"  {name}: {len(ms)} events, p50 {percentile(ms, 50):.1f} ms, p99"
            f" {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="worker processes (prefork)")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--per-table", type=int, default=400, help="bot moves prepared a table")
    parser.add_argument("--commands", type=int, default=6000)
    parser.add_argument("--inflight", type=int, default=16)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="bench-lag-")) / "lags.json"
    with private_redis() as broker, pg_schema() as url:
        print(f"preparing {args.tables} tables ...", flush=True)
        tables = prepare_tables(url, args.tables, args.per_table, args.seed)
        with contextlib.closing(open_store(url)) as store:
            since = store.last_position()  # type: ignore[attr-defined]
        projector = multiprocessing.get_context("fork").Process(
            target=projector_process, args=(url, args.batch, since, str(out))
        )
        projector.start()  # forked before any thread of this process starts
        wait_until(lambda: caught_up(url), 120, "the projector on the prepared tables")
        prefix = f"bench-{uuid.uuid4().hex[:6]}:"
        app = create_app(load_settings(broker_url=broker, store_url=url, key_prefix=prefix))
        one, close = command_sender(app, url, tables)
        with paiju_worker(args.workers, paiju_env(args.workers, broker, url, prefix)):
            wait_until(lambda: one(0) is not None, 60, "a worker")
            busy = drive(args.inflight, args.commands, one)
        close()
        wait_until(lambda: caught_up(url), 120, "the projector after the bots")
        os.kill(projector.pid, signal.SIGTERM)  # type: ignore[arg-type]
        projector.join(30)
        lags = json.loads(out.read_text())
    print(f"{busy.done} commands in {busy.seconds:.1f} s ({busy.rate:,.0f}/s) through"
          f" {args.workers} worker processes, {args.inflight} in flight; projections"
          f" {[p.name for p in ALL]}, batch {args.batch}")  # fmt: skip
    print(line("every event", [lag for _, _, lag in lags]))
    print(line("hand_settled", [lag for _, kind, lag in lags if kind == "hand_settled"]))
    for projection in ALL:
        print(line(projection.name, [lag for name, _, lag in lags if name == projection.name]))


if __name__ == "__main__":
    main()
