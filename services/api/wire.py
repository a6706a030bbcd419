"""What the API's command routes answer, as models light enough for a client to import
(``services.client``): pydantic and the event log's outcome, nothing of the server's stack."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from events.outcomes import CommandOutcome


class Queued(BaseModel):
    """The command is on the queue; its outcome is at ``outcome_url`` once a worker ran it."""

    status: Literal["queued"] = "queued"
    command_id: str
    outcome_url: str


class Deadline(BaseModel):
    """The wait a seat is under: its kind, its seconds, the version it began at and, where
    known, when it runs out (``due_at``, that version's time plus the seconds)."""

    wait: str
    seconds: int
    since_version: int
    due_at: datetime | None = None


class SeatOptions(BaseModel):
    """What the seat may do now (``services.tables.options``): send a command with
    ``If-Match: "version"``; ``view`` is the seat's view when it has a choice to make."""

    version: int
    commands: list[dict[str, Any]]
    deadline: Deadline | None = None
    view: dict[str, Any] | None = None


class CommandAnswer(CommandOutcome):
    """The outcome and, for a seat's own command, what that seat may do next."""

    options: SeatOptions | None = None


class MintedToken(BaseModel):
    token: str
    role: str
    table_id: str
    seat: int | None
    subject: str
    expires_at: int = Field(description="Unix seconds")
