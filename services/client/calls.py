"""The requests a client sends, built once for the sync and the async clients alike, and the
back-off both use between tries."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import httpx

from services.rules.table.commands import Command

RETRIED = (httpx.TransportError,)
"""Failures of the connection, not answers: a command is sent again under the same key."""


def new_key() -> str:
    """A fresh Idempotency-Key: one per command, kept while it is retried."""
    return uuid.uuid4().hex


def command_body(command: Command | Mapping[str, Any]) -> dict[str, Any]:
    """The command as the API reads it (``{"command": "discard_tile", "seat": 0, ...}``)."""
    if isinstance(command, Command):
        return command.model_dump(mode="json")
    return dict(command)


def command_request(http: httpx.Client | httpx.AsyncClient, path: str, token: str,
                    body: dict[str, Any], key: str, if_match: int | None) -> httpx.Request:  # fmt: skip
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key}
    if if_match is not None:
        headers["If-Match"] = f'"{if_match}"'
    return http.build_request("POST", path, json=body, headers=headers)


def seat_path(table_id: str, seat: int, what: str) -> str:
    return f"/v1/tables/{quote(table_id, safe='')}/seats/{seat}/{what}"


def table_path(table_id: str, what: str = "") -> str:
    return f"/v1/tables/{quote(table_id, safe='')}" + (f"/{what}" if what else "")


class Backoff:
    """How long to wait before the next try: doubling from ``first`` up to ``cap``, each wait
    drawn at random from its upper half (so a restarted server's clients do not all come back
    at once), or the server's ``Retry-After`` when it named one; ``given_up`` once tries have
    failed for ``give_up_after`` seconds in a row."""

    def __init__(self, first: float = 0.2, cap: float = 4.0, give_up_after: float = 120.0,
                 rng: random.Random | None = None) -> None:  # fmt: skip
        self.first, self.cap, self.give_up_after = first, cap, give_up_after
        self.rng = rng or random.Random()
        self.tries = 0
        self.failing_since: float | None = None

    def succeeded(self) -> None:
        self.tries, self.failing_since = 0, None

    def failed(self, retry_after: float | None = None) -> float:
        """The seconds to wait now, one more failure counted."""
        if self.failing_since is None:
            self.failing_since = time.monotonic()
        self.tries += 1
        if retry_after is not None:
            return min(retry_after, self.give_up_after)
        return min(self.cap, self.first * 2 ** min(self.tries - 1, 16)) * self.rng.uniform(0.5, 1.0)

    @property
    def given_up(self) -> bool:
        return self.failing_since is not None and time.monotonic() - self.failing_since >= self.give_up_after


class StreamGivenUp(ConnectionError):
    """A seat's stream could not be opened again for ``give_up_after`` seconds in a row."""
