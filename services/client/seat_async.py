"""``Seat`` for asyncio (``httpx.AsyncClient``): the same calls, awaited; ``stream()`` an
async iterator. What each call does is said on ``services.client.seat.Seat``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
from httpx_sse import aconnect_sse

from services.api.wire import outcome_url
from services.client.answers import Accepted, Answer, Pending, Refused, answer_of, problem_of
from services.client.calls import (
    RETRIED,
    Backoff,
    StreamGivenUp,
    command_body,
    command_request,
    new_key,
    seat_path,
    table_path,
)
from services.client.frames import EventFrame, Frame, frame_of
from services.rules.table.commands import Command
from services.tables.options import SeatOptions


class AsyncSeat:
    def __init__(self, http: httpx.AsyncClient, table_id: str, seat: int, token: str) -> None:
        self.http, self.table_id, self.seat, self.token = http, table_id, seat, token
        self.last_version = 0

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def send(self, command: Command | Mapping[str, Any], *, if_match: int | None = None,
                   key: str | None = None, attempts: int = 3) -> Answer:  # fmt: skip
        key = key or new_key()
        body = command_body(command)
        backoff = Backoff(give_up_after=float("inf"))
        for attempt in range(attempts):
            try:
                request = command_request(self.http, table_path(self.table_id, "commands"),
                                          self.token, body, key, if_match)  # fmt: skip
                return answer_of(await self.http.send(request))
            except RETRIED:
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(backoff.failed())
        raise AssertionError("unreachable")  # pragma: no cover

    async def outcome(self, command_id: str, wait: float = 5.0) -> Answer:
        answer = await self.http.get(outcome_url(command_id), params={"wait": wait},
                                     headers=self.auth, timeout=wait + 10)  # fmt: skip
        return answer_of(answer)

    async def settled(self, answer: Answer, within: float = 30.0) -> Accepted | Refused:
        deadline = time.monotonic() + within
        while isinstance(answer, Pending):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"command {answer.command_id!r} has no outcome after {within:g} s")
            answer = await self.outcome(answer.command_id, wait=min(left, 10.0))
        return answer

    async def view(self) -> tuple[int, dict[str, Any]]:
        answer = await self.http.get(table_path(self.table_id, "view"), headers=self.auth)
        if answer.status_code != 200:
            raise problem_of(answer)
        return int(answer.headers["etag"].strip('W/"')), answer.json()

    async def options(self) -> SeatOptions:
        answer = await self.http.get(seat_path(self.table_id, self.seat, "legal"), headers=self.auth)
        if answer.status_code != 200:
            raise problem_of(answer)
        return SeatOptions(version=int(answer.headers["etag"].strip('W/"')),
                           commands=answer.json()["commands"])  # fmt: skip

    async def stream(self, after: int | None = None, *, give_up_after: float = 120.0,
                     ) -> AsyncIterator[Frame]:  # fmt: skip
        if after is not None:
            self.last_version = after
        backoff = Backoff(give_up_after=give_up_after)
        url = seat_path(self.table_id, self.seat, "events")
        while True:
            retry_after, why = None, ""
            headers = self.auth | ({"Last-Event-ID": str(self.last_version)} if self.last_version else {})
            try:
                async with aconnect_sse(self.http, "GET", url, headers=headers, timeout=None) as source:
                    if source.response.status_code != 200:
                        await source.response.aread()
                        problem = problem_of(source.response)
                        if problem.status not in (429, 503):
                            raise problem
                        retry_after, why = problem.retry_after, str(problem)
                    else:
                        backoff.succeeded()
                        async for sse in source.aiter_sse():
                            frame = frame_of(sse.event, sse.data, sse.id or None)
                            if isinstance(frame, EventFrame):
                                self.last_version = frame.version
                            yield frame
                        why = "the server ended the stream"
            except (httpx.TransportError, httpx.StreamError) as error:
                why = str(error) or type(error).__name__
            wait = backoff.failed(retry_after)
            if backoff.given_up:
                raise StreamGivenUp(f"the stream of seat {self.seat} at {self.table_id} could not "
                                    f"be opened for {give_up_after:g} s: {why}")  # fmt: skip
            await asyncio.sleep(wait)
