"""How the demo's platform seats its four bot players at a table: through a room, over the API
(decision 18), as a platform would.

For each table the demo plays, its platform sets up a room of that table's variant (``PUT
/v1/rooms/{room}``, the demo's turn and claim seconds), grants each bot the 积分 the room's
minimum asks (``POST /v1/players/{player}/points``, once per player: the Idempotency-Key),
joins the four bots (入座), says each one ready (准备: the fourth ready opens the room's table
and deals its first hand), and mints each seat's token for the table the room started.

Seating is two-phase (``gather_players``, then ``start_table``): every table's players are
gathered (seated, three of four ready) before any table is started. Seated one table after
another, the first tables' turn timers ran while the last were still being seated: with 200
tables, the tables started early timed out to 超时托管, the timers then moved them every second
and that load starved the seating of the rest (docs/performance.md, "Local cluster").

The bots' ids are new each run and table (``bot-east-<run>-<n>``): a player whose table's series has not
ended is refused a seat anywhere else (``seated_elsewhere``), and the demo's tables of an earlier
run, in a store kept from one ``make run`` to the next, may still be playing. Players of an
earlier run left seated at a room's forming table (a run stopped between its joins and its
fourth ready) are stood up first: the demo's rooms are its own.

Every step is safe to send again (the same join, ready or grant answers as the first did), so a
step the API answered busy (429, 503 with ``Retry-After``) or never answered (a dropped
connection) is sent again, a bounded number of times.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import httpx

TOKEN_SECONDS = 86400  # asked for; the API grants at most its PAIJU_API_TOKEN_SECONDS
TRIES = 20  # a step busy or unanswered this often is given up (the demo says why)
AGAIN = 2.0  # seconds before a step is sent again when the API names no Retry-After
LONGEST_WAIT = 10.0  # a Retry-After beyond this is waited this long, then sent again


class DemoRefused(RuntimeError):
    """The API refused a step of the demo's platform; the message says which and why."""


class TryLater(RuntimeError):
    """The API is busy or failing for now (429, 5xx): the step is tried again later."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class RoomPlan:
    """The room a demo table is played in: its id, variant, waits and minimum 积分."""

    room: str
    variant: str
    timing: dict[str, int]
    minimum_points: int = 0

    def settings(self) -> dict[str, Any]:
        return {"variant": self.variant, "minimum_points": self.minimum_points,
                "turn_seconds": self.timing.get("turn"), "claim_seconds": self.timing.get("claim")}  # fmt: skip


@dataclass
class Seating:
    """A table the demo's players sit at, its players and each seat's token (index = seat)."""

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
    if response.status_code >= 400 and isinstance(body.get("outcome"), dict):
        # a command's refusal (409, 412, 422, 503 as its code says): its outcome and options
        refused = refused_outcome(body)
        if refusal_is_error:
            raise DemoRefused(f"{what}: {response.status_code} refused ({refused.get('code')}):"
                              f" {refused.get('reason')}")  # fmt: skip
        return refused
    in_flight = response.status_code == 409 and body.get("title") == "Command in flight"
    if response.status_code == 429 or response.status_code >= 500 or in_flight:
        raise TryLater(f"{what}: {response.status_code} {body.get('detail') or body}",
                       retry_after_of(response))  # fmt: skip
    if response.status_code >= 400:
        raise DemoRefused(f"{what}: {response.status_code} {body.get('detail') or body}")
    return body


def refused_outcome(problem: dict[str, Any]) -> dict[str, Any]:
    """A command's refusal (a problem document whose ``outcome`` is the refused outcome, with
    the seat's ``options``) read as the outcome with its options, the shape of a 200."""
    return {**problem["outcome"], "options": problem.get("options")}


def retry_after_of(response: httpx.Response) -> float | None:
    """The answer's ``Retry-After`` in seconds (None when it names none, or a date)."""
    try:
        return min(LONGEST_WAIT, max(0.0, float(response.headers["Retry-After"])))
    except (KeyError, ValueError):
        return None


async def step(client: httpx.AsyncClient, what: str, method: str, path: str, *,
               headers: dict[str, str], json: dict[str, Any] | None = None,
               tries: int = TRIES) -> dict[str, Any]:  # fmt: skip
    """Send one step of the platform, again while the API is busy or does not answer (each
    step is one the API answers the same when sent twice)."""
    for attempt in range(1, tries + 1):
        try:
            return checked(await client.request(method, path, headers=headers, json=json), what)
        except (TryLater, httpx.TransportError) as error:
            if attempt == tries:
                if isinstance(error, TryLater):
                    raise
                raise TryLater(f"{what}: no answer ({type(error).__name__})") from error
            wait = error.retry_after if isinstance(error, TryLater) else None
            await asyncio.sleep(AGAIN if wait is None else wait)
    raise AssertionError("unreachable: the last try returns or raises")


@dataclass
class Gathered:
    """A room's four players seated at its forming table, all but the last said ready: what
    ``start_table`` needs to open the table (the last ready deals its first hand)."""

    plan: RoomPlan
    table_id: str  # the forming table the four sit at
    seats: dict[str, int]  # player -> seat
    last: str  # the player whose ready starts the table


async def gather_players(client: httpx.AsyncClient, key: str, plan: RoomPlan,
                         players: tuple[str, str, str, str]) -> Gathered:  # fmt: skip
    """Set up the room, grant its minimum 积分, seat the four at its forming table and say
    three of them ready: the table is not dealt yet, so no turn timer runs while the others
    are seated."""
    room, headers = plan.room, platform_headers(key)
    forming = await step(client, f"setting up room {room}", "PUT", f"/v1/rooms/{room}",
                         headers=headers, json=plan.settings())  # fmt: skip
    await stand_up_others(client, key, room, forming, players)
    if plan.minimum_points > 0:  # the bots are new: they hold no 积分 yet (grants are independent)
        await asyncio.gather(*(step(client, f"granting {player} {plan.minimum_points} points", "POST",
                                    f"/v1/players/{player}/points", headers=platform_headers(key, f"{player}/demo-grant"),
                                    json={"amount": plan.minimum_points, "kind": "grant", "reason": "the demo's bot"})
                               for player in players))  # fmt: skip
    seats: dict[str, int] = {}
    for player in players:  # one at a time: each join takes the room's next free seat
        joined = await step(client, f"seating {player} in room {room}", "POST",
                            f"/v1/rooms/{room}/players/{player}/join", headers=headers)  # fmt: skip
        if joined["table_id"] != forming["table_id"] or joined["seat"] is None:
            raise DemoRefused(f"room {room}: {player} was seated at {joined['table_id']}, not with "
                              f"the others at {forming['table_id']} (another platform seats players there)")  # fmt: skip
        seats[player] = joined["seat"]
    for player in players[:-1]:
        await step(client, f"{player} ready in room {room}", "POST",
                   f"/v1/rooms/{room}/players/{player}/ready", headers=headers)  # fmt: skip
    return Gathered(plan, forming["table_id"], seats, players[-1])


async def start_table(client: httpx.AsyncClient, key: str, gathered: Gathered) -> Seating:
    """The last player's ready starts the room's table (its first hand dealt); then each
    seat's token is minted."""
    room = gathered.plan.room
    started = await step(client, f"{gathered.last} ready in room {room}", "POST",
                         f"/v1/rooms/{room}/players/{gathered.last}/ready", headers=platform_headers(key))  # fmt: skip
    if not started.get("started"):
        raise DemoRefused(f"room {room}: four players ready but table {gathered.table_id} did not start")
    table_id: str = started["table_id"]
    seats = gathered.seats
    east, south, west, north = sorted(seats, key=seats.__getitem__)
    tokens = await asyncio.gather(*(mint(client, key, table_id, seat, player, TRIES)
                                    for seat, player in enumerate((east, south, west, north))))  # fmt: skip
    return Seating(table_id, (east, south, west, north), list(tokens))


async def stand_up_others(client: httpx.AsyncClient, key: str, room: str, forming: dict[str, Any],
                          players: tuple[str, ...]) -> None:  # fmt: skip
    """Stand up the players of an earlier run still seated at the room's forming table (it
    stopped before its fourth ready): else this run's four would not fit."""
    for player in forming["seats"]:
        if player is not None and player not in players:
            await step(client, f"standing {player} of an earlier run up in room {room}", "POST",
                       f"/v1/rooms/{room}/players/{player}/leave", headers=platform_headers(key))  # fmt: skip


async def mint(client: httpx.AsyncClient, key: str, table_id: str, seat: int, player: str,
               tries: int = 1) -> str:  # fmt: skip
    """A seat token for ``player`` (again when the last one expired)."""
    minted = await step(client, f"minting seat {seat}'s token at {table_id}", "POST",
                        f"/v1/tables/{table_id}/seats/{seat}/tokens", headers=platform_headers(key),
                        json={"player": player, "seconds": TOKEN_SECONDS}, tries=tries)  # fmt: skip
    token: str = minted["token"]
    return token
