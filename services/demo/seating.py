"""How the demo's platform seats its four bot players at a table, over the API.

Today the platform opens the table itself (``POST /v1/tables`` with the four players) and
mints each player's seat token. When rooms land (decision 18: a room the platform configures,
players who join, are seated and say ready, the room starting the table), only
``seat_players`` changes: the rest of the demo needs a table id and four tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

TOKEN_SECONDS = 86400  # asked for; the API grants at most its PAIJU_API_TOKEN_SECONDS


class DemoRefused(RuntimeError):
    """The API refused a step of the demo's platform; the message says which and why."""


class TryLater(RuntimeError):
    """The API is busy or failing for now (429, 5xx): the step is tried again later."""


@dataclass
class Seating:
    """A table the demo's players sit at, and each seat's token (index = seat)."""

    table_id: str
    players: tuple[str, str, str, str]
    tokens: list[str]


def platform_headers(key: str, command_id: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {key}"}
    if command_id is not None:
        headers["Idempotency-Key"] = command_id
    return headers


def checked(response: httpx.Response, what: str, refusal_is_error: bool = True) -> dict[str, Any]:
    """The answer's JSON, or ``DemoRefused`` naming the step and the problem's detail (and
    the refusal of a command, unless ``refusal_is_error`` is False)."""
    try:
        body: dict[str, Any] = response.json()
    except ValueError:
        body = {"detail": response.text[:200]}
    if response.status_code == 429 or response.status_code >= 500:
        raise TryLater(f"{what}: {response.status_code} {body.get('detail') or body}")
    if response.status_code >= 400:
        raise DemoRefused(f"{what}: {response.status_code} {body.get('detail') or body}")
    if refusal_is_error and body.get("status") == "refused":
        raise DemoRefused(f"{what}: refused ({body.get('code')}): {body.get('reason')}")
    return body


async def seat_players(
    client: httpx.AsyncClient, key: str, table_id: str, variant: str,
    players: tuple[str, str, str, str], timing: dict[str, int],
) -> Seating:  # fmt: skip
    """Open the table for the four players (again is the same command: its first outcome
    answers) and mint each one's seat token."""
    body = {"table_id": table_id, "variant": variant, "players": list(players), "timing": timing}
    opened = await client.post("/v1/tables", json=body,
                               headers=platform_headers(key, f"{table_id}/open"))  # fmt: skip
    checked(opened, f"opening table {table_id}")
    tokens = [await mint(client, key, table_id, seat, player) for seat, player in enumerate(players)]
    return Seating(table_id, players, tokens)


async def is_opened(client: httpx.AsyncClient, key: str, table_id: str) -> bool:
    """Whether a table of that id was opened already (an earlier run's): its first seat's
    token can be minted (404: no such table)."""
    probe = await client.post(f"/v1/tables/{table_id}/seats/0/tokens",
                              json={"player": "?", "seconds": 10}, headers=platform_headers(key))  # fmt: skip
    if probe.status_code == 404:
        return False
    if probe.status_code in (200, 409):  # 409: another player sits there; opened all the same
        return True
    checked(probe, f"looking for table {table_id}")
    return True


async def mint(client: httpx.AsyncClient, key: str, table_id: str, seat: int, player: str) -> str:
    """A seat token for ``player`` (again when the last one expired)."""
    minted = await client.post(f"/v1/tables/{table_id}/seats/{seat}/tokens",
                               json={"player": player, "seconds": TOKEN_SECONDS},
                               headers=platform_headers(key))  # fmt: skip
    token: str = checked(minted, f"minting seat {seat}'s token at {table_id}")["token"]
    return token
