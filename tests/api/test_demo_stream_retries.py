"""A demo seat's live stream when its API process is gone: tried again with back-off, and given
up, saying why, only after failing for a while (an API killed and restarted comes back within
seconds; a stream that gave up after a few tries left its table with no one listening)."""

from __future__ import annotations

import asyncio
import socket
import time

import httpx
import pytest

from services.demo import player
from services.demo.http_demo import DemoTable, HttpDemo, Plan
from services.demo.player import Player
from services.demo.seating import DemoRefused, Seating


def a_port_nothing_listens_on() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def listen_at_a_gone_api(base: str) -> tuple[float, int]:
    demo = HttpDemo(base, "no-key", Plan(tables=1), None)
    tries = 0

    async def count(request: httpx.Request) -> None:
        nonlocal tries
        tries += 1

    async with httpx.AsyncClient(event_hooks={"request": [count]}) as client:
        demo.client = client
        table = DemoTable(demo, 0)
        table.table_id = "gone.1"
        table.seating = Seating("gone.1", table.bots, ["token"] * 4)
        started = time.monotonic()
        with pytest.raises(DemoRefused) as refused:
            await Player(table, 1).listen()
    assert "the stream of seat 1 at gone.1 could not be opened for 1.5 s: " in str(refused.value)
    return time.monotonic() - started, tries


def test_a_seat_stream_whose_api_is_gone_is_tried_again_with_back_off_then_given_up_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(player, "STREAM_GIVEN_UP", 1.5)
    elapsed, tries = asyncio.run(listen_at_a_gone_api(f"http://127.0.0.1:{a_port_nothing_listens_on()}"))
    assert elapsed >= 1.5  # not given up at the first refusal
    # backing off (0.2 s doubling, times 0.5-1.0): a few tries, not one every 0.2 s
    assert 3 <= tries <= 6, tries
