"""One seat of one table, over the API, synchronously (``httpx.Client``); ``AsyncSeat`` in
``seat_async`` is the same for asyncio. One request per move (docs/api.md): follow ``stream()``,
and answer each options that hold a choice with ``send(command, if_match=options.version)``."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

import httpx
from httpx_sse import connect_sse

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


class Seat:
    """A seat's client: ``token`` the seat token its platform minted for it."""

    def __init__(self, http: httpx.Client, table_id: str, seat: int, token: str) -> None:
        self.http, self.table_id, self.seat, self.token = http, table_id, seat, token
        self.last_version = 0
        """The last event the stream gave (``Last-Event-ID`` on a reconnect)."""

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def send(self, command: Command | Mapping[str, Any], *, if_match: int | None = None,
             key: str | None = None, attempts: int = 3) -> Answer:  # fmt: skip
        """Send one command under ``key`` (a fresh one if None) and answer what became of it.
        A dropped connection is retried under the same key, which runs it at most once."""
        key = key or new_key()
        body = command_body(command)
        backoff = Backoff(give_up_after=float("inf"))
        for attempt in range(attempts):
            try:
                request = command_request(self.http, table_path(self.table_id, "commands"),
                                          self.token, body, key, if_match)  # fmt: skip
                return answer_of(self.http.send(request))
            except RETRIED:
                if attempt == attempts - 1:
                    raise
                time.sleep(backoff.failed())
        raise AssertionError("unreachable")  # pragma: no cover

    def outcome(self, command_id: str, wait: float = 5.0) -> Answer:
        """The outcome of a command this seat sent, waiting up to ``wait`` seconds for it."""
        answer = self.http.get(outcome_url(command_id), params={"wait": wait}, headers=self.auth,
                               timeout=wait + 10)  # fmt: skip
        return answer_of(answer)

    def settled(self, answer: Answer, within: float = 30.0) -> Accepted | Refused:
        """``answer`` once it has an outcome: a pending one awaited (``TimeoutError`` after
        ``within`` seconds)."""
        deadline = time.monotonic() + within
        while isinstance(answer, Pending):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"command {answer.command_id!r} has no outcome after {within:g} s")
            answer = self.outcome(answer.command_id, wait=min(left, 10.0))
        return answer

    def view(self) -> tuple[int, dict[str, Any]]:
        """The seat's view now, and the version it shows (for a resync, not in play)."""
        answer = self.http.get(table_path(self.table_id, "view"), headers=self.auth)
        if answer.status_code != 200:
            raise problem_of(answer)
        return int(answer.headers["etag"].strip('W/"')), answer.json()

    def options(self) -> SeatOptions:
        """The seat's legal commands now (for a resync: in play they come on the stream)."""
        answer = self.http.get(seat_path(self.table_id, self.seat, "legal"), headers=self.auth)
        if answer.status_code != 200:
            raise problem_of(answer)
        return SeatOptions(version=int(answer.headers["etag"].strip('W/"')),
                           commands=answer.json()["commands"])  # fmt: skip

    def stream(self, after: int | None = None, *, give_up_after: float = 120.0) -> Iterator[Frame]:
        """The seat's frames for as long as the caller reads them. After a drop it reopens
        from the last event given (the store is the replay buffer: nothing lost, nothing
        repeated; a fresh ``ViewFrame`` comes first), backing off between tries, and raises
        ``StreamGivenUp`` once it could not for ``give_up_after`` seconds in a row. A refusal
        to open it (401 for an expired token, 403, 404) raises ``ApiProblem`` at once."""
        if after is not None:
            self.last_version = after
        backoff = Backoff(give_up_after=give_up_after)
        url = seat_path(self.table_id, self.seat, "events")
        while True:
            retry_after, why = None, ""
            headers = self.auth | ({"Last-Event-ID": str(self.last_version)} if self.last_version else {})
            try:
                with connect_sse(self.http, "GET", url, headers=headers, timeout=None) as source:
                    if source.response.status_code != 200:
                        source.response.read()
                        problem = problem_of(source.response)
                        if problem.status not in (429, 503):
                            raise problem
                        retry_after, why = problem.retry_after, str(problem)
                    else:
                        backoff.succeeded()
                        for sse in source.iter_sse():
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
            time.sleep(wait)



