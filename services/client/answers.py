"""What the API answers, read into typed results: a command's answer (accepted, refused or
queued) and the problem document (RFC 9457) of anything else that went wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import httpx

from events.outcomes import CommandOutcome
from services.api.wire import CommandAnswer, Queued
from services.tables.options import SeatOptions

PROBLEM_MEDIA_TYPE = "application/problem+json"


class ApiProblem(Exception):
    """The API refused a request (a problem document): ``status`` the HTTP status, ``type``,
    ``title`` and ``detail`` as the server wrote them, ``extensions`` every other member, and
    ``retry_after`` (seconds) where the answer named one (429, 503, a command in flight)."""

    def __init__(self, status: int, title: str, detail: str, type_: str = "about:blank",
                 extensions: dict[str, Any] | None = None, retry_after: float | None = None,
                 ) -> None:  # fmt: skip
        super().__init__(f"{status} {title}: {detail}")
        self.status, self.title, self.detail, self.type = status, title, detail, type_
        self.extensions = extensions or {}
        self.retry_after = retry_after


@dataclass(frozen=True)
class Accepted:
    """The command was run and recorded its events (``outcome.first_version`` ..
    ``last_version``); ``options`` what the seat may do next (None for a platform's command)."""

    outcome: CommandOutcome
    options: SeatOptions | None = None


@dataclass(frozen=True)
class Refused:
    """The command was run and refused, recording nothing: ``outcome.code`` says why for a
    program (``refused_by_rules``, ``stale_version``, ``invalid_input``), ``outcome.reason``
    for a person; ``status`` the HTTP status it came with; ``options`` the seat's options at the
    table's version now (send again from them)."""

    outcome: CommandOutcome
    options: SeatOptions | None = None
    status: int = 200
    problem_type: str | None = None


@dataclass(frozen=True)
class Pending:
    """Kept and queued, without an outcome yet: await it with ``outcome(command_id)``."""

    command_id: str
    outcome_url: str
    retry_after: float | None = field(default=None)


Answer = Accepted | Refused | Pending


def retry_after_of(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds, when it is a number (the API never sends a date)."""
    text = response.headers.get("retry-after", "").strip()
    try:
        return max(0.0, float(text)) if text else None
    except ValueError:
        return None


def problem_of(response: httpx.Response) -> ApiProblem:
    """The problem a non-success answer carries (or one made of its status and text)."""
    body: Any = None
    if response.headers.get("content-type", "").startswith(("application/json", PROBLEM_MEDIA_TYPE)):
        try:
            body = response.json()
        except ValueError:
            body = None
    if not isinstance(body, dict):
        return ApiProblem(response.status_code, response.reason_phrase or "Error",
                          response.text[:500], retry_after=retry_after_of(response))  # fmt: skip
    known = {"type", "title", "status", "detail"}
    return ApiProblem(response.status_code, str(body.get("title", response.reason_phrase)),
                      str(body.get("detail", "")), str(body.get("type", "about:blank")),
                      {k: v for k, v in body.items() if k not in known},
                      retry_after_of(response))  # fmt: skip


def answer_of(response: httpx.Response) -> Answer:
    """A command's answer: 200 accepted (or, from ``GET /v1/commands/{id}``, any outcome), 202
    pending, 409 "Command in flight" pending (its first copy still runs), a refusal's problem
    document (409, 412, 422 ... with its ``outcome``) refused; anything else raises
    ``ApiProblem``."""
    if response.status_code == 200:
        shown = CommandAnswer.model_validate(response.json())
        outcome = CommandOutcome.model_validate(shown.model_dump(exclude={"options"}))
        if outcome.accepted:
            return Accepted(outcome, shown.options)
        return Refused(outcome, shown.options)
    if response.status_code == 202:
        queued = Queued.model_validate(response.json())
        return Pending(queued.command_id, queued.outcome_url, retry_after_of(response))
    problem = problem_of(response)
    if "outcome" in problem.extensions:
        outcome = CommandOutcome.model_validate(problem.extensions["outcome"])
        options = problem.extensions.get("options")
        return Refused(outcome, SeatOptions.model_validate(options) if options else None,
                       problem.status, problem.type)  # fmt: skip
    location = response.headers.get("location")
    if response.status_code == 409 and location and location.startswith("/v1/commands/"):
        return Pending(unquote(location.removeprefix("/v1/commands/")), location, problem.retry_after)
    raise problem
