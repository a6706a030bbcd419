"""``paiju demo``: bot players at a few tables, played over HTTP exactly as a platform would.

With a platform API key the demo seats four bot players at each table through a room of its
own, one per variant (``seating``: set up, granted, joined, ready, started), each with its own
seat token; every player opens its seat's live stream (server-sent events,
resumed from ``Last-Event-ID`` after a drop) and, woken by each event, reads its own view and,
when the table waits on it, its legal commands, chooses (``seat_bot``) and posts the command
with an ``Idempotency-Key`` made of the table, the version it answers and the seat, and
``If-Match`` that version: a command that lost a race is refused and answered by the next
event. The platform deals each next hand once the last is settled. One seat at the first table
never moves, so the turn timers play it (超时托管). Nothing here touches the store or the engine:
only the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, TextIO

import httpx

from services.demo.lines import line_of, notable
from services.demo.seat_bot import choose
from services.demo.seating import (
    DemoRefused,
    RoomPlan,
    Seating,
    TryLater,
    checked,
    gather_players,
    mint,
    platform_headers,
    start_table,
)

SEATS = ("east", "south", "west", "north")  # the bots are bot-east-<run>-<table>, ...
VARIANTS = ("harbin", "shanghai", "tanggu", "shandong", "mudanjiang")
TIMING = {"turn": 5, "claim": 3}  # watchable: an idle seat holds its table 5 s, then 3 s
MINIMUM_POINTS = 100  # each demo room's minimum 积分: the platform grants its new bots as much
STREAM_GIVEN_UP = 120.0  # a seat's stream not opened for this long in a row is given up
STREAM_BACKOFF_CAP = 4.0  # seconds at most between two tries to open a seat's stream
AGAIN = 2.0  # seconds before a step with no answer yet (queued, busy, dropped) is looked at again
SEATING_AT_ONCE = 16  # tables seated at the same time
TRANSIENT = (httpx.TransportError, TryLater)


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
    pace: float = 0.3
    seed: int = 7
    lead: int = 0  # the seat whose stream is printed and on whose news the platform deals
    measure: bool = False  # keep each move's POST and event times (the benchmarks)
    minimum_points: int = MINIMUM_POINTS
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:6])

    def room(self, number: int) -> RoomPlan:
        """The room of the demo's table ``number`` (from 0): a room per variant, and more of
        each variant's when there are more tables than variants."""
        variant = VARIANTS[number % len(VARIANTS)]
        again = number // len(VARIANTS)
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
        self.dealt: set[str] = set()
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
        await asyncio.gather(*(p.run() for p in self.players))

    def call_on(self, seats: list[int], version: int) -> None:
        """The lead saw the table wait on these seats (a turn is public in every view; a claim
        window's asked seats are not, so it calls on all that might be): each one looks at its
        own view and legal commands and moves (the others need not read the table)."""
        for seat in seats:
            player = self.players[seat]
            if seat != self.plan.lead and seat != self.idle:
                player.called_at = max(player.called_at, version)
                player.woken.set()

    def token(self, seat: int) -> str:
        assert self.seating is not None
        return self.seating.tokens[seat]

    async def remint(self, seat: int) -> None:
        assert self.seating is not None
        self.seating.tokens[seat] = await mint(self.client, self.demo.key, self.table_id,
                                               seat, self.seating.players[seat])  # fmt: skip

    async def news(self, item: dict[str, Any]) -> None:
        """An event on the lead seat's stream: printed; a settled hand counted."""
        if notable(item):
            self.demo.say(line_of(self.table_id, item))
        if item["type"] == "hand_settled":
            tally = self.demo.tally
            tally.hands[self.table_id] = tally.hands.get(self.table_id, 0) + 1
            if self.plan.hands is not None and tally.hands[self.table_id] >= self.plan.hands:
                self.done.set()

    async def maybe_deal(self, view: dict[str, Any]) -> bool:
        """The platform deals the next hand when none is being played (and more are wanted);
        False: a deal got no answer yet, to be looked at again."""
        hand = view.get("hand")
        if self.done.is_set() or (hand is not None and (hand["step"] != "ended" or view["waits"])):
            return True
        command_id = f"{self.table_id}/deal-{view['hands_played'] + 1}"
        if command_id in self.dealt:
            return True
        self.dealt.add(command_id)
        try:
            dealt = await self.demo.client.post(f"{self.base}/v1/tables/{self.table_id}/hands",
                                                headers=platform_headers(self.demo.key, command_id))  # fmt: skip
            outcome = checked(dealt, f"dealing at {self.table_id}", False)
            status = outcome.get("status")
        except TRANSIENT:
            status = "queued"
        if status == "accepted":
            if self.plan.measure:
                self.demo.tally.acknowledge(command_id, self.table_id, outcome)
            return True
        # refused (said on the stream) or not done yet: sent again later, under the same id
        asyncio.get_running_loop().call_later(AGAIN / 2, self.dealt.discard, command_id)
        return False


class Player:
    """A bot at one seat: its stream in one task, its moves in another, woken by each event."""

    def __init__(self, table: DemoTable, seat: int) -> None:
        self.table, self.seat, self.demo = table, seat, table.demo
        self.version = 0  # the last event the seat's stream gave (its id)
        self.called_at = 0  # the version at which the lead last saw the table wait on this seat
        self.woken = asyncio.Event()
        self.etag = 0  # the table's version of the last answer read (its ETag)
        self.last_sent: tuple[str, dict[str, Any]] | None = None  # a resend repeats its command
        self.rng = random.Random(f"{table.plan.seed}/{table.table_id}/{seat}")

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.table.token(self.seat)}"}

    async def run(self) -> None:
        listening = asyncio.create_task(self.listen())
        acting = asyncio.create_task(self.play() if self.seat != self.table.idle else self.table.done.wait())
        try:
            await asyncio.wait({listening, acting}, return_when=asyncio.FIRST_COMPLETED)
            if listening.done():
                listening.result()  # the stream was given up: raised, saying why
            await acting
        finally:
            listening.cancel()
            acting.cancel()

    async def listen(self) -> None:
        """Follow the seat's stream; after a drop, resume from the last event it gave. A
        stream that cannot be opened is tried again, each time a little later (with jitter:
        the hundreds of streams of an API that restarts do not all come back at once), and
        given up only once it has failed for ``STREAM_GIVEN_UP`` seconds in a row."""
        url = f"{self.table.base}/v1/tables/{self.table.table_id}/seats/{self.seat}/events"
        self.woken.set()  # look at the table once before any event comes (the lead: each one)
        failing_since, tries, why = None, 0, ""
        while failing_since is None or time.monotonic() - failing_since < STREAM_GIVEN_UP:
            headers = self.headers() | ({"Last-Event-ID": str(self.version)} if self.version else {})
            wait = None
            try:
                async with self.demo.client.stream("GET", url, headers=headers,
                                                   timeout=self.demo.stream_timeout) as response:  # fmt: skip
                    if response.status_code == 401:
                        await self.table.remint(self.seat)
                        continue
                    if response.status_code != 200:
                        await response.aread()
                        checked(response, f"the stream of seat {self.seat} at {self.table.table_id}")
                    if failing_since is not None:
                        self.reopened()
                    failing_since, tries = None, 0
                    async for item in server_sent_events(response):
                        await self.heard(item)
            except (httpx.TransportError, httpx.StreamError, TryLater) as error:
                why = str(error) or type(error).__name__  # dropped: resumed from self.version
                wait = error.retry_after if isinstance(error, TryLater) else None
            failing_since = failing_since or time.monotonic()
            tries += 1
            backoff = min(STREAM_BACKOFF_CAP, 0.2 * 2 ** min(tries - 1, 5)) * self.rng.uniform(0.5, 1.0)
            await asyncio.sleep(backoff if wait is None else wait)
        raise DemoRefused(f"the stream of seat {self.seat} at {self.table.table_id} could not be "
                          f"opened for {STREAM_GIVEN_UP:g} s: {why}")  # fmt: skip

    def reopened(self) -> None:
        """The stream is open again after a drop (counted, for the fault runs' recovery times;
        a seat whose request failed with the API tries again by itself, ``again``)."""
        if self.table.plan.measure:
            self.demo.tally.reopened.setdefault(self.table.base, []).append(time.perf_counter())

    async def heard(self, sse: dict[str, Any]) -> None:
        if sse.get("id") is None:
            return  # a refusal of this seat's command: the next event answers it
        item = sse["data"]
        self.version = int(sse["id"])
        if self.table.plan.measure:
            self.demo.tally.seen_at.setdefault((self.table.table_id, self.version, self.seat),
                                               time.perf_counter())  # fmt: skip
        if self.seat == self.table.plan.lead:
            await self.table.news(item)
            self.woken.set()

    async def play(self) -> None:
        while not self.table.done.is_set():
            woken = asyncio.create_task(self.woken.wait())
            finished = asyncio.create_task(self.table.done.wait())
            await asyncio.wait({woken, finished}, return_when=asyncio.FIRST_COMPLETED)
            woken.cancel()
            finished.cancel()
            if self.table.done.is_set():
                return
            self.woken.clear()
            try:
                await self.move()
            except TRANSIENT:  # busy or dropped: this seat looks at the table again soon
                self.again()

    def again(self, seconds: float = AGAIN) -> None:
        """Wake this seat after ``seconds``: a step that got no answer yet (a command queued, a
        deal lost with a worker) is taken again, under the same id, so it happens once."""
        asyncio.get_running_loop().call_later(seconds, self.woken.set)

    async def move(self) -> None:
        """Look at the table as this seat; act when it waits on this seat. The lead looks on
        every event of its stream, deals between hands and calls on the seats awaited."""
        client, table_id = self.demo.client, self.table.table_id
        version = max(self.version, self.called_at)
        view = await self.get(f"/v1/tables/{table_id}/view")
        if view is None:
            return
        awaited = [s for wait in view["waits"] for s in wait["seats"]]
        if self.seat == self.table.plan.lead:
            if not await self.table.maybe_deal(view):
                self.again()
            self.table.call_on(called(view), version)
        if self.seat not in awaited:
            return
        legal = await self.get(f"/v1/tables/{table_id}/seats/{self.seat}/legal")
        command = None if legal is None else choose(view, self.seat, legal["commands"], self.rng)
        if command is None:
            return
        version = max(version, self.etag)  # the version the commands are legal at
        if self.table.plan.pace:
            await asyncio.sleep(self.table.plan.pace)  # a player thinks; people can follow
        tally = self.demo.tally
        command_id = f"{table_id}/v{version}/s{self.seat}"
        command = self.once(command_id, command)
        tally.sent += 1
        # a move answers the table at one version; taking the seat back (取消托管) is not a
        # move, and under 托管 the table moves on every second: it goes unguarded
        move = command["command"] != "cancel_autoplay"
        guard = {"If-Match": f'"{version}"'} if move else {}
        posted = time.perf_counter()
        answer = await client.post(f"{self.table.base}/v1/tables/{table_id}/commands", json=command,
                                   headers=self.headers() | {"Idempotency-Key": command_id} | guard)  # fmt: skip
        if answer.status_code == 401:
            await self.table.remint(self.seat)
            self.woken.set()
            return
        outcome = checked(answer, f"seat {self.seat}'s {command['command']} at {table_id}", False)
        if outcome.get("status") == "queued":
            self.again()  # not run yet (a worker busy or gone): the same id again if nothing moved
        elif outcome.get("status") == "accepted":
            tally.accepted += 1
            if self.table.plan.measure:
                if move:  # its first event is version + 1: the latency is measured
                    tally.posted_at[(table_id, version, self.seat)] = posted
                accepted = time.perf_counter()
                tally.accepted_at.append(accepted)
                tally.by_api.setdefault(self.table.base, []).append(accepted)
                tally.acknowledge(command_id, table_id, outcome)
        elif outcome.get("status") == "refused":
            tally.refused += 1  # the table moved on (a timer, a claim): the next event says how
            tally.refusals[str(outcome.get("code"))] += 1

    def once(self, command_id: str, command: dict[str, Any]) -> dict[str, Any]:
        """The command to send under ``command_id``: a step taken again (its 202 unanswered, a
        worker gone) resends what it sent the first time, since the bot may have chosen another
        tile this time and an id names one request (the API refuses it with 422 otherwise)."""
        if self.last_sent is not None and self.last_sent[0] == command_id:
            return self.last_sent[1]
        self.last_sent = (command_id, command)
        return command

    async def get(self, path: str) -> dict[str, Any] | None:
        answer = await self.demo.client.get(f"{self.table.base}{path}", headers=self.headers())
        if answer.status_code == 401:
            await self.table.remint(self.seat)
            self.woken.set()
            return None
        body = checked(answer, f"GET {path}")
        self.etag = _version_of(answer.headers.get("ETag"))
        return body


def called(view: dict[str, Any]) -> list[int]:
    """The seats the lead calls on: those the table waits on, and on a claim window (whose
    asked seats a view does not name but the viewer's own) every seat but the discarder."""
    seats = {s for wait in view["waits"] for s in wait["seats"]}
    window = (view.get("hand") or {}).get("window")
    if window is not None and any(w["wait"] == "claim" for w in view["waits"]):
        seats |= {s for s in range(4) if s != window["from_seat"]}
    return sorted(seats)


async def server_sent_events(response: httpx.Response) -> AsyncIterator[dict[str, Any]]:
    """Each event of a text/event-stream answer as ``{"id", "event", "data"}`` (comments,
    the heartbeats, are skipped)."""
    current: dict[str, Any] = {}
    async for line in response.aiter_lines():
        if line.startswith(":"):
            continue
        if line == "":
            if "data" in current:
                yield current
            current = {}
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            current["data"] = json.loads(value)
        elif name in ("id", "event"):
            current[name] = value


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
        return self.tally


def _version_of(etag: str | None) -> int:
    """``"12"`` -> 12; 0 for none (an API before ETags: the stream's version is used)."""
    try:
        return int((etag or "").strip('W/"'))
    except ValueError:
        return 0


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
