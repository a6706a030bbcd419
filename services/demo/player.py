"""A demo bot at one seat, playing with one request per move, as a platform's client would.

Its seat's live stream tells it everything it acts on: the ``view`` frame it opens with, then,
on the last event of each delivery, the seat's ``options`` (legal commands, the version to
send as ``If-Match``, the deadline, and the seat's view when it has a choice to make). When
the options hold a choice, the bot chooses (``seat_bot``), thinks a moment (the plan's pace,
with jitter) and posts the command under an ``Idempotency-Key`` made of the table, the version
it answers and the seat. The answer carries its next options (after a 碰 the discard is chosen
at once, before the stream shows the claim). It never reads ``GET …/view`` or ``GET …/legal``.
A command that lost a race is refused with the options at the newer version, and answered.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import httpx

from services.client.calls import Backoff
from services.demo.seat_bot import choose
from services.demo.seating import DemoRefused, TryLater, checked

if TYPE_CHECKING:
    from services.demo.http_demo import DemoTable

STREAM_GIVEN_UP = 120.0  # a seat's stream not opened for this long in a row is given up
STREAM_BACKOFF_CAP = 4.0  # seconds at most between two tries to open a seat's stream
AGAIN = 2.0  # seconds before a step with no answer yet (queued, busy, dropped) is looked at again
TRANSIENT = (httpx.TransportError, TryLater)


class Player:
    """A bot at one seat: its stream in one task, its moves in another, woken by each offer."""

    def __init__(self, table: DemoTable, seat: int) -> None:
        self.table, self.seat, self.demo = table, seat, table.demo
        self.version = 0  # the last event the seat's stream gave (its id)
        self.offered: dict[str, Any] | None = None  # the newest options with a choice in them
        self.answered = 0  # the version of the last options a command answered (once each)
        self.woken = asyncio.Event()
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
        backoff, why = Backoff(cap=STREAM_BACKOFF_CAP, give_up_after=STREAM_GIVEN_UP, rng=self.rng), ""
        while not backoff.given_up:
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
                    if backoff.failing_since is not None:
                        self.reopened()
                    backoff.succeeded()
                    async for item in server_sent_events(response):
                        await self.heard(item)
            except (httpx.TransportError, httpx.StreamError, TryLater) as error:
                why = str(error) or type(error).__name__  # dropped: resumed from self.version
                wait = error.retry_after if isinstance(error, TryLater) else None
            await asyncio.sleep(backoff.failed(wait))
        raise DemoRefused(f"the stream of seat {self.seat} at {self.table.table_id} could not be "
                          f"opened for {STREAM_GIVEN_UP:g} s: {why}")  # fmt: skip

    def reopened(self) -> None:
        """The stream is open again after a drop (counted, for the fault runs' recovery times;
        a seat whose request failed with the API tries again by itself, ``again``)."""
        if self.table.plan.measure:
            self.demo.tally.reopened.setdefault(self.table.base, []).append(time.perf_counter())

    async def heard(self, sse: dict[str, Any]) -> None:
        lead = self.seat == self.table.plan.lead
        if sse.get("event") == "view":  # the stream's first frame: the table now
            if lead:
                await self.table.viewed(sse["data"])
            self.offer(sse["data"]["options"])
            return
        if sse.get("id") is None:
            return  # a refusal of this seat's command: its answer brought the options
        item = sse["data"]
        self.version = int(sse["id"])
        if self.table.plan.measure:
            self.demo.tally.seen_at.setdefault((self.table.table_id, self.version, self.seat),
                                               time.perf_counter())  # fmt: skip
        if lead:
            await self.table.news(item)
        if "options" in item:
            self.offer(item["options"])

    def offer(self, options: dict[str, Any] | None) -> None:
        """Options the seat was given: kept, and the seat woken, when they hold a choice it has
        not answered yet (the stream and a command's answer may bring the same ones twice)."""
        if options is None or "view" not in options or options["version"] <= self.answered:
            return
        if self.offered is None or options["version"] >= self.offered["version"]:
            self.offered = options
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
            offered = self.offered
            if offered is None or offered["version"] <= self.answered:
                continue
            try:
                await self.move(offered)
            except TRANSIENT:  # busy or dropped: this seat takes the step again soon
                self.again()

    def again(self, seconds: float = AGAIN) -> None:
        """Wake this seat after ``seconds``: a step that got no answer yet (a command queued, a
        worker gone) is taken again, under the same id, so it happens once."""
        asyncio.get_running_loop().call_later(seconds, self.woken.set)

    def thinking_time(self) -> float:
        """A player's moment before a move: the plan's pace, give or take its jitter."""
        plan = self.table.plan
        return max(0.0, plan.pace + self.rng.uniform(-plan.jitter, plan.jitter)) if plan.pace else 0.0

    async def think(self) -> None:
        seconds = self.thinking_time()
        if seconds:
            await asyncio.sleep(seconds)

    async def move(self, offered: dict[str, Any]) -> None:
        """Choose among the offered commands and post one, guarded by the version they are
        legal at; the answer's options are the next offer."""
        client, table_id, version = self.demo.client, self.table.table_id, offered["version"]
        command = choose(offered["view"], self.seat, offered["commands"], self.rng)
        if command is None:
            self.answered = max(self.answered, version)
            return
        command_id = f"{table_id}/v{version}/s{self.seat}"
        if self.last_sent is None or self.last_sent[0] != command_id:
            await self.think()  # a step taken again is not thought over twice
        command = self.once(command_id, command)
        tally = self.demo.tally
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
            return
        self.answered = max(self.answered, version)
        if outcome.get("status") == "accepted":
            tally.accepted += 1
            if self.table.plan.measure:
                if move:  # its first event is version + 1: the latency is measured
                    tally.posted_at[(table_id, version, self.seat)] = posted
                accepted = time.perf_counter()
                tally.accepted_at.append(accepted)
                tally.by_api.setdefault(self.table.base, []).append(accepted)
                tally.acknowledge(command_id, table_id, outcome)
        elif outcome.get("status") == "refused":
            tally.refused += 1  # the table moved on (a timer, a claim): the options say where
            tally.refusals[str(outcome.get("code"))] += 1
        self.offer(outcome.get("options"))

    def once(self, command_id: str, command: dict[str, Any]) -> dict[str, Any]:
        """The command to send under ``command_id``: a step taken again (its 202 unanswered, a
        worker gone) resends what it sent the first time, since the bot may have chosen another
        tile this time and an id names one request (the API refuses it with 422 otherwise)."""
        if self.last_sent is not None and self.last_sent[0] == command_id:
            return self.last_sent[1]
        self.last_sent = (command_id, command)
        return command


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
