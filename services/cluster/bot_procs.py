"""The cluster's bots in processes of their own: each plays its share of the tables (``paiju
demo``'s players, ``services.demo.http_demo``) and sends its news to the harness, which adds
them up into one ``Tally``. Their CPU is then theirs, read per process, and no longer shares
the harness's interpreter (its lock, its event loop) with the supervisor and the watchers.

A bot process sends, four times a second, what is new since its last message (accepted moves'
times, by API process; streams reopened; its tables once seated; its counts) and, once stopped,
what the figures need at the end (every POST's and event's time, the acknowledged commands, the
hands). Clocks agree: ``time.perf_counter`` is the machine's monotonic clock in every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import queue
import threading
from dataclasses import dataclass, replace
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event as ProcessEvent
from typing import Any

from services.demo.http_demo import HttpDemo, Plan, Tally

NEWS_EVERY = 0.25  # seconds between a bot process's messages
LAST_NEWS = 90.0  # seconds a stopped bot process may take to send its last message


@dataclass(frozen=True)
class SeatedTable:
    """A table a bot process seated, and the API process it plays through."""

    table_id: str
    base: str


def shares(plan: Plan, processes: int) -> list[Plan]:
    """``plan`` split into ``processes`` plans of about as many tables each (a process with
    none gets none), with rooms and players of their own (the prefix and the run, numbered)."""
    count = min(processes, plan.tables)
    return [replace(plan, tables=plan.tables // count + (1 if n < plan.tables % count else 0),
                    prefix=f"{plan.prefix}-{n}", run=f"{plan.run}{n}", seed=plan.seed + n)
            for n in range(count)]  # fmt: skip


class BotProcesses:
    """The bots of ``plan`` in ``processes`` processes; ``tally`` and ``tables`` are theirs,
    added up as their news comes in."""

    def __init__(self, bases: list[str], key: str, plan: Plan, processes: int) -> None:
        context = multiprocessing.get_context("spawn")  # no threads of this process copied
        self.tally = Tally()
        self.tables: list[SeatedTable] = []
        self._news: multiprocessing.Queue[dict[str, Any]] = context.Queue()
        self._stop: ProcessEvent = context.Event()
        self._children: list[SpawnProcess] = [
            context.Process(target=play_share, args=(bases, key, share, n, self._news, self._stop),
                            name=f"bots-{n}", daemon=True)
            for n, share in enumerate(shares(plan, processes))]  # fmt: skip
        self._latest: dict[int, dict[str, Any]] = {}
        self._seated: dict[int, list[SeatedTable]] = {}
        self._ended: set[int] = set()
        self.failure: str | None = None

    @property
    def pids(self) -> list[int]:
        return [child.pid for child in self._children if child.pid is not None]

    def run(self, stop: threading.Event) -> None:
        """Start the bot processes and add up their news until ``stop``; then stop them and
        take their last news (raises ``RuntimeError`` naming a bot process that failed)."""
        for child in self._children:
            child.start()
        while not stop.is_set() and self.failure is None:
            self._take(timeout=NEWS_EVERY)
        self._stop.set()
        with contextlib.suppress(queue.Empty):
            while len(self._ended) < len(self._children):
                self._take(timeout=LAST_NEWS, block=True)
        for child in self._children:
            child.join(10)
            if child.is_alive():
                child.kill()
        if self.failure is not None:
            raise RuntimeError(self.failure)

    def _take(self, timeout: float, block: bool = False) -> None:
        try:
            news = self._news.get(timeout=timeout)
        except queue.Empty:
            if block:
                raise
            return
        self._add(news)

    def _add(self, news: dict[str, Any]) -> None:
        n, tally = news["process"], self.tally
        tally.accepted_at.extend(news["accepted_at"])
        for field_name in ("by_api", "reopened"):
            for base, times in news[field_name].items():
                getattr(tally, field_name).setdefault(base, []).extend(times)
        if news["tables"] is not None:
            self._seated[n] = [SeatedTable(t, b) for t, b in news["tables"]]
            self.tables = [t for seated in self._seated.values() for t in seated]
        self._latest[n] = news["counts"]
        for name in ("sent", "accepted", "refused"):
            setattr(tally, name, sum(c[name] for c in self._latest.values()))
        if news.get("failure"):
            self.failure = f"bot process {n}: {news['failure']}"
        final = news.get("final")
        if final is not None:
            self._ended.add(n)
            tally.posted_at.update(final["posted_at"])
            tally.seen_at.update(final["seen_at"])
            tally.acknowledged.update(final["acknowledged"])
            tally.hands.update(final["hands"])
            tally.refusals.update(final["refusals"])


def play_share(bases: list[str], key: str, plan: Plan, n: int,
               news: multiprocessing.Queue[dict[str, Any]], stop: ProcessEvent) -> None:  # fmt: skip
    """In a bot process: play ``plan``'s tables until ``stop``, sending news as it goes."""
    demo = HttpDemo(bases[0], key, plan, out=None, more=tuple(bases[1:]))
    halt, failed = threading.Event(), []

    def play() -> None:
        try:
            asyncio.run(demo.run(halt))
        except BaseException as error:  # sent as the process's failure: the run is wrong
            failed.append(repr(error))

    thread = threading.Thread(target=play, name="bots", daemon=True)
    thread.start()
    sent = Sent()
    while not stop.wait(NEWS_EVERY) and thread.is_alive():
        news.put(sent.news(demo, n))
    halt.set()
    thread.join(60)
    last = sent.news(demo, n)
    tally = demo.tally
    last["final"] = {"posted_at": dict(tally.posted_at), "seen_at": dict(tally.seen_at),
                     "acknowledged": dict(tally.acknowledged), "hands": dict(tally.hands),
                     "refusals": dict(tally.refusals)}  # fmt: skip
    last["failure"] = failed[0] if failed else None
    news.put(last)


class Sent:
    """How much of a bot process's tally its messages carried so far."""

    def __init__(self) -> None:
        self.accepted = 0
        self.by_api: dict[str, int] = {}
        self.reopened: dict[str, int] = {}
        self.tables = 0

    def news(self, demo: HttpDemo, n: int) -> dict[str, Any]:
        """What is new in ``demo``'s tally since the last message (read across threads: lists
        only grow, and each is copied whole by one C call under the interpreter's lock)."""
        tally = demo.tally
        accepted_at = list(tally.accepted_at)
        found: dict[str, Any] = {"process": n, "accepted_at": accepted_at[self.accepted:]}
        self.accepted = len(accepted_at)
        for name in ("by_api", "reopened"):
            seen = getattr(self, name)
            new: dict[str, list[float]] = {}
            for base, times in list(getattr(tally, name).items()):
                times = list(times)
                new[base] = times[seen.get(base, 0):]
                seen[base] = len(times)
            found[name] = new
        seated = [(t.table_id, t.base) for t in list(demo.tables) if t.table_id]
        found["tables"] = seated if len(seated) != self.tables else None
        self.tables = len(seated)
        found["counts"] = {"sent": tally.sent, "accepted": tally.accepted, "refused": tally.refused}
        return found
