"""What the API's command routes answer (``SeatOptions`` and ``Deadline`` are the table
service's, ``services.tables.options``), as models light enough for a client to import
(``services.client``): pydantic and the event log's outcome, nothing of the server's stack."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from events.outcomes import CommandOutcome
from services.tables.options import SeatOptions


class Queued(BaseModel):
    """The command is on the queue; its outcome is at ``outcome_url`` once a worker ran it."""

    status: Literal["queued"] = "queued"
    command_id: str
    outcome_url: str


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
