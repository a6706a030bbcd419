"""Event-store appends per second with 1, 2 and 4 partitions (issue 26), by hand.

What one store can append is what capacity.md's partition plan divides by; this measures it,
and what partitioning the tables over several stores adds, on private PostgreSQL servers
(``initdb`` + ``pg_ctl`` in temporary folders on free ports of 127.0.0.1, as ``paiju cluster``
starts its own: ``services.cluster.servers``; never the machine's shared server), stopped at
the end, on an error or on Ctrl-C.

- **Moves.** Before anything starts, random legal bots (``services.bots.random_bot``, as
  ``bench_commands.py`` plays them) play two hands of each variant through the rules
  (``decide_and_evolve``); each command becomes what ``TableService.handle`` would append for
  it: its events (``to_new_event``), its record (``command_record``), the table's timers then
  (``table_timers``) and the accepted outcome the runner hands it (the receipt). Those moves
  are replayed, in order, on every table of a variant, so the timed loop costs the writer only
  the append (a fresh event id per event), not the rules.
- **Writers.** ``--writers`` OS processes (not threads: the GIL), the same number in every
  configuration. Writer ``w`` owns ``--tables`` tables (``w{w}-t{k}``) and appends their next
  moves round-robin, one command per ``store.append`` (one transaction: the events, the
  command record, the timers, the outcome), exactly as the command path calls it: the table's
  stream, its ``expected_version``, ``command_id``, ``command``, ``timers``, ``outcome``. A
  table's stream lives in the partition ``crc32(table id) % partitions`` picks (the hash the
  command shards already use: ``workers.queues.command_queue``), a store opened by
  ``open_store(url)``.
- **Configurations**, in one run, their order rotated each round, ``--rounds`` rounds,
  reported as medians: 1 partition (one schema on one server); 2 and 4 partitions as schemas of
  one server (``?schema=p0``, ``?schema=p1``, ...); 2 and 4 partitions as servers of their own
  (one partition each). Each configuration's partitions keep their own schemas across rounds,
  so its tables grow as a live store's do.
- **A phase**: the writers append for ``--warmup`` s, then ``--seconds`` s are counted (an
  append counts if it returns inside the window), or until a writer has made
  ``--max-commands``. Counted: commands and events appended; each append's wall time; the
  writers' own CPU; the servers' CPU (each postmaster's process tree, from /proc); the box's
  CPU (/proc/stat); and, ten times a second, what the writers' backends are waiting for
  (``pg_stat_activity``: the append's advisory lock, the lock ``NOTIFY`` takes at commit, WAL
  and I/O, or running), with how many of those locks are held then (``pg_locks``).
- **The box is shared**: before each phase the run waits (``--calm-wait`` s at most) for a
  second in which the other processes use less than ``--calm`` cores, and it reports the
  cores they used in each window, so a figure taken beside other work says so.

    .venv/bin/python benchmarks/bench_partition_appends.py --writers 8 --seconds 10 --warmup 2 --rounds 3
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import signal
import statistics
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psycopg
from bench_commands import PLAYERS
from bench_timers import percentile

from events.envelope import Actor, NewEvent
from events.fairness import SEED_BYTES
from events.outcomes import CommandOutcome
from events.store import EventStore, open_store
from events.store.timers import Timer
from services.bots.random_bot import random_command
from services.cluster.procs import TICKS, cpu_seconds, tree
from services.cluster.servers import PrivatePostgres
from services.rules.table import TableState, decide_and_evolve
from services.rules.table.commands import Command, OpenTable, StartHand
from services.rules.table.legal import seats_to_act
from services.rules.table.state import patch
from services.rules.variants.versions import current
from services.tables.codec import actor_of, command_record, to_new_event
from services.tables.timers import table_timers

VARIANTS = ("harbin", "mudanjiang", "shandong", "shanghai", "tanggu")
TIMING = {"turn": 30, "claim": 15}  # `paiju cluster`'s default waits: a move writes its timers
APP = "paiju-bench-writer"  # the writers' connections, as pg_stat_activity names them


# -- the moves --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """What ``TableService.handle`` appends for one accepted command."""

    events: tuple[NewEvent, ...]
    command: dict[str, Any]
    timers: tuple[Timer, ...]
    actor: Actor


def play_moves(variant: str, hands: int, seed: str) -> list[Move]:
    """A table of ``variant`` opened, then ``hands`` hands played by random legal bots; the
    first move is the opening (its table id is replaced by each stream's own)."""
    state = patch(TableState(), rules_version=current())  # as the service opens a table
    rng = random.Random(f"{seed}-{variant}")
    moves: list[Move] = []

    def take(command: Command) -> None:
        nonlocal state
        events, state = decide_and_evolve(state, command)
        actor = actor_of(command)
        drafts = tuple(to_new_event(e, actor, state.rules_version) for e in events)
        moves.append(Move(drafts, command_record(command), tuple(table_timers(state)), actor))

    take(OpenTable(table_id="template", variant=variant, players=PLAYERS, timing=TIMING))
    for _ in range(hands):
        # a seed as the service draws one (new_seed's size), from --seed: the same moves each run
        take(StartHand(seed=rng.randbytes(SEED_BYTES).hex()))
        while not state.hand_over:
            take(random_command(state, seats_to_act(state)[0], rng))
    return moves


def partition_of(table_id: str, partitions: int) -> int:
    """A stable hash of the table id: the same CRC-32 the command shards use."""
    return zlib.crc32(table_id.encode()) % partitions


# -- a writer process -------------------------------------------------------------------------
@dataclass
class Stream:
    table_id: str
    store: EventStore
    moves: list[Move]
    version: int = 0
    cursor: int = 0

    def append_next(self) -> int:
        """Append the table's next move as the command path does; the events appended."""
        move = self.moves[self.cursor]
        self.cursor = self.cursor + 1 if self.cursor + 1 < len(self.moves) else 1  # hands again
        events = [
            NewEvent(e.type, e.payload, e.actor, e.rules_version, e.schema_version)
            for e in move.events
        ]
        command = move.command
        if move is self.moves[0]:  # the opening names the table
            events = [
                NewEvent(e.type, {**e.payload, "table_id": self.table_id}, e.actor,
                         e.rules_version, e.schema_version)
                for e in events
            ]  # fmt: skip
            command = {**command, "table_id": self.table_id}
        command_id = f"{self.table_id}/v{self.version}"
        receipt = CommandOutcome(
            command_id=command_id, table_id=self.table_id, status="accepted",
            actor_kind=move.actor.kind, actor_seat=move.actor.seat,
        )  # fmt: skip
        self.store.append(
            self.table_id,
            self.version,
            events,
            command_id,
            command,
            timers=move.timers,
            outcome=receipt if events else None,
        )
        self.version += len(events)
        return len(events)


@dataclass
class Phase:
    """What a writer did in one phase's counted window."""

    commands: int = 0
    events: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    latencies: list[float] = field(default_factory=list)
    error: str | None = None


def writer(index: int, pipe: Connection, moves: dict[str, list[Move]], tables: int) -> None:
    """Wait for configurations on ``pipe`` and append for each one's window."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us, after Ctrl-C too
    stores: dict[str, EventStore] = {}
    streams: dict[tuple[str, str], Stream] = {}
    names = [(f"w{index}-t{k}", VARIANTS[k % len(VARIANTS)]) for k in range(tables)]
    try:
        while True:
            message = pipe.recv()
            if message is None:
                return
            kind, payload = message
            if kind == "open":  # every store of every configuration, before anything is timed
                for url in payload:
                    stores[url] = open_store(url)
                pipe.send("ready")
                continue
            name, urls, start, end, limit = payload
            mine = [
                streams.setdefault((name, t), Stream(t, stores[urls[partition_of(t, len(urls))]],
                                                     moves[variant]))
                for t, variant in names
            ]  # fmt: skip
            pipe.send(run_phase(mine, start, end, limit))
    except EOFError:  # the parent is gone
        return
    finally:
        for store in stores.values():
            with contextlib.suppress(Exception):
                store.close()


def run_phase(streams: list[Stream], start: float, end: float, limit: int) -> Phase:
    phase = Phase()
    began_cpu = None
    clock = time.monotonic
    try:
        i = 0
        while True:
            before = clock()
            if before >= end or phase.commands >= limit:
                break
            if began_cpu is None and before >= start:
                began_cpu = time.process_time()
            events = streams[i % len(streams)].append_next()
            i += 1
            after = clock()
            if start <= after < end:
                phase.commands += 1
                phase.events += events
                phase.latencies.append(after - before)
        phase.seconds = min(clock(), end) - start
        phase.cpu = time.process_time() - (began_cpu or time.process_time())
    except Exception as error:  # told to the parent, which stops the run
        phase.error = f"{type(error).__name__}: {error}"
    return phase


# -- the servers, and what they do ------------------------------------------------------------
def postmaster_pid(server: PrivatePostgres) -> int:
    return int((server.data / "postmaster.pid").read_text().split()[0])


def foreign_ticks(ours: set[int]) -> dict[int, int]:
    """CPU ticks so far of each process that is neither ours nor a kernel thread (/proc)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid, fields = int(stat.parent.name), stat.read_text().rsplit(")", 1)[1].split()
            if pid not in ours and fields[1] not in ("0", "2") and pid != 2:
                found[pid] = int(fields[11]) + int(fields[12])
    return found


def box_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole box (/proc/stat; busy: not idle, not iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return sum(values) - values[3] - values[4], sum(values)


WAITS = """SELECT CASE WHEN wait_event IS NULL THEN 'running'
                 WHEN wait_event = 'advisory' THEN 'waiting: append lock'
                 WHEN wait_event_type = 'Lock' AND wait_event = 'object' THEN 'waiting: NOTIFY lock'
                 WHEN wait_event_type = 'IO' OR wait_event LIKE 'WAL%%' THEN 'waiting: WAL/IO'
                 ELSE wait_event_type || ':' || wait_event END, count(*)
          FROM pg_stat_activity WHERE application_name = %s AND state = 'active'
          GROUP BY 1"""
HELD = """SELECT count(*) FILTER (WHERE locktype = 'advisory'),
                 count(*) FILTER (WHERE locktype = 'object' AND objid = 0
                                  AND classid = 'pg_database'::regclass)
          FROM pg_locks WHERE granted"""  # NOTIFY's commit lock: a shared object, one a server


@dataclass
class Sample:
    """A phase seen from outside the writers."""

    server_cpu: float = 0.0
    box_busy: float = 0.0  # cores
    others: float = 0.0  # cores: the other processes of the box (not ours, not the kernel's)
    waits: Counter[str] = field(default_factory=Counter)  # mean backends in each state


def ours(servers: list[PrivatePostgres], writer_pids: list[int]) -> set[int]:
    """The run's processes: every server's (their backends too), the writers, this one."""
    return {os.getpid(), *(p for s in servers for p in tree(postmaster_pid(s))), *writer_pids}


def wait_calm(run: set[int], below: float, most: float) -> float:
    """Wait (``most`` s at most) for a second in which the box's other processes use less
    than ``below`` cores; what they used in the last second looked at."""
    deadline = time.monotonic() + most
    while True:
        before = foreign_ticks(run)
        time.sleep(1.0)
        used = sum(t - before.get(p, 0) for p, t in foreign_ticks(run).items()) / TICKS
        if used < below or time.monotonic() >= deadline:
            return used


def watch(servers: list[PrivatePostgres], watchers: list[psycopg.Connection[Any]],
          run_pids: Callable[[], set[int]], start: float, end: float) -> Sample:  # fmt: skip
    """Sleep to the window, then read CPU and sample the writers' backends until it ends
    (``run_pids``: the run's processes, looked up when the window opens)."""
    pids = [postmaster_pid(s) for s in servers]
    time.sleep(max(0.0, start - time.monotonic()))
    run = run_pids()
    cpu0, (busy0, total0), foreign0 = sum(map(cpu_seconds, pids)), box_cpu(), foreign_ticks(run)
    seen: Counter[str] = Counter()
    samples = 0
    while time.monotonic() < end - 0.3:
        for conn in watchers:
            for state, count in conn.execute(WAITS, (APP,)).fetchall():
                seen[state] += count
            held = conn.execute(HELD).fetchone() or (0, 0)
            seen["append locks held"] += held[0]
            seen["NOTIFY lock held"] += held[1]
        samples += 1
        time.sleep(0.1)
    time.sleep(max(0.0, end - time.monotonic()))
    cpu1, (busy1, total1), foreign1 = sum(map(cpu_seconds, pids)), box_cpu(), foreign_ticks(run)
    cores = os.cpu_count() or 1
    foreign = sum(t - foreign0.get(pid, 0) for pid, t in foreign1.items()) / TICKS
    sample = Sample(cpu1 - cpu0, (busy1 - busy0) / max(1, total1 - total0) * cores,
                    foreign / (end - start))  # fmt: skip
    sample.waits = Counter({k: v / max(1, samples) for k, v in seen.items()})
    return sample


@dataclass(frozen=True)
class Config:
    name: str
    kind: str  # "one", "schemas", "servers"
    urls: tuple[str, ...]  # one per partition
    servers: tuple[int, ...]  # the servers it uses


def configs(servers: list[PrivatePostgres], counts: list[int]) -> list[Config]:
    def url(server: int, schema: str) -> str:
        return f"{servers[server].url}?schema={schema}&application_name={APP}"

    found = [Config("1 partition", "one", (url(0, "one_p0"),), (0,))]
    for n in (c for c in counts if c > 1):
        found.append(Config(f"{n} schemas, 1 server", "schemas",
                            tuple(url(0, f"schemas{n}_p{i}") for i in range(n)), (0,)))  # fmt: skip
    for n in (c for c in counts if c > 1):
        found.append(Config(f"{n} servers", "servers",
                            tuple(url(i, f"servers{n}_p0") for i in range(n)), tuple(range(n))))  # fmt: skip
    return found


@dataclass
class Result:
    config: Config
    rate: float
    events_rate: float
    server_us: float  # server CPU per command, µs
    writer_us: float
    box_busy: float
    others: float  # cores the box's other processes used (other sessions' work)
    p50_ms: float
    p99_ms: float
    waits: Counter[str]


def one_phase(config: Config, servers: list[PrivatePostgres], pipes: list[Connection],
              writer_pids: list[int], watchers: dict[int, psycopg.Connection[Any]],
              args: argparse.Namespace) -> Result:  # fmt: skip
    start = time.monotonic() + args.warmup
    end = start + args.seconds
    for pipe in pipes:
        pipe.send(("phase", (config.name, config.urls, start, end, args.max_commands)))
    sample = watch([servers[i] for i in config.servers], [watchers[i] for i in config.servers],
                   lambda: ours(servers, writer_pids), start, end)  # fmt: skip
    phases: list[Phase] = [pipe.recv() for pipe in pipes]
    failed = [p.error for p in phases if p.error]
    if failed:
        raise RuntimeError(f"{config.name}: a writer failed: {failed[0]}")
    commands = sum(p.commands for p in phases)
    latencies = [x for p in phases for x in p.latencies]
    return Result(
        config,
        rate=sum(p.commands / p.seconds for p in phases if p.seconds > 0),
        events_rate=sum(p.events / p.seconds for p in phases if p.seconds > 0),
        server_us=sample.server_cpu / max(1, commands) * 1e6,
        writer_us=sum(p.cpu for p in phases) / max(1, commands) * 1e6,
        box_busy=sample.box_busy,
        others=sample.others,
        p50_ms=percentile(latencies, 50) * 1000 if latencies else 0.0,
        p99_ms=percentile(latencies, 99) * 1000 if latencies else 0.0,
        waits=sample.waits,
    )


# -- the run ----------------------------------------------------------------------------------
@contextlib.contextmanager
def private_servers(count: int) -> Iterator[list[PrivatePostgres]]:
    """``count`` private PostgreSQL servers, stopped (and their folders removed) at the end."""
    root = Path(tempfile.mkdtemp(prefix="paiju-bench-partitions-"))
    servers = [PrivatePostgres(root) for _ in range(count)]
    try:
        with ThreadPoolExecutor(count) as pool:
            list(pool.map(PrivatePostgres.start, servers))
        yield servers
    finally:
        for server in servers:
            with contextlib.suppress(Exception):
                server.stop()
        with contextlib.suppress(OSError):
            root.rmdir()


def median_of(results: list[Result]) -> Result:
    waits: Counter[str] = Counter()
    for key in {k for r in results for k in r.waits}:
        waits[key] = statistics.median(r.waits.get(key, 0.0) for r in results)
    med = statistics.median
    return Result(
        results[0].config,
        rate=med(r.rate for r in results),
        events_rate=med(r.events_rate for r in results),
        server_us=med(r.server_us for r in results),
        writer_us=med(r.writer_us for r in results),
        box_busy=med(r.box_busy for r in results),
        others=med(r.others for r in results),
        p50_ms=med(r.p50_ms for r in results),
        p99_ms=med(r.p99_ms for r in results),
        waits=waits,
    )


def report(rounds: dict[str, list[Result]], args: argparse.Namespace) -> None:
    base_rounds = rounds["1 partition"]
    medians = {name: median_of(results) for name, results in rounds.items()}
    base = medians["1 partition"].rate
    print(f"\n{args.writers} writer processes, {args.tables} tables each, {args.seconds:g} s"
          f" counted after {args.warmup:g} s, medians of {args.rounds} rounds\n")  # fmt: skip
    print("| configuration | partitions | writer processes | commands/s | events/s"
          " | ÷ 1 partition (paired) | server CPU µs/command | writers' CPU µs/command"
          " | box CPU busy (cores) | of it, other processes' | append p50 / p99 ms |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, m in medians.items():
        paired = statistics.median(
            r.rate / b.rate for r, b in zip(rounds[name], base_rounds, strict=True)
        )
        print(f"| {name} | {len(m.config.urls)} | {args.writers} | {m.rate:,.0f}"
              f" | {m.events_rate:,.0f} | {m.rate / base:.2f} ({paired:.2f}) | {m.server_us:,.0f}"
              f" | {m.writer_us:,.0f} | {m.box_busy:.2f} | {m.others:.2f} | {m.p50_ms:.2f} / {m.p99_ms:.2f} |")  # fmt: skip
    first = ["running", "waiting: append lock", "waiting: NOTIFY lock", "waiting: WAL/IO",
             "append locks held", "NOTIFY lock held"]  # fmt: skip
    others = sorted({k for m in medians.values() for k in m.waits} - set(first))
    states = first + others
    print("\nThe writers' backends, mean number in each state (pg_stat_activity, 10 a second),"
          f" and the locks held (pg_locks); of the {args.writers}, those neither running nor"
          " waiting are in the writer (Python, the network, waiting for a core):\n")  # fmt: skip
    print("| configuration | " + " | ".join(states) + " |")
    print("|---|" + "---:|" * len(states))
    for name, m in medians.items():
        print(f"| {name} | " + " | ".join(f"{m.waits.get(k, 0):.2f}" for k in states) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=lambda s: [int(c) for c in s.split(",")],
                        default=[1, 2, 4], help="partition counts (1 is always run)")  # fmt: skip
    parser.add_argument("--writers", type=int, default=8, help="writer processes, every config")
    parser.add_argument("--tables", type=int, default=32, help="tables per writer")
    parser.add_argument("--seconds", type=float, default=10.0, help="counted, per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="appended first, not counted")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-commands", type=int, default=1_000_000,
                        help="a writer's commands a phase at most (a phase ends at either bound)")  # fmt: skip
    parser.add_argument("--calm", type=float, default=0.3,
                        help="before a phase, wait for the box's other processes to use less"
                        " than this many cores for a second (0: do not wait)")  # fmt: skip
    parser.add_argument("--calm-wait", type=float, default=15.0,
                        help="seconds to wait for that at most, then go on")  # fmt: skip
    parser.add_argument("--hands", type=int, default=2, help="hands of moves played per variant")
    parser.add_argument("--seed", default="partitions")
    args = parser.parse_args()
    counts = sorted({1, *args.partitions})

    moves = {v: play_moves(v, args.hands, args.seed) for v in VARIANTS}
    per = sum(len(e.events) for m in moves.values() for e in m) / sum(map(len, moves.values()))
    print(f"moves: {sum(map(len, moves.values()))} commands of {len(VARIANTS)} variants,"
          f" {per:.2f} events each on average", flush=True)  # fmt: skip

    # the writers are forked now, from a process with no connection and no thread yet
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    for index in range(args.writers):
        mine, theirs = context.Pipe()
        process = context.Process(target=writer, args=(index, theirs, moves, args.tables),
                                  daemon=True)  # fmt: skip
        process.start()
        theirs.close()
        pipes.append(mine)
        processes.append(process)

    def stop_on_term(*_: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop_on_term)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with it ignored
    watchers: dict[int, psycopg.Connection[Any]] = {}
    try:
        with private_servers(max(counts)) as servers:
            print("servers: " + ", ".join(f"127.0.0.1:{s.port}" for s in servers), flush=True)
            plan = configs(servers, counts)
            for config in plan:  # create every schema once, before the writers open them
                for url in config.urls:
                    open_store(url).close()
                names = [f"w{w}-t{k}" for w in range(args.writers) for k in range(args.tables)]
                spread = Counter(partition_of(t, len(config.urls)) for t in names)
                print(f"  {config.name}: tables per partition "
                      f"{[spread[i] for i in range(len(config.urls))]}", flush=True)  # fmt: skip
            watchers = {i: psycopg.connect(s.url, autocommit=True) for i, s in enumerate(servers)}
            every = sorted({u for c in plan for u in c.urls})
            for pipe in pipes:
                pipe.send(("open", every))
            for pipe in pipes:
                if pipe.recv() != "ready":
                    raise RuntimeError("a writer did not open its stores")
            rounds: dict[str, list[Result]] = {c.name: [] for c in plan}
            writer_pids = [p.pid for p in processes if p.pid is not None]
            for r in range(args.rounds):
                order = plan[r % len(plan) :] + plan[: r % len(plan)]
                for config in order:
                    if args.calm > 0:
                        busy = wait_calm(ours(servers, writer_pids), args.calm, args.calm_wait)
                        if busy >= args.calm:
                            print(f"  (other processes still use {busy:.2f} cores)", flush=True)
                    got = one_phase(config, servers, pipes, writer_pids, watchers, args)
                    rounds[config.name].append(got)
                    print(f"round {r + 1}, {config.name}: {got.rate:,.0f} commands/s,"
                          f" server {got.server_us:,.0f} µs/command, box {got.box_busy:.2f}"
                          f" cores ({got.others:.2f} other processes'), waits {dict(sorted(got.waits.items()))}", flush=True)  # fmt: skip
            for pipe in pipes:
                pipe.send(None)
            for process in processes:
                process.join(30)
            for conn in watchers.values():
                conn.close()
            watchers = {}
        report(rounds, args)
    except KeyboardInterrupt:
        print("interrupted: servers stopped", file=sys.stderr)
        sys.exit(130)
    finally:
        for conn in watchers.values():
            with contextlib.suppress(Exception):
                conn.close()
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join(10)


if __name__ == "__main__":
    main()
