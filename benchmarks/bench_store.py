"""Event store benchmark (run by hand, not in tests).

1. Appends per second to PostgreSQL, one command per transaction, four contenders
   in the same run, interleaved in slices of ``--slice`` commands (medians of
   ``--rounds``, and the median of the per-round ratios):
   * paiju: ``PostgresEventStore.append`` with every guarantee on (expected
     version, idempotency record, hash chain, global order lock, NOTIFY);
   * eventsourcing: ``PostgresApplicationRecorder.insert_events`` (its own
     optimistic concurrency by primary key, table lock for the notification order);
   * plain: one single-row INSERT per event, one commit each (no guarantees);
   * plain envelope: paiju's full event row into a copy of its events table, one
     commit each, no checks (what the row itself costs).
2. Table load time for a ``--load-events`` stream: a full replay beside loading
   the latest snapshot plus the tail. The fold is pluggable: ``--fold module:name``
   naming a ``LoadCase`` (initial state, fold, snapshotter).

    .venv/bin/python benchmarks/bench_store.py --rounds 7 --commands 2000

Needs ``pip install 'eventsourcing[postgres]'`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg import conninfo as pg_conninfo
from psycopg import sql

from events.base import DomainEvent
from events.envelope import Actor, JSONDict, NewEvent, RecordedEvent, utc_now
from events.registry import EventRegistry
from events.store.postgres import PostgresEventStore
from events.store.snapshots import Snapshotter

bench_registry = EventRegistry()


@bench_registry.register
class TileDiscarded(DomainEvent):
    type: Literal["tile_discarded"] = "tile_discarded"
    seat: int
    tile: str


@dataclass(frozen=True)
class LoadCase:
    """What the load benchmark folds: the table service passes its own."""

    initial: Any
    fold: Callable[[Any, RecordedEvent], Any]
    snapshotter: Snapshotter[Any]


def _count_discards(state: JSONDict, event: RecordedEvent) -> JSONDict:
    payload = bench_registry.decode(event)
    assert isinstance(payload, TileDiscarded)
    seat = str(payload.seat)
    return {**state, seat: state.get(seat, 0) + 1, "last": payload.tile}


DEFAULT_CASE = LoadCase({}, _count_discards, Snapshotter(
    "bench-discards-v1", encode=dict, decode=lambda s: dict(s) if isinstance(s, dict) else {},
    every=128,
))


def discard_event(n: int) -> NewEvent:
    """The event of a discard, built from a plain dict as the other contenders get it."""
    return NewEvent("tile_discarded", {"seat": n % 4, "tile": f"{n % 9 + 1}m"},
                    Actor.of_seat(n % 4), "bench-1")


Runner = Callable[[int], None]
"""Appends ``n`` more commands; each contender keeps its own streams and versions."""


def paiju_runner(store: PostgresEventStore, streams: int, per: int) -> Runner:
    names = [f"table-{s}" for s in range(streams)]
    versions = [0] * streams
    done = [0]

    def run(commands: int) -> None:
        for _ in range(commands):
            n = done[0]
            done[0] += 1
            s = n % streams
            store.append(names[s], versions[s], [discard_event(n + k) for k in range(per)],
                         command_id=str(uuid.uuid4()),
                         command={"kind": "discard", "seat": n % 4, "tile": f"{n % 9 + 1}m"})
            versions[s] += per

    return run


def eventsourcing_runner(recorder: Any, streams: int, per: int) -> Runner:
    from eventsourcing.persistence import StoredEvent

    ids = [uuid.uuid4() for _ in range(streams)]
    versions = [0] * streams
    done = [0]

    def run(commands: int) -> None:
        for _ in range(commands):
            n = done[0]
            done[0] += 1
            s = n % streams
            batch = []
            for k in range(per):
                state = json.dumps({"seat": (n + k) % 4, "tile": f"{(n + k) % 9 + 1}m"}).encode()
                batch.append(StoredEvent(ids[s], versions[s] + k + 1, "tile_discarded", state))
            recorder.insert_events(batch)
            versions[s] += per

    return run


def plain_runner(conn: psycopg.Connection[Any], streams: int, per: int) -> Runner:
    """One single-row INSERT per event, one commit each (autocommit), no checks."""
    done = [0]

    def run(commands: int) -> None:
        for _ in range(commands * per):
            n = done[0]
            done[0] += 1
            conn.execute(
                "INSERT INTO plain_events (stream_id, version, payload) VALUES (%s, %s, %s)",
                (f"s{n % streams}", n, json.dumps({"seat": n % 4, "tile": f"{n % 9 + 1}m"})),
            )

    return run


_ENVELOPE_INSERT = (
    "INSERT INTO events (stream_id, version, event_id, type, schema_version, payload,"
    " recorded_at, actor_kind, actor_seat, command_id, command, rules_version, prev_hash, hash)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
)


def plain_envelope_runner(conn: psycopg.Connection[Any], streams: int, per: int) -> Runner:
    """The full envelope row into a copy of paiju's events table, one commit each, no checks."""
    versions = [0] * streams
    done = [0]

    def run(commands: int) -> None:
        for _ in range(commands * per):
            n = done[0]
            done[0] += 1
            s = n % streams
            versions[s] += 1
            conn.execute(_ENVELOPE_INSERT, (
                f"table-{s}", versions[s], uuid.uuid4(), "tile_discarded", 1,
                json.dumps({"seat": n % 4, "tile": f"{n % 9 + 1}m"}), utc_now(), "seat", n % 4,
                str(uuid.uuid4()), json.dumps({"kind": "discard", "seat": n % 4}), "bench-1",
                "0" * 64, "f" * 64,
            ))

    return run


def bench_appends(args: argparse.Namespace, dsn: str, schema: str) -> dict[str, Any]:
    """Commands per second of each contender, interleaved in slices of ``--slice`` commands.

    A round gives every contender ``--commands`` commands, cut into slices; slice
    by slice each contender runs its next slice (the starting contender rotates),
    so that whatever else the machine is doing falls on all of them alike. A
    contender's rate in a round is its commands over the time spent in its own
    slices.
    """
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    store = PostgresEventStore(dsn, schema=f"{schema}_paiju")
    params = pg_conninfo.conninfo_to_dict(dsn)
    datastore = PostgresDatastore(
        dbname=str(params["dbname"]), host=str(params.get("host", "127.0.0.1")),
        port=str(params.get("port", 5432)), user=str(params.get("user", "postgres")),
        password=str(params.get("password", "")), schema=f"{schema}_es",
    )
    with psycopg.connect(dsn, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(f"{schema}_es")))
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(f"{schema}_plain")))
    recorder = PostgresApplicationRecorder(datastore)
    recorder.create_table()
    plain = psycopg.connect(dsn, autocommit=True, options=f"-c search_path={schema}_plain")
    plain.execute(sql.SQL("CREATE TABLE events (LIKE {}.events INCLUDING ALL)").format(
        sql.Identifier(f"{schema}_paiju")))
    plain.execute("CREATE TABLE plain_events (id bigserial PRIMARY KEY, stream_id text NOT NULL,"
                  " version integer NOT NULL, payload jsonb NOT NULL)")
    runners: dict[str, Runner] = {
        "paiju": paiju_runner(store, args.streams, args.per),
        "eventsourcing": eventsourcing_runner(recorder, args.streams, args.per),
        "plain": plain_runner(plain, args.streams, args.per),
        "plain_envelope": plain_envelope_runner(plain, args.streams, args.per),
    }
    for run in runners.values():  # warm-up: connections, prepared statements, caches
        run(200)
    order = list(runners)
    rates: dict[str, list[float]] = {name: [] for name in order}
    turn = 0
    for r in range(args.rounds):
        spent = dict.fromkeys(order, 0.0)
        left = args.commands
        while left > 0:
            n = min(args.slice, left)
            left -= n
            for name in order[turn % len(order):] + order[: turn % len(order)]:
                started = time.perf_counter()
                runners[name](n)
                spent[name] += time.perf_counter() - started
            turn += 1
        for name in order:
            rates[name].append(args.commands / spent[name])
        print(f"round {r + 1}: " + ", ".join(f"{n} {rates[n][-1]:.0f}" for n in order) + " commands/s")
    store.close()
    plain.close()
    datastore.close()
    med = {name: statistics.median(values) for name, values in rates.items()}

    def paired(other: str) -> float:
        return statistics.median(p / o for p, o in zip(rates["paiju"], rates[other], strict=True))

    return {
        "commands_per_s": med,
        "events_per_s": {name: value * args.per for name, value in med.items()},
        "paiju_vs_eventsourcing": med["paiju"] / med["eventsourcing"],
        "paiju_vs_plain": med["paiju"] / med["plain"],
        "plain_envelope_vs_plain": med["plain_envelope"] / med["plain"],
        "per_round_median": {
            "paiju_vs_eventsourcing": paired("eventsourcing"),
            "paiju_vs_plain": paired("plain"),
            "paiju_vs_plain_envelope": paired("plain_envelope"),
        },
    }


def bench_load(args: argparse.Namespace, dsn: str, schema: str, case: LoadCase) -> dict[str, Any]:
    """Median load time of a ``--load-events`` stream, replayed in full and from a snapshot.

    The stream is written in commands of 10 events, snapshotting every
    ``case.snapshotter.every`` events, so the latest snapshot leaves a short tail.
    """
    store = PostgresEventStore(dsn, schema=f"{schema}_load")
    stream = "load-1"
    state, version = case.initial, 0
    while version < args.load_events:
        batch = min(10, args.load_events - version)
        recorded = store.append(stream, version, [discard_event(version + k) for k in range(batch)])
        before = version
        for event in recorded:
            state, version = case.fold(state, event), event.version
        case.snapshotter.maybe_save(store, stream, before, version, state)
    timings: dict[str, list[float]] = {"full_replay": [], "snapshot_and_tail": []}
    for _ in range(args.load_rounds):
        for name, use in (("full_replay", False), ("snapshot_and_tail", True)):
            started = time.perf_counter()
            loaded = case.snapshotter.load(store, stream, case.initial, case.fold, use_snapshot=use)
            timings[name].append((time.perf_counter() - started) * 1000)
            assert loaded.state == state and loaded.version == version
    snapshot = store.load_snapshot(stream)
    store.close()
    return {
        "events": version,
        "snapshot_version": snapshot.version if snapshot else None,
        "ms": {name: statistics.median(v) for name, v in timings.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", default=os.environ.get(
        "PAIJU_BENCH_PG", "host=127.0.0.1 port=5432 user=postgres dbname=paiju_bench"))
    parser.add_argument("--commands", type=int, default=2000, help="commands per round")
    parser.add_argument("--per", type=int, default=1, help="events per command")
    parser.add_argument("--streams", type=int, default=8, help="tables written round-robin")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=int, default=100,
                        help="commands a contender runs before the next one takes its turn")
    parser.add_argument("--load-events", type=int, default=1000)
    parser.add_argument("--load-rounds", type=int, default=20)
    parser.add_argument("--fold", help="module:name of a LoadCase (default: count discards)")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark schemas")
    args = parser.parse_args()
    case = DEFAULT_CASE
    if args.fold:
        module, _, name = args.fold.partition(":")
        case = getattr(importlib.import_module(module), name)
    dbname = str(pg_conninfo.conninfo_to_dict(args.dsn).get("dbname", "paiju_bench"))
    with psycopg.connect(pg_conninfo.make_conninfo(args.dsn, dbname="postgres"),
                         autocommit=True) as admin:
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone():
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    schema = f"bench_{os.getpid()}"
    try:
        appends = bench_appends(args, args.dsn, schema)
        load = bench_load(args, args.dsn, schema, case)
    finally:
        if not args.keep:
            with psycopg.connect(args.dsn, autocommit=True) as admin:
                for suffix in ("paiju", "es", "plain", "load"):
                    admin.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
                        sql.Identifier(f"{schema}_{suffix}")))
    print(json.dumps({"appends": appends, "load": load,
                      "settings": {k: v for k, v in vars(args).items() if k != "dsn"}}, indent=2))


if __name__ == "__main__":
    main()
