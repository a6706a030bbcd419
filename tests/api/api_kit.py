"""What the API's tests share: a table opened and dealt through the platform routes, its four
seat tokens, and reading a seat's server-sent events off a real socket."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from services.api.context import ApiContext


@dataclass
class Api:
    """The API served for a test module: its context, its address, a key with every scope."""

    ctx: ApiContext
    base: str
    key: str


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@dataclass
class Table:
    table_id: str
    tokens: list[str] = field(default_factory=list)

    def seat(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


def platform_headers(key: str, command_id: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {key}"}
    if command_id is not None:
        headers["Idempotency-Key"] = command_id
    return headers


def table_body(table_id: str, players: Sequence[str] | None = None) -> dict[str, Any]:
    """Players of this table alone unless named: a player sits at one table (decision 18)."""
    players = list(players or (f"{p}-{table_id}" for p in ("ann", "bo", "cy", "di")))
    return {"table_id": table_id, "variant": "harbin", "players": players}


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body.get("status", "accepted") == "accepted", body
    return body


def open_dealt_table_sync(client: httpx.Client, key: str) -> Table:
    table = Table(new_id("t"))
    ok(client.post("/v1/tables", json=table_body(table.table_id),
                   headers=platform_headers(key, new_id("open"))))  # fmt: skip
    ok(client.post(f"/v1/tables/{table.table_id}/hands", headers=platform_headers(key, new_id("deal"))))
    for seat, player in enumerate(table_body(table.table_id)["players"]):
        minted = ok(client.post(f"/v1/tables/{table.table_id}/seats/{seat}/tokens",
                                json={"player": player}, headers=platform_headers(key)))  # fmt: skip
        table.tokens.append(minted["token"])
    return table


def a_discard(client: httpx.Client, table: Table) -> tuple[int, dict[str, Any]]:
    """The seat whose turn it is, and a discard it may make."""
    for seat in range(4):
        legal = client.get(f"/v1/tables/{table.table_id}/seats/{seat}/legal", headers=table.seat(seat))
        discards = [c for c in legal.json()["commands"] if c["command"] == "discard_tile"]
        if discards:
            return seat, discards[0]
    raise AssertionError("no seat may discard")


def read_events(
    base: str, table: Table, seat: int, count: int, *, headers: dict[str, str] | None = None,
    params: dict[str, Any] | None = None, timeout: float = 10.0, comments: bool = False,
    until: Callable[[dict[str, Any]], bool] | None = None, views: bool = False,
) -> list[dict[str, Any]]:
    """The first ``count`` events (``{"id", "event", "data"}``; comments and the opening
    ``view`` frame too, if asked) a seat's stream sends (or up to the first for which
    ``until`` holds), then the connection is dropped."""
    found: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    deadline = time.monotonic() + timeout
    with httpx.stream("GET", f"{base}/v1/tables/{table.table_id}/seats/{seat}/events",
                      headers=headers if headers is not None else table.seat(seat), params=params,
                      timeout=timeout) as response:  # fmt: skip
        assert response.status_code == 200, response.read()
        for line in response.iter_lines():
            if time.monotonic() > deadline:
                raise AssertionError(f"only {len(found)} of {count} events within {timeout} s")
            if line.startswith(":"):
                if comments:
                    found.append({"comment": line[1:].strip()})
            elif line.startswith("id:"):
                current["id"] = line[3:].strip()
            elif line.startswith("event:"):
                current["event"] = line[6:].strip()
            elif line.startswith("data:"):
                current["data"] = json.loads(line[5:].strip())
            elif line == "" and current:
                if views or current.get("event") != "view":
                    found.append(current)
                current = {}
            if len(found) >= count or (until is not None and found and until(found[-1])):
                break
    return found






async def open_dealt_table(client: httpx.AsyncClient, key: str, deal: bool = True,
                           players: Sequence[str] | None = None) -> Table:  # fmt: skip
    """A table opened (and dealt) through the platform routes, with its four seat tokens."""
    table = Table(new_id("t"))
    body = table_body(table.table_id, players)
    ok(await client.post("/v1/tables", json=body,
                         headers=platform_headers(key, new_id("open"))))  # fmt: skip
    if deal:
        ok(await client.post(f"/v1/tables/{table.table_id}/hands",
                             headers=platform_headers(key, new_id("deal"))))  # fmt: skip
    for seat, player in enumerate(body["players"]):
        minted = ok(await client.post(f"/v1/tables/{table.table_id}/seats/{seat}/tokens",
                                      json={"player": player}, headers=platform_headers(key)))  # fmt: skip
        table.tokens.append(minted["token"])
    return table


async def turn_and_discard(client: httpx.AsyncClient, table: Table) -> tuple[int, dict[str, Any]]:
    """The seat whose turn it is, and a discard it may make."""
    for seat in range(4):
        legal = await client.get(f"/v1/tables/{table.table_id}/seats/{seat}/legal",
                                 headers=table.seat(seat))  # fmt: skip
        discards = [c for c in legal.json()["commands"] if c["command"] == "discard_tile"]
        if discards:
            return seat, discards[0]
    raise AssertionError("no seat may discard")
