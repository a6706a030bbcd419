"""The platform's side of the API (an API key, ``paiju keys``): open a table, deal its hands,
mint its seats' tokens, read the read models; ``seat()`` gives a seat's client. ``Platform`` is
synchronous, ``AsyncPlatform`` the same for asyncio."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import httpx

from services.api.wire import MintedToken, outcome_url
from services.client.answers import Answer, answer_of, problem_of
from services.client.calls import command_request, new_key, table_path
from services.client.seat import Seat
from services.client.seat_async import AsyncSeat
from services.rules.table.commands import OpenTable, StartHand

ViewRole = Literal["spectator", "operator"]


def _opened(table_id: str, variant: str, players: tuple[str, str, str, str],
            settings: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The OpenTable body, checked here as the server checks it (a bad one raises at once)."""
    return OpenTable(table_id=table_id, variant=variant, players=players, **settings).model_dump(mode="json")


def _minted(answer: httpx.Response) -> MintedToken:
    if answer.status_code != 200:
        raise problem_of(answer)
    return MintedToken.model_validate(answer.json())


def _read(answer: httpx.Response) -> Any:
    if answer.status_code != 200:
        raise problem_of(answer)
    return answer.json()


class Platform:
    """``http`` a client with the API's ``base_url``; ``api_key`` a platform key."""

    def __init__(self, http: httpx.Client, api_key: str) -> None:
        self.http, self.api_key = http, api_key

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}

    def open_table(self, table_id: str, variant: str, players: tuple[str, str, str, str], *,
                   key: str | None = None, **settings: Any) -> Answer:  # fmt: skip
        """OpenTable (``settings``: ``base_stake``, ``options``, ``timing``, ``room``)."""
        body = _opened(table_id, variant, players, settings)
        request = command_request(self.http, "/v1/tables", self.api_key, body, key or new_key(), None)
        return answer_of(self.http.send(request))

    def deal(self, table_id: str, *, if_match: int | None = None, key: str | None = None) -> Answer:
        """Deal the table's next hand (``StartHand``)."""
        request = command_request(self.http, table_path(table_id, "hands"), self.api_key,
                                  StartHand().model_dump(mode="json"), key or new_key(), if_match)  # fmt: skip
        return answer_of(self.http.send(request))

    def seat_token(self, table_id: str, seat: int, player: str, seconds: int | None = None) -> MintedToken:
        body = {"player": player} | ({"seconds": seconds} if seconds else {})
        return _minted(self.http.post(table_path(table_id, f"seats/{seat}/tokens"), json=body, headers=self.auth))

    def view_token(self, table_id: str, role: ViewRole, subject: str, seconds: int | None = None) -> MintedToken:
        body = {"role": role, "subject": subject} | ({"seconds": seconds} if seconds else {})
        return _minted(self.http.post(table_path(table_id, "tokens"), json=body, headers=self.auth))

    def seat(self, table_id: str, seat: int, player: str) -> Seat:
        """A client for ``seat``, with a token minted for its ``player``."""
        return Seat(self.http, table_id, seat, self.seat_token(table_id, seat, player).token)

    def outcome(self, command_id: str, wait: float = 5.0) -> Answer:
        """The outcome of a command this key sent."""
        return answer_of(self.http.get(outcome_url(command_id), params={"wait": wait},
                                       headers=self.auth, timeout=wait + 10))  # fmt: skip

    def read(self, path: str, **params: Any) -> Any:
        """A read model's JSON: ``read("players/ann/points")`` is ``GET /v1/reads/players/ann/points``."""
        return _read(self.http.get(f"/v1/reads/{path.lstrip('/')}", params=params, headers=self.auth))


class AsyncPlatform:
    """``Platform`` for asyncio: the same calls, awaited."""

    def __init__(self, http: httpx.AsyncClient, api_key: str) -> None:
        self.http, self.api_key = http, api_key

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}

    async def open_table(self, table_id: str, variant: str, players: tuple[str, str, str, str], *,
                         key: str | None = None, **settings: Any) -> Answer:  # fmt: skip
        body = _opened(table_id, variant, players, settings)
        request = command_request(self.http, "/v1/tables", self.api_key, body, key or new_key(), None)
        return answer_of(await self.http.send(request))

    async def deal(self, table_id: str, *, if_match: int | None = None, key: str | None = None) -> Answer:
        request = command_request(self.http, table_path(table_id, "hands"), self.api_key,
                                  StartHand().model_dump(mode="json"), key or new_key(), if_match)  # fmt: skip
        return answer_of(await self.http.send(request))

    async def seat_token(self, table_id: str, seat: int, player: str, seconds: int | None = None) -> MintedToken:
        body = {"player": player} | ({"seconds": seconds} if seconds else {})
        return _minted(await self.http.post(table_path(table_id, f"seats/{seat}/tokens"), json=body,
                                            headers=self.auth))  # fmt: skip

    async def view_token(self, table_id: str, role: ViewRole, subject: str,
                         seconds: int | None = None) -> MintedToken:  # fmt: skip
        body = {"role": role, "subject": subject} | ({"seconds": seconds} if seconds else {})
        return _minted(await self.http.post(table_path(table_id, "tokens"), json=body, headers=self.auth))

    async def seat(self, table_id: str, seat: int, player: str) -> AsyncSeat:
        return AsyncSeat(self.http, table_id, seat, (await self.seat_token(table_id, seat, player)).token)

    async def outcome(self, command_id: str, wait: float = 5.0) -> Answer:
        return answer_of(await self.http.get(outcome_url(command_id), params={"wait": wait},
                                             headers=self.auth, timeout=wait + 10))  # fmt: skip

    async def read(self, path: str, **params: Any) -> Any:
        return _read(await self.http.get(f"/v1/reads/{path.lstrip('/')}", params=params, headers=self.auth))
