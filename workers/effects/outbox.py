"""The webhook outbox: a reactor's checkpoint and one row per delivery, on the store's database.

``Outbox`` is the same contract on PostgreSQL (``outbox_pg``) and SQLite (``outbox_sqlite``):

* ``checkpoint(name)``: the last global position reactor ``name`` handled (0 at first).
* ``advance(name, expected, position, deliveries)``: in ONE transaction, move the checkpoint
  from ``expected`` to ``position`` (compare-and-set) and insert the rows; False, and nothing
  written, if the checkpoint was no longer ``expected`` (another reactor got there first).
* ``claim_due(limit, lease_seconds)``: lease pending rows whose next attempt is due and whose
  lease (if any) ran out; each claim carries a fresh token. Two dispatchers never hold one row.
* ``start(key, token, hold_seconds)``: the one attempt a claim makes: swaps the claim's token
  for the attempt's (``token + SENDING``) while the lease still holds, and holds it at least
  ``hold_seconds`` more; the row, or None when the claim is stale (already started, resent,
  claimed again, no longer pending). So two messages for one claim post once.
* ``delivered`` / ``failed``: record an attempt's result, only for the attempt that holds the
  row (its token) and while it is pending; False when it is stale. ``failed`` with no
  ``retry_in`` sets the row aside.
* ``deliveries(status)``, ``load(key)``, ``resend(key)`` (pending again, due now, attempts
  counted afresh), ``seconds_to_next_due()``.

``open_outbox(url)`` takes the same URLs as ``events.store.open_store`` and runs the store's
migrations first (0006 creates these tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

Status = Literal["pending", "delivered", "set_aside"]
STATUSES: tuple[Status, ...] = ("pending", "delivered", "set_aside")


@dataclass(frozen=True, slots=True)
class NewDelivery:
    key: str
    position: int
    stream_id: str
    event_type: str
    body: bytes


@dataclass(frozen=True, slots=True)
class Delivery:
    key: str
    position: int
    stream_id: str
    event_type: str
    body: bytes
    status: Status
    attempts: int
    next_attempt_at: datetime
    lease_token: str | None
    last_status: int | None
    last_error: str | None
    created_at: datetime
    delivered_at: datetime | None


@dataclass(frozen=True, slots=True)
class Claim:
    """A leased row: the dispatcher hands ``key`` and ``token`` to the effects task."""

    key: str
    token: str


SENDING = "/sending"
"""Appended to a claim's token by ``start``: the row is being posted by that attempt."""


class UnknownDelivery(KeyError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key

    def __str__(self) -> str:
        return f"no delivery has the key {self.key!r} (paiju webhooks list shows them)"


class Outbox(Protocol):
    def checkpoint(self, name: str) -> int: ...

    def advance(
        self, name: str, expected: int, position: int, deliveries: Sequence[NewDelivery]
    ) -> bool: ...

    def claim_due(self, limit: int, lease_seconds: float) -> list[Claim]: ...

    def load(self, key: str) -> Delivery | None: ...

    def start(self, key: str, token: str, hold_seconds: float) -> Delivery | None: ...

    def delivered(self, key: str, token: str, http_status: int) -> bool: ...

    def failed(
        self,
        key: str,
        token: str,
        http_status: int | None,
        error: str,
        retry_in: float | None,
    ) -> bool: ...

    def deliveries(self, status: Status | None = None, limit: int = 1000) -> list[Delivery]: ...

    def resend(self, key: str) -> Delivery: ...

    def seconds_to_next_due(self) -> float | None: ...

    def close(self) -> None: ...
