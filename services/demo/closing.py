"""The demo's tables at its end: closed, so that no absent bot plays on by 托管 or pays for it.

When the demo stops, its bots stop moving; a table left as it was would have its hand in play
played out by the turn timers (超时托管), its bots charged 超时 penalties, whenever a
timekeeper next runs on the store. So the demo's platform ends each table it started: a table
that played all the hands asked of it is closed (关桌: between hands, at once); any other is
dissolved first (网管解散: the hand in play abandoned, nothing paid; the key's ``operator``
scope), then closed. A key without that scope closes it only: its hand in play is played out.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import httpx

from services.demo.seating import platform_headers

if TYPE_CHECKING:
    from services.demo.http_demo import DemoTable, HttpDemo

AT_ONCE = 16  # tables ended at the same time
SECONDS = 10.0  # each request's bound: the demo is stopping


async def end_tables(demo: HttpDemo, tables: list[DemoTable]) -> None:
    """Close (or dissolve, then close) each table the demo started."""
    slots = asyncio.Semaphore(AT_ONCE)

    async def end(table: DemoTable) -> None:
        async with slots:
            await end_table(demo, table)

    started = [t for t in tables if t.table_id]
    await asyncio.gather(*(end(t) for t in started), return_exceptions=True)


async def end_table(demo: HttpDemo, table: DemoTable) -> None:
    hands = demo.plan.hands
    played = demo.tally.hands.get(table.table_id, 0)
    finished = hands is not None and played >= hands
    how = "closed"
    if not finished:
        how = "dissolved and closed" if await _post(demo, table, "dissolve") else how
    if await _post(demo, table, "close") or how != "closed":
        demo.say(f"{table.table_id}: {how} as the demo stopped ({played} hand(s) settled)")


async def _post(demo: HttpDemo, table: DemoTable, action: str) -> bool:
    """Send the table's ``dissolve`` or ``close`` (once: the id is the table's); whether the
    table took it (a refusal, such as a table already closed, or a key without the scope, is
    not an error at the demo's end)."""
    url = f"{table.base}/v1/tables/{table.table_id}/{action}"
    headers = platform_headers(demo.key, f"{table.table_id}/{action}")
    body = {"reason": "the demo stopped: its bots left"}
    try:
        answer = await demo.client.post(url, json=body, headers=headers, timeout=SECONDS)
    except httpx.TransportError:
        return False
    if answer.status_code == 403 and action == "dissolve":
        demo.say(f"{table.table_id}: the demo's key may not dissolve (no 'operator' scope): its"
                 f" hand in play is played out by 托管")  # fmt: skip
    return answer.status_code == 200 and answer.json().get("status") == "accepted"
