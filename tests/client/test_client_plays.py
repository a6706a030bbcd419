"""Issue 25, item 4: the Python client (``services.client``) against the embedded service over
real HTTP: it opens a table, deals, plays a hand to its settlement with one request per move,
answers refusals typed, and resumes a seat's stream after a drop from the last event."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from embedded_kit import embedded_service

from services.client import (
    Accepted,
    ApiProblem,
    AsyncPlatform,
    AsyncSeat,
    EventFrame,
    Platform,
    Refused,
    ViewFrame,
)
from services.demo.seat_bot import choose
from services.serve import Embedded


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Embedded]:
    with embedded_service(tmp_path_factory.mktemp("client"), "client") as embedded:
        yield embedded


@pytest.fixture(scope="module")
def api_key(service: Embedded) -> str:
    assert service.api is not None
    return service.api.ctx.keys.create(["tables", "tokens", "operator"], "the client's tests").token


def players(tag: str) -> tuple[str, str, str, str]:
    return tuple(f"{tag}-{name}-{uuid.uuid4().hex[:6]}" for name in ("ann", "bo", "cy", "di"))  # type: ignore[return-value]


async def play_until_settled(seat: AsyncSeat, rng: random.Random, sent: Counter[str]) -> list[str]:
    """The seat's loop of docs/api.md: follow the stream, answer each choice with one POST."""
    answered, seen = 0, []
    async for frame in seat.stream():
        options = frame.options if isinstance(frame, ViewFrame | EventFrame) else None
        if isinstance(frame, EventFrame):
            seen.append(frame.type)
            if frame.type == "hand_settled":
                return seen
        while options is not None and options.view is not None and options.version > answered:
            answered = options.version
            command = choose(options.view, seat.seat, options.commands, rng)
            if command is None:
                break
            answer = await seat.settled(await seat.send(command, if_match=options.version))
            sent[type(answer).__name__] += 1
            options = answer.options  # after a 碰 the discard is chosen from the answer at once
    return seen


def test_the_async_client_plays_a_hand_to_its_settlement_with_one_request_per_move(
    service: Embedded, api_key: str
) -> None:
    assert service.api is not None
    address = service.api.address
    requests: Counter[str] = Counter()

    async def counted(request: httpx.Request) -> None:
        requests[f"{request.method} {request.url.path.rsplit('/', 1)[-1]}"] += 1

    async def play() -> tuple[list[list[str]], Counter[str]]:
        async with httpx.AsyncClient(base_url=address, timeout=30,
                                     event_hooks={"request": [counted]}) as http:  # fmt: skip
            platform = AsyncPlatform(http, api_key)
            table_id, names = f"client-{uuid.uuid4().hex[:8]}", players("async")
            opened = await platform.open_table(table_id, "harbin", names)
            assert isinstance(opened, Accepted), opened
            seats = [await platform.seat(table_id, s, names[s]) for s in range(4)]
            assert isinstance(await platform.deal(table_id), Accepted)
            sent: Counter[str] = Counter()
            seen = await asyncio.wait_for(asyncio.gather(*(
                play_until_settled(seat, random.Random(f"client/{seat.seat}"), sent)
                for seat in seats)), 120)  # fmt: skip
            return list(seen), sent

    seen, sent = asyncio.run(play())
    assert all(s[-1] == "hand_settled" for s in seen)  # every seat saw its hand to the end
    discards = sum(1 for kind in seen[0] if kind == "tile_discarded")
    assert sent["Accepted"] >= discards > 0
    assert requests["GET view"] == requests["GET legal"] == 0  # never in play
    assert requests["POST commands"] == sum(sent.values())  # one request per move


def test_a_discard_out_of_turn_is_refused_with_its_code_status_and_the_seats_options(
    service: Embedded, api_key: str
) -> None:
    assert service.api is not None
    with httpx.Client(base_url=service.api.address, timeout=30) as http:
        platform = Platform(http, api_key)
        table_id, names = f"client-{uuid.uuid4().hex[:8]}", players("sync")
        assert isinstance(platform.open_table(table_id, "harbin", names), Accepted)
        assert isinstance(platform.deal(table_id), Accepted)
        seats = [platform.seat(table_id, s, names[s]) for s in range(4)]
        waiting = next(s for s in seats if not any(
            c["command"] == "discard_tile" for c in s.options().commands))  # fmt: skip
        version, _ = waiting.view()
        answer = waiting.settled(waiting.send({"command": "discard_tile", "seat": waiting.seat,
                                               "tile": "1m"}, if_match=version))  # fmt: skip
        assert isinstance(answer, Refused), answer
        assert answer.outcome.code == "refused_by_rules" and answer.status == 409
        assert answer.problem_type == "/problems/refused-by-rules"
        assert answer.options is not None and answer.options.version == version
        stale = waiting.settled(waiting.send({"command": "request_autoplay", "seat": waiting.seat},
                                             if_match=version - 1))  # fmt: skip
        assert isinstance(stale, Refused) and (stale.status, stale.outcome.code) == (412, "stale_version")


def test_a_seat_token_used_at_another_seat_raises_the_problem_it_was_answered(
    service: Embedded, api_key: str
) -> None:
    assert service.api is not None
    with httpx.Client(base_url=service.api.address, timeout=30) as http:
        platform = Platform(http, api_key)
        table_id, names = f"client-{uuid.uuid4().hex[:8]}", players("wrong")
        assert isinstance(platform.open_table(table_id, "harbin", names), Accepted)
        seat = platform.seat(table_id, 0, names[0])
        with pytest.raises(ApiProblem) as raised:
            seat.send({"command": "request_autoplay", "seat": 1})
        assert raised.value.status == 403 and "seat" in raised.value.detail
        with pytest.raises(ApiProblem) as unknown:
            platform.seat_token(f"nowhere-{uuid.uuid4().hex[:6]}", 0, names[0])
        assert unknown.value.status == 404 and unknown.value.title


def test_the_stream_resumed_after_a_drop_gives_a_fresh_view_then_only_later_events(
    service: Embedded, api_key: str
) -> None:
    assert service.api is not None
    with httpx.Client(base_url=service.api.address, timeout=30) as http:
        platform = Platform(http, api_key)
        table_id, names = f"client-{uuid.uuid4().hex[:8]}", players("resume")
        assert isinstance(platform.open_table(table_id, "harbin", names), Accepted)
        assert isinstance(platform.deal(table_id), Accepted)
        seat = platform.seat(table_id, 2, names[2])
        first = seat.stream()
        assert isinstance(next(first), ViewFrame)
        before = [next(first) for _ in range(2)]  # the opening and the deal, as history
        first.close()  # dropped here
        assert all(isinstance(f, EventFrame) for f in before)
        assert seat.last_version == before[-1].version  # type: ignore[union-attr]
        again = seat.stream()
        view = next(again)
        assert isinstance(view, ViewFrame) and view.version >= seat.last_version
        later = next(again)
        assert isinstance(later, EventFrame)
        assert later.version == before[-1].version + 1  # type: ignore[union-attr]  # none lost or repeated
        again.close()
