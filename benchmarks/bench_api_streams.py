"""400 open streams on one API process: its memory and CPU while idle, and the fan-out of one
event to every stream (by hand).

The service as processes on a private Redis and a PostgreSQL schema of its own: one ``paiju
api`` and one ``paiju worker``. Two layouts, each run on a fresh service:

- **one table**: ``--streams`` streams on one table (a quarter per seat, each seat's own token:
  a seat watched from many devices, the most one event can fan out to);
- **spread**: one stream per seat at ``--streams / 4`` tables; the moves are made at one of
  them, so 4 streams receive each event while every other stream is still woken (the API
  process has one wake-up for all its streams) and re-reads its table.

The streams are opened after the deal (``Last-Event-ID`` = the table's version), then the API
is left idle for ``--idle`` seconds (RSS before the streams, after, CPU over the idle time).
Then ``--moves`` moves, one at a time, each posted with ``If-Match: v``: its first event is
``v + 1``, and each receiving stream's latency is from just before the POST to that event
arriving. Per move: the median over its receivers and the last receiver (all received); the
figures are the medians and the worst of those over the moves.

    .venv/bin/python benchmarks/bench_api_streams.py [--streams 400] [--idle 30] [--moves 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from bench_api_kit import cpu_seconds, rss_mib, service
from bench_timers import percentile

from services.demo.player import server_sent_events
from services.demo.seat_bot import choose
from services.demo.seating import checked, platform_headers
from services.tables.options import ALWAYS_OPEN

PLAYERS = ("ann", "bo", "cy", "di")


@dataclass
class Watched:
    table_id: str
    tokens: list[str]
    version: int = 0
    arrivals: list[dict[int, float]] = field(default_factory=list)  # one per stream of the table


async def open_table(client: httpx.AsyncClient, key: str, table_id: str) -> Watched:
    players = [f"{p}-{table_id}" for p in PLAYERS]  # a player sits at one table (decision 18)
    body = {"table_id": table_id, "variant": "harbin", "players": players,
            "timing": {"turn": 600, "claim": 600}}  # fmt: skip
    checked(await client.post("/v1/tables", json=body, headers=platform_headers(key, f"{table_id}/open")), "open")
    dealt = checked(await client.post(f"/v1/tables/{table_id}/hands",
                                      headers=platform_headers(key, f"{table_id}/deal-1")), "deal")  # fmt: skip
    tokens = [checked(await client.post(f"/v1/tables/{table_id}/seats/{s}/tokens", headers=platform_headers(key),
                                        json={"player": p}), "mint")["token"] for s, p in enumerate(players)]  # fmt: skip
    return Watched(table_id, tokens, dealt["last_version"])


async def follow(client: httpx.AsyncClient, table: Watched, seat: int, opened: asyncio.Event,
                 count: list[int], total: int) -> None:  # fmt: skip
    arrivals: dict[int, float] = {}
    table.arrivals.append(arrivals)
    headers = {"Authorization": f"Bearer {table.tokens[seat]}", "Last-Event-ID": str(table.version)}
    async with client.stream("GET", f"/v1/tables/{table.table_id}/seats/{seat}/events", headers=headers,
                             timeout=httpx.Timeout(30, read=None)) as response:  # fmt: skip
        assert response.status_code == 200, await response.aread()
        count[0] += 1
        if count[0] == total:
            opened.set()
        async for item in server_sent_events(response):
            if item.get("id") is not None:
                arrivals.setdefault(int(item["id"]), time.perf_counter())


async def one_move(client: httpx.AsyncClient, key: str, table: Watched, rng: random.Random) -> float:
    """Post the next move of ``table`` (or deal, between hands); the POST's start time, and the
    version its first event will have."""
    auth = [{"Authorization": f"Bearer {t}"} for t in table.tokens]
    # the seat with a choice (a claim window names only the asked seat itself, so each seat
    # looks at its own options: seat 0's view alone took a window it was not asked in for a
    # hand's end, and dealt)
    for seat in range(4):
        legal = checked(await client.get(f"/v1/tables/{table.table_id}/seats/{seat}/legal", headers=auth[seat]), "legal")
        if any(c["command"] not in ALWAYS_OPEN for c in legal["commands"]):
            break
    else:  # the hand is over: the platform deals (timed like a move)
        view = checked(await client.get(f"/v1/tables/{table.table_id}/view", headers=auth[0]), "view")
        started = time.perf_counter()
        dealt = checked(await client.post(f"/v1/tables/{table.table_id}/hands", headers=platform_headers(
            key, f"{table.table_id}/deal-{view['hands_played'] + 1}")), "deal")  # fmt: skip
        table.version = dealt["last_version"]
        return started
    view = checked(await client.get(f"/v1/tables/{table.table_id}/view", headers=auth[seat]), "view")
    command = choose(view, seat, legal["commands"], rng)
    assert command is not None
    started = time.perf_counter()
    answer = checked(await client.post(
        f"/v1/tables/{table.table_id}/commands", json=command,
        headers=auth[seat] | {"Idempotency-Key": f"{table.table_id}/v{table.version}/s{seat}",
                              "If-Match": f'"{table.version}"'}), "move")  # fmt: skip
    assert answer["status"] == "accepted", answer
    table.version = answer["last_version"]
    return started


async def run(layout: str, streams: int, idle: float, moves: int) -> dict[str, Any]:
    # 100 streams a seat: a seat watched from many devices opens more than its 30 a minute
    wide_open = {"PAIJU_API_RATE_LIMIT_STREAM_CONNECTS": "1000/second", "PAIJU_API_MAX_STREAMS": "100"}
    with service(workers=1, concurrency=1, extra_env=wide_open, timekeeper=False) as running:
        api_pid = running.pids["api"]
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=32)
        async with httpx.AsyncClient(base_url=running.api, timeout=30, limits=limits) as client:
            count = streams // 4 if layout == "spread" else 1
            tables = [await open_table(client, running.key, f"fan-{layout}-{n}") for n in range(count)]
            rss_before = rss_mib(api_pid)
            opened, opened_count = asyncio.Event(), [0]
            per_seat = streams // (4 * count)
            tasks = [asyncio.create_task(follow(client, table, seat, opened, opened_count, streams))
                     for table in tables for seat in range(4) for _ in range(per_seat)]  # fmt: skip
            await asyncio.wait_for(opened.wait(), 120)
            await asyncio.sleep(2)
            rss_open, cpu_start = rss_mib(api_pid), cpu_seconds(api_pid)
            await asyncio.sleep(idle)
            idle_cpu = (cpu_seconds(api_pid) - cpu_start) / idle
            rss_idle = rss_mib(api_pid)
            played, rng = tables[0], random.Random(7)
            medians, lasts = [], []
            for _ in range(moves):
                before = played.version
                started = await one_move(client, running.key, played, rng)
                wanted = before + 1
                deadline = time.monotonic() + 20
                while any(wanted not in a for a in played.arrivals) and time.monotonic() < deadline:
                    await asyncio.sleep(0.005)
                got = [a[wanted] - started for a in played.arrivals if wanted in a]
                assert len(got) == len(played.arrivals), f"{len(got)} of {len(played.arrivals)} streams got v{wanted}"
                medians.append(statistics.median(got) * 1000)
                lasts.append(max(got) * 1000)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
    return {"layout": layout, "tables": count, "streams": streams,
            "rss_before": rss_before, "rss_open": rss_open, "rss_idle": rss_idle, "idle_cpu": idle_cpu,
            "receivers": len(played.arrivals), "medians": medians, "lasts": lasts}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=400)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--layouts", default="one,spread")
    args = parser.parse_args()
    for layout in args.layouts.split(","):
        r = asyncio.run(run(layout, args.streams, args.idle, args.moves))
        per = (r["rss_open"] - r["rss_before"]) * 1024 / r["streams"]
        print(f"{layout}: {r['streams']} streams on {r['tables']} table(s), {r['receivers']} receive each move")
        print(f"  API RSS {r['rss_before']:.0f} MiB before, {r['rss_open']:.0f} MiB with the streams open"
              f" ({per:.0f} KiB per stream), {r['rss_idle']:.0f} MiB after {args.idle:g} s idle;"
              f" CPU while idle {r['idle_cpu'] * 100:.1f} % of a core")
        print(f"  POST -> event at the receivers over {args.moves} moves: median of per-move medians "
              f"{statistics.median(r['medians']):.1f} ms; all received: median {statistics.median(r['lasts']):.1f}"
              f" ms, p90 {percentile(r['lasts'], 90):.1f}, worst {max(r['lasts']):.1f} ms")


if __name__ == "__main__":
    main()
