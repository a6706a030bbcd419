"""A Python client of the platform API (httpx; sync and asyncio), typed from the models the
server answers with (``services.api.wire``, ``events.outcomes``, the engine's commands).

    with httpx.Client(base_url="http://127.0.0.1:8080") as http:
        platform = Platform(http, api_key)
        platform.open_table("t1", "harbin", ("ann", "bo", "cy", "di"))
        platform.deal("t1")
        seat = platform.seat("t1", 0, "ann")
        for frame in seat.stream():           # resumes after a drop, with back-off
            options = frame.options
            if options and options.view:      # a choice to make: one request per move
                answer = seat.send(options.commands[0], if_match=options.version)

A command's answer is ``Accepted``, ``Refused`` (the outcome's ``code`` says why; its HTTP
status too) or ``Pending`` (await it with ``settled``); any other refusal raises
``ApiProblem`` (RFC 9457: status, type, title, detail). docs/client.md has more.
"""

from services.client.answers import Accepted, Answer, ApiProblem, Pending, Refused
from services.client.calls import StreamGivenUp
from services.client.frames import EventFrame, Frame, RefusalFrame, ViewFrame
from services.client.platform import AsyncPlatform, Platform
from services.client.seat import Seat
from services.client.seat_async import AsyncSeat

__all__ = [
    "Accepted", "Answer", "ApiProblem", "AsyncPlatform", "AsyncSeat", "EventFrame", "Frame",
    "Pending", "Platform", "Refused", "RefusalFrame", "Seat", "StreamGivenUp", "ViewFrame",
]  # fmt: skip
