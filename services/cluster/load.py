"""Bots against the cluster: ``paiju demo``'s platform and players (``services/demo``) at many
tables spread over every API process, with no thinking time, measured as
``benchmarks/bench_api_end_to_end.py`` measures one API: each accepted move from just before its
POST (``If-Match: v``) to its first event, ``v + 1``, on the acting seat's own stream. Some
tables keep an idle seat, so the turn timers play it. While it plays, a watcher looks for
timers overdue (a timeout missed), and each part kind's CPU is read over the counted window.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import statistics
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from services.cluster.bot_procs import BotProcesses
from services.cluster.checks import overdue_timers
from services.cluster.procs import cpu_seconds
from services.cluster.run import KINDS, Cluster, ClusterError
from services.demo.http_demo import HttpDemo, Plan, Tally
from workers.parts import Parts

SEATING = 600.0  # seconds for every table to be seated before a run counts as failed


@dataclass(frozen=True)
class Bots:
    tables: int = 200
    seconds: float = 60.0  # counted, after the warm-up
    warmup: float = 15.0
    idle_every: int = 10  # every n-th table has a seat that never moves (0: only the first)
    turn: int = 10  # seconds a table waits on a seat (the timers' part)
    claim: int = 5
    pace: float = 0.0  # seconds a bot thinks before each move (0: none, the load test) ...
    jitter: float = 0.0  # ... give or take up to this many
    processes: int = 1  # bot processes of their own (0: a thread of the harness's process)


@dataclass
class Figures:
    """One run's figures: moves, latency, each part's share of one core, the timers."""

    tables: int
    counted: float
    moves: int
    latencies_ms: list[float]
    cpu: dict[str, float]
    hands: int
    refused: int
    overdue: list[str] = field(default_factory=list)  # timers found overdue while it ran
    looks: int = 0  # times the watcher looked at every table's timers

    @property
    def per_second(self) -> float:
        return self.moves / self.counted if self.counted else 0.0

    def percentile(self, p: float) -> float:
        ms = sorted(self.latencies_ms)
        if not ms:
            return float("nan")
        return ms[min(len(ms) - 1, max(0, math.ceil(p / 100 * len(ms)) - 1))]  # nearest rank

    @property
    def median(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else float("nan")


@dataclass
class Load:
    """The bots playing in a thread of their own until ``stop``; ``tally`` is theirs."""

    cluster: Cluster
    bots: Bots
    overdue_slack: float = 20.0  # seconds past due before a timer counts as missed

    def __post_init__(self) -> None:
        bases = self.cluster.api_bases
        plan = Plan(tables=self.bots.tables, seconds=None, idle_seat=3,
                    idle_every=self.bots.idle_every, prefix=f"cl-{uuid.uuid4().hex[:6]}",
                    timing={"turn": self.bots.turn, "claim": self.bots.claim}, pace=self.bots.pace,
                    jitter=self.bots.jitter, measure=True)  # fmt: skip
        self.demo: HttpDemo | BotProcesses = (
            BotProcesses(bases, self.cluster.key, plan, self.bots.processes) if self.bots.processes
            else HttpDemo(bases[0], self.cluster.key, plan, out=None, more=tuple(bases[1:])))  # fmt: skip
        self.stop = threading.Event()
        self.failure: BaseException | None = None
        self.overdue: set[str] = set()
        self.looks = 0

    @property
    def tally(self) -> Tally:
        return self.demo.tally

    def table_ids(self) -> list[str]:
        return [t.table_id for t in self.demo.tables if t.table_id]

    def seated(self) -> int:
        return sum(1 for t in self.demo.tables if t.table_id)

    def wait_seated(self, timeout: float = SEATING) -> None:
        """Until every table is seated and started (its four players through the rooms):
        the counted window is play, not seating."""
        deadline = time.monotonic() + timeout
        while self.seated() < self.bots.tables:
            if self.failure is not None or time.monotonic() > deadline:
                self.finish()
                raise ClusterError(
                    f"{self.seated()} of {self.bots.tables} tables seated after {timeout:g} s: the"
                    " box could not seat the rest while the seated ones played (their timers"
                    " moved the seats whose bots could not answer in time); run fewer tables")  # fmt: skip
            time.sleep(0.2)

    def start(self) -> None:
        self._threads = [threading.Thread(target=self._play, name="bots", daemon=True),
                         threading.Thread(target=self._watch, name="timers", daemon=True)]  # fmt: skip
        for thread in self._threads:
            thread.start()

    def _play(self) -> None:
        try:
            if isinstance(self.demo, BotProcesses):
                self.demo.run(self.stop)
            else:
                asyncio.run(self.demo.run(self.stop))
        except BaseException as error:  # said by finish(): the run's figures would be wrong
            self.failure = error
            self.stop.set()

    def _watch(self) -> None:
        """Every few seconds: every table's timers, any overdue by more than the slack."""
        parts = Parts(self.cluster.settings_here())  # each table's timers in its own store
        store = parts.store()
        try:
            while not self.stop.wait(5.0):
                with contextlib.suppress(Exception):  # the store may be away (a fault)
                    if not self.cluster.of("timekeeper") or self.cluster.holding:
                        continue
                    self.overdue.update(overdue_timers(store, self.table_ids(), self.overdue_slack))
                    self.looks += 1
        finally:
            parts.close()

    def finish(self) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join(60)
        if self.failure is not None:
            raise RuntimeError(f"the bots stopped: {self.failure}") from self.failure


def cpu_by_kind(cluster: Cluster, bot_pids: list[int] | tuple[int, ...] = ()) -> dict[str, float]:
    """CPU seconds so far of each kind of part, of PostgreSQL and Redis, and of the bots (their
    processes, ``bot_pids``, and this one: the harness)."""
    found = {kind: sum(p.cpu() for p in cluster.of(kind)) for kind in KINDS}
    for server in [cluster.postgres, *cluster.table_servers.values()]:  # the table stores' too
        postmaster = server.data / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError):  # a restarted server's CPU starts again
            if not server.restarts:
                found["postgres"] = found.get("postgres", 0.0) + cpu_seconds(
                    int(postmaster.read_text().split()[0]))  # fmt: skip
    if cluster.redis.process is not None and not cluster.redis.restarts:
        found["redis"] = cpu_seconds(cluster.redis.process.pid)
    found["bots"] = time.process_time() + sum(cpu_seconds(pid) for pid in bot_pids)
    return found


def play(cluster: Cluster, bots: Bots, during: Callable[[Load], None] | None = None
         ) -> tuple[Figures, Load]:  # fmt: skip
    """Play for the warm-up, then count ``bots.seconds`` (or for as long as ``during`` runs:
    the fault plan); the figures of the counted window and the load (its tally)."""
    load = Load(cluster, bots)
    load.start()
    load.wait_seated()
    load.stop.wait(bots.warmup)
    began, accepted = time.perf_counter(), load.tally.accepted
    bot_pids = load.demo.pids if isinstance(load.demo, BotProcesses) else []
    cpu = cpu_by_kind(cluster, bot_pids)
    if during is None:
        load.stop.wait(bots.seconds)
    else:
        during(load)
    ended = time.perf_counter()
    used = {k: v - cpu[k] for k, v in cpu_by_kind(cluster, bot_pids).items() if k in cpu}
    load.finish()
    counted = ended - began
    tally = load.tally
    latencies = [
        (seen - posted) * 1000
        for (table, version, seat), seen in list(tally.seen_at.items())
        if began <= seen <= ended
        and (posted := tally.posted_at.get((table, version - 1, seat))) is not None
        and seen >= posted
    ]  # fmt: skip
    figures = Figures(
        tables=bots.tables, counted=counted, moves=tally.accepted - accepted,
        latencies_ms=latencies, cpu={k: max(0.0, v) / counted for k, v in used.items()},
        hands=sum(tally.hands.values()), refused=tally.refused,
        overdue=sorted(load.overdue), looks=load.looks,
    )  # fmt: skip
    return figures, load


def busiest(cluster: Cluster, seconds: float, out: Path) -> tuple[str, list[tuple[str, float]]]:
    """A py-spy profile of the busiest part process over ``seconds``: its name and the
    functions it spent its samples in (own time, share of samples), most first."""
    from services.cluster.profile import profile

    before = {p.name: p.cpu() for p in cluster.parts}
    time.sleep(2.0)
    part = max(cluster.parts, key=lambda p: p.cpu() - before[p.name])
    return part.name, profile(part.pid, seconds, out)
