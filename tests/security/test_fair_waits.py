"""Issue 21, item 3: no token can starve the API. A wait for an outcome holds no thread, and
each credential has a cap on the outcomes it awaits at once and on its open streams.

The attack: 45-60 ``GET /v1/commands/<id>?wait=10`` in parallel, within the rate limit, filled
the API's thread pool, and another table's view took 9 s instead of milliseconds. Here the
waits come from six credentials at their caps (48 waits, more than the pool's 40 threads),
and another table's view must answer while they are held; one credential's next wait and its
next stream past the caps are refused 429 at once.
"""

from __future__ import annotations

import asyncio
import time

import httpx
from security_kit import SeatedTable, Served, new_id

WAITS_CAP = 8  # PAIJU_API_MAX_WAITS, the default
STREAMS_CAP = 4  # PAIJU_API_MAX_STREAMS, the default
HELD_SECONDS = 6


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def held_waits(http: httpx.AsyncClient, headers: dict[str, str], count: int) -> list[asyncio.Task[httpx.Response]]:
    """``count`` waits of ``headers``'s credential for outcomes that never come, held open."""
    return [
        asyncio.create_task(http.get(f"/v1/commands/{new_id('never')}",
                                     params={"wait": HELD_SECONDS}, headers=headers))  # fmt: skip
        for _ in range(count)
    ]


def client(served: Served) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    return httpx.AsyncClient(base_url=served.base, timeout=30, limits=limits)


def test_a_credential_past_its_cap_of_waits_is_refused_at_once(embedded: Served) -> None:
    table = embedded.seated_table(embedded.key())

    async def attack() -> tuple[httpx.Response, float, list[httpx.Response]]:
        async with client(embedded) as http:
            waits = await held_waits(http, table.seat(0), WAITS_CAP)
            await asyncio.sleep(1.0)  # all of them are waiting now
            started = time.monotonic()
            extra = await http.get(f"/v1/commands/{new_id('never')}", params={"wait": HELD_SECONDS},
                                   headers=table.seat(0))  # fmt: skip
            took = time.monotonic() - started
            return extra, took, list(await asyncio.gather(*waits))

    extra, took, held = asyncio.run(attack())
    assert extra.status_code == 429, extra.text
    assert "already awaits 8 outcomes at once" in extra.json()["detail"]
    assert took < HELD_SECONDS  # refused, not made to wait its turn
    assert {answer.status_code for answer in held} == {404}  # each waited, then: never sent


def test_waits_held_by_many_credentials_leave_another_tables_view_answering(
    embedded: Served,
) -> None:
    key = embedded.key()
    attacker, victim = embedded.seated_table(key), embedded.seated_table(key)
    credentials = [attacker.seat(s) for s in range(4)] + [bearer(embedded.key()), bearer(embedded.key())]

    async def attack() -> tuple[httpx.Response, list[httpx.Response]]:
        async with client(embedded) as http:
            waits = [t for c in credentials for t in await held_waits(http, c, WAITS_CAP)]
            await asyncio.sleep(1.5)  # 48 waits held: more than the pool's 40 threads
            async with httpx.AsyncClient(base_url=embedded.base, timeout=3) as other:
                seen = await other.get(f"/v1/tables/{victim.table_id}/view", headers=victim.seat(1))
            return seen, list(await asyncio.gather(*waits))

    seen, held = asyncio.run(attack())  # a 3 s timeout: before, the view waited on the waits
    assert seen.status_code == 200, seen.text
    assert len(held) == 48 and {answer.status_code for answer in held} == {404}


def test_a_seat_past_its_cap_of_open_streams_is_refused_and_others_go_on(embedded: Served) -> None:
    key = embedded.key()
    attacker, victim = embedded.seated_table(key), embedded.seated_table(key)
    url = f"/v1/tables/{attacker.table_id}/seats/2/events"

    async def attack() -> tuple[list[int], httpx.Response, httpx.Response]:
        async with client(embedded) as http:
            opened = []
            for _ in range(STREAMS_CAP):
                stream = await http.send(http.build_request("GET", url, headers=attacker.seat(2)), stream=True)
                opened.append(stream)
            await asyncio.sleep(0.5)
            extra = await http.send(http.build_request("GET", url, headers=attacker.seat(2)), stream=True)
            await extra.aread() if extra.status_code != 200 else await extra.aclose()
            seen = await http.get(f"/v1/tables/{victim.table_id}/view", headers=victim.seat(2))
            codes = [s.status_code for s in opened]
            for stream in opened:
                await stream.aclose()
            return codes, extra, seen

    codes, extra, seen = asyncio.run(attack())
    assert codes == [200] * STREAMS_CAP
    assert extra.status_code == 429  # before: a fifth stream opened, and a sixth...
    assert "at most 4" in extra.json()["detail"] and extra.headers["Retry-After"]
    assert seen.status_code == 200


def test_a_commands_post_past_the_cap_of_waits_is_queued_at_once_not_refused(
    embedded: Served,
) -> None:
    table: SeatedTable = embedded.seated_table(embedded.key())

    async def attack() -> tuple[httpx.Response, list[httpx.Response]]:
        async with client(embedded) as http:
            waits = await held_waits(http, table.seat(3), WAITS_CAP)
            await asyncio.sleep(1.0)
            posted = await http.post(f"/v1/tables/{table.table_id}/commands",
                                     json={"command": "pass_claim", "seat": 3},
                                     headers={**table.seat(3), "Idempotency-Key": new_id("c")})  # fmt: skip
            return posted, list(await asyncio.gather(*waits))

    posted, _ = asyncio.run(attack())
    assert posted.status_code == 202, posted.text  # kept and queued, not awaited: said at once
    with embedded.client() as http:
        outcome = http.get(posted.json()["outcome_url"], params={"wait": 5}, headers=table.seat(3))
    assert outcome.status_code == 200 and outcome.json()["status"] == "refused"
