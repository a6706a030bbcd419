"""``paiju demo``: bot players at a few tables, played over HTTP exactly as a platform would.

With a platform API key the demo seats four bot players at each table through a room of its
own, one per variant (``seating``: set up, granted, joined, ready, started), each with its own
seat token; every player (``player``) follows its seat's live stream (server-sent events,
resumed from ``Last-Event-ID`` after a drop) and moves with one request each time the stream
offers it a choice: the seat's options (legal commands, the version for ``If-Match``, its
view) come with the events, and a command's answer brings the next ones. The platform deals
each next hand when the lead seat's stream shows the last one settled. One seat at the first
table never moves, so the turn timers play it (超时托管). When the demo stops, its tables are
closed (``closing``). Nothing here touches the store or the engine, and nothing reads
``GET …/view`` or ``GET …/legal``: only the stream and the POSTs.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

import httpx

from services.demo.closing import end_tables
from services.demo.lines import autoplaying, line_of, notable
from services.demo.player import AGAIN, TRANSIENT, Player
from services.demo.seating import (
    DemoRefused,
    RoomPlan,
    Seating,
    checked,
    gather_players,
    mint,
    platform_headers,
    start_table,
)
from services.rules.variants import VARIANTS

SEATS = ("east", "south", "west", "north")  # the bots are bot-east-<run>-<table>, ...
TIMING = {"turn": 5, "claim": 3}  # watchable: an idle seat holds its table 5 s, then 3 s
MINIMUM_POINTS = 100  # each demo room's minimum 积分: the platform grants its new bots as much
SEATING_AT_ONCE = 16  # tables seated at the same time


@dataclass
class Plan:
    """What the demo plays: how many tables, hands per table (None: until stopped), for how
    long (None: until stopped), which seat of the first table stays idle. Its rooms are
    ``PREFIX-VARIANT`` (``PREFIX-VARIANT-2`` ... past one table per variant); ``run`` names its
    players (new each run unless given)."""

    tables: int = 3
    hands: int | None = None
    seconds: float | None = None
    idle_seat: int | None = 3
    idle_every: int = 0  # 0: only the first table has the idle seat; n: every n-th table
    prefix: str = "demo"
    timing: dict[str, int] = field(default_factory=lambda: dict(TIMING))
    pace: float = 0.3  # seconds a bot thinks before each move ...
    jitter: float = 0.0  # ... give or take up to this many (a human's pace: 2 give or take 1)
    seed: int = 7
    lead: int = 0  # the seat whose stream is printed and on whose news the platform deals
    measure: bool = False  # keep each move's POST and event times (the benchmarks)
    minimum_points: int = MINIMUM_POINTS
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    variants: tuple[str, ...] = field(default_factory=lambda: tuple(VARIANTS))  # the registry's
    # at the end, close (or dissolve) the tables it started, so no absent bot plays on by 托管
    # (``closing``); off for the load tests, whose checks read the tables as the bots left them
    close_at_end: bool = False

    def room(self, number: int) -> RoomPlan:
        """The room of the demo's table ``number`` (from 0): a room per variant, in the
        registry's order, and more of each variant's when there are more tables than variants."""
        variant = self.variants[number % len(self.variants)]
        again = number // len(self.variants)
        room = f"{self.prefix}-{variant}" + (f"-{again + 1}" if again else "")
        return RoomPlan(room, variant, dict(self.timing), self.minimum_points)

    def players(self, number: int) -> tuple[str, str, str, str]:
        """The four bots of this run's table ``number``: ``bot-east-<run>-<number + 1>``, ...
        (a player plays at one table at a time, and an earlier run's may still be at theirs)."""
        east, south, west, north = (f"bot-{seat}-{self.run}-{number + 1}" for seat in SEATS)
        return east, south, west, north


@dataclass
class Tally:
    """What the run did, for its summary line and for the benchmarks."""

    hands: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    accepted: int = 0
    refused: int = 0
    posted_at: dict[tuple[str, int, int], float] = field(default_factory=dict)  # table, version, seat
    seen_at: dict[tuple[str, int, int], float] = field(default_factory=dict)
    # every accepted command's id -> (table, its first version): what must be in the store
    acknowledged: dict[str, tuple[str, int]] = field(default_factory=dict)
    accepted_at: list[float] = field(default_factory=list)  # perf_counter of each accepted move
    by_api: dict[str, list[float]] = field(default_factory=dict)  # the same, by the API posted to
    reopened: dict[str, list[float]] = field(default_factory=dict)  # a stream back after a drop, by API
    refusals: Counter[str] = field(default_factory=Counter)  # refused commands by the code given

    def acknowledge(self, command_id: str, table_id: str, outcome: dict[str, Any]) -> None:
        first = outcome.get("first_version")
        if isinstance(first, int):
            self.acknowledged[command_id] = (table_id, first)

    def latencies(self) -> list[float]:
        """Seconds from each accepted move's POST to its first event on the acting seat's
        stream: the move was posted at ``If-Match: v``, so its first event is ``v + 1``."""
        found = []
        for (table, version, seat), seen in self.seen_at.items():
            posted = self.posted_at.get((table, version - 1, seat))
            if posted is not None:
                found.append(seen - posted)
        return found


class DemoTable:
    """One table: the platform's part (seating, dealing) and its four players."""

    def __init__(self, demo: HttpDemo, number: int) -> None:
        self.demo, self.plan = demo, demo.plan
        self.room, self.bots = self.plan.room(number), self.plan.players(number)
        self.table_id = ""  # the table the room starts
        every = self.plan.idle_every
        self.idle = self.plan.idle_seat if number == 0 or (every and number % every == 0) else None
        self.seating: Seating | None = None
        self.dealt: set[str] = set()  # the deals answered (each hand's, once)
        self.deal_due = asyncio.Event()  # the lead saw no hand in play: the platform deals
        self.hands_played = self.viewed_at = 0  # as the lead's stream last showed them
        self.autoplayed: int | None = None  # the seat 托管 moves for next, as the lead saw it
        self.done = asyncio.Event()
        self.base = demo.bases[number % len(demo.bases)]  # the API process this table talks to

    @property
    def client(self) -> httpx.AsyncClient:
        """The HTTP client of this table's API process (its seating and its tokens)."""
        return self.demo.clients.get(self.base, self.demo.client)

    async def play(self) -> None:
        # a few at a time (hundreds at once thrash the API), and no table starts before every
        # table is gathered: a started table's timers would run while the rest are seated
        async with self.demo.seating_slots:
            gathered = await gather_players(self.client, self.demo.key, self.room, self.bots)
        await self.demo.all_gathered.wait()
        async with self.demo.seating_slots:
            self.seating = await start_table(self.client, self.demo.key, gathered)
        self.table_id = self.seating.table_id
        if self.idle is not None:
            self.demo.say(watch_line(self.demo.base, self.table_id, self.idle, self.token(self.idle)))
        self.players = [Player(self, seat) for seat in range(4)]
        await asyncio.gather(*(p.run() for p in self.players), self.dealer())

    def token(self, seat: int) -> str:
        assert self.seating is not None
        return self.seating.tokens[seat]

    async def remint(self, seat: int) -> None:
        assert self.seating is not None
        self.seating.tokens[seat] = await mint(self.client, self.demo.key, self.table_id,
                                               seat, self.seating.players[seat])  # fmt: skip

    async def viewed(self, frame: dict[str, Any]) -> None:
        """The lead's stream opened (or reopened) on the table as it is now: the platform deals
        when no hand is being played."""
        view = frame["view"]
        self.hands_played, self.viewed_at = view["hands_played"], frame["version"]
        hand = view.get("hand")
        if hand is None or (hand["step"] == "ended" and not view["waits"]):
            self.deal_due.set()

    async def news(self, item: dict[str, Any]) -> None:
        """An event on the lead seat's stream: printed; a settled hand counted, and the next
        one dealt."""
        if notable(item):
            self.demo.say(line_of(self.table_id, item, self.autoplayed))
        self.autoplayed = autoplaying(item)
        if item["type"] == "hand_settled":
            tally = self.demo.tally
            tally.hands[self.table_id] = tally.hands.get(self.table_id, 0) + 1
            if self.plan.hands is not None and tally.hands[self.table_id] >= self.plan.hands:
                self.done.set()
            if item["version"] > self.viewed_at:  # else the view counted it already
                self.hands_played += 1
            self.deal_due.set()

    async def dealer(self) -> None:
        """The platform's part at the table: deal each next hand the lead's stream shows due,
        again (under the same id) while a deal has no answer yet."""
        while not self.done.is_set():
            due = asyncio.create_task(self.deal_due.wait())
            finished = asyncio.create_task(self.done.wait())
            await asyncio.wait({due, finished}, return_when=asyncio.FIRST_COMPLETED)
            due.cancel()
            finished.cancel()
            if self.done.is_set():
                return
            self.deal_due.clear()
            if not await self.deal(self.hands_played + 1):
                await asyncio.sleep(AGAIN / 2)
                self.deal_due.set()

    async def deal(self, number: int) -> bool:
        """Deal hand ``number`` (once: its id is the table's and the number's); False: the
        deal got no answer yet."""
        command_id = f"{self.table_id}/deal-{number}"
        if command_id in self.dealt:
            return True
        try:
            dealt = await self.demo.client.post(f"{self.base}/v1/tables/{self.table_id}/hands",
                                                headers=platform_headers(self.demo.key, command_id))  # fmt: skip
            outcome = checked(dealt, f"dealing at {self.table_id}", False)
        except TRANSIENT:
            return False
        if outcome.get("status") == "queued":
            return False
        self.dealt.add(command_id)  # accepted, or refused (the lead's stream says why)
        if outcome.get("status") == "accepted" and self.plan.measure:
            self.demo.tally.acknowledge(command_id, self.table_id, outcome)
        return True


class HttpDemo:
    """The demo's platform: its key, its HTTP client, its tables; ``run`` plays them."""

    def __init__(self, base: str, key: str, plan: Plan, out: TextIO | None,
                 stream_timeout: float = 60.0, more: tuple[str, ...] = ()) -> None:  # fmt: skip
        """``more``: other API processes of the same service; tables are spread over them all
        (seating goes through ``base``)."""
        self.base, self.key, self.plan, self.out = base, key, plan, out
        self.bases = (base, *more)
        self.stream_timeout = httpx.Timeout(10.0, read=stream_timeout)
        self.tally = Tally()
        self.tables: list[DemoTable] = []
        self.clients: dict[str, httpx.AsyncClient] = {}  # one per API process

    def say(self, line: str) -> None:
        if self.out is not None:
            print(line, file=self.out, flush=True)

    async def run(self, stop: threading.Event | None = None) -> Tally:
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)
        async with contextlib.AsyncExitStack() as clients:
            for base in self.bases:
                self.clients[base] = await clients.enter_async_context(
                    httpx.AsyncClient(base_url=base, timeout=10.0, limits=limits))
            client = self.client = self.clients[self.base]
            self.seating_slots = asyncio.Semaphore(SEATING_AT_ONCE)
            await wait_for_api(client, 30.0)
            tables = self.tables = [DemoTable(self, n) for n in range(self.plan.tables)]
            self.all_gathered = asyncio.Barrier(len(tables))  # every table gathered: all start
            playing = asyncio.gather(*(t.play() for t in tables))
            try:
                await _until(playing, stop, self.plan.seconds)
            finally:
                for table in tables:
                    table.done.set()
                playing.cancel()
                await asyncio.gather(playing, return_exceptions=True)
                if self.plan.close_at_end:
                    await end_tables(self, tables)
        return self.tally


def watch_line(base: str, table_id: str, seat: int, token: str) -> str:
    return (f"watch {table_id} as its idle seat {seat} (the timers play it; its token may act):\n"
            f"  curl -N '{base}/v1/tables/{table_id}/seats/{seat}/events?access_token={token}'")  # fmt: skip


async def wait_for_api(client: httpx.AsyncClient, seconds: float) -> None:
    """Until the API answers (a service started beside the demo may still be starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            await client.get("/openapi.json")
            return
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise DemoRefused(f"no API answers at {client.base_url} after {seconds:g} s") from None
            await asyncio.sleep(0.2)


async def _until(playing: asyncio.Future[Any], stop: threading.Event | None,
                 seconds: float | None) -> None:  # fmt: skip
    """Until the tables are done, ``stop`` is set, or ``seconds`` have passed."""
    deadline = None if seconds is None else time.monotonic() + seconds
    while not playing.done():
        if stop is not None and stop.is_set():
            return
        if deadline is not None and time.monotonic() >= deadline:
            return
        await asyncio.wait({playing}, timeout=0.2)
    playing.result()  # a refusal of the demo's platform is raised here, with its reason
