"""What the API's command routes answer (``SeatOptions`` and ``Deadline`` are the table
service's, ``services.tables.options``), as models light enough for a client to import
(``services.client``): pydantic and the event log's outcome, nothing of the server's stack."""

from __future__ import annotations

from typing import Literal
from urllib.parse import quote

from pydantic import BaseModel, Field

from events.outcomes import CommandOutcome
from services.tables.options import SeatOptions


def outcome_url(key: str) -> str:
    """Where a command's outcome is read, by its sender's key: percent-encoded, since a key may
    be any text and a header (``Location``) holds only latin-1."""
    return f"/v1/commands/{quote(key, safe='')}"


class Queued(BaseModel):
    """The command is on the queue; its outcome is at ``outcome_url`` once a worker ran it."""

    status: Literal["queued"] = "queued"
    command_id: str
    outcome_url: str


STATUS_OF_CODE = {
    "refused_by_rules": 409,
    "stale_version": 412,
    "invalid_input": 422,
    "invalid_command": 422,
    "invalid_id": 422,
    "command_id_reused": 422,
    "table_busy": 503,
}
"""A refusal's code -> the HTTP status that says what happened (an unknown code: 409)."""


def problem_type(code: str) -> str:
    """``/problems/refused-by-rules``: a relative URI naming the refusal's kind."""
    return "/problems/" + code.replace("_", "-")


class CommandAnswer(CommandOutcome):
    """The outcome and, for a seat's own command, what that seat may do next."""

    options: SeatOptions | None = None


class CommandRefusal(BaseModel):
    """A refused command (RFC 9457): ``type`` names the refusal's kind
    (``/problems/refused-by-rules``, ``/problems/stale-version``, ...), ``detail`` its reason,
    ``outcome`` the outcome as ``GET /v1/commands/{key}`` shows it (``command_id`` the
    sender's key), and ``options`` the seat's next options (absent for a platform's command)."""

    type: str = Field(examples=[problem_type(code) for code in STATUS_OF_CODE])
    title: str
    status: int
    detail: str
    outcome: CommandOutcome
    options: SeatOptions | None = None


class MintedToken(BaseModel):
    token: str
    role: str
    table_id: str
    seat: int | None
    subject: str
    expires_at: int = Field(description="Unix seconds")
