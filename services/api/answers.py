"""What a command's POST answers: 200 accepted, 202 queued, or a refusal in the status line
(RFC 9457), and the OpenAPI responses that say so.

A command's outcome is recorded whatever it is (``events.outcomes``); what its POST answers
says what became of it: 200 accepted, 202 queued, and a refusal a problem document
(``application/problem+json``) with the status that says why, the outcome itself nested under
``outcome`` (the RFC's ``status`` member is the HTTP status) and, for a seat, its next
``options``. The map, from the outcome's ``code``:

======================  ======  ===================================================
code                    status  what happened
======================  ======  ===================================================
``refused_by_rules``    409     the rules refuse it at the table as it is now
``stale_version``       412     ``If-Match`` is no longer the table's version
``invalid_input``       422     the table service's edge checks refused it as given
``invalid_command``     422     not a command (a worker's parse; the API parses first)
``invalid_id``          422     an id no store can keep
``command_id_reused``   422     the command id names another command already
``table_busy``          503     other writers kept the table moving: nothing applied
any other code          409     refused: the outcome's code and reason say why
======================  ======  ===================================================

A command to a table no one opened is 404 before it is kept or queued (``tables``).
``GET /v1/commands/{key}`` reads the outcome as a resource: 200 whatever the outcome is.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from events.outcomes import CommandOutcome
from services.api.problems import MEDIA_TYPE, PROBLEM_REF
from services.api.wire import (
    STATUS_OF_CODE,
    CommandAnswer,
    Queued,
    outcome_url,
    problem_type,
)

TITLE_OF_CODE = {
    "refused_by_rules": "Refused by the rules",
    "stale_version": "Stale version",
    "invalid_input": "Invalid input",
    "invalid_command": "Not a command",
    "invalid_id": "Invalid id",
    "command_id_reused": "Command id reused",
    "table_busy": "Table busy",
}
OTHER_REFUSAL = 409
BUSY_RETRY_AFTER = 1
"""Seconds before a command refused as busy is worth sending again (under a new key)."""
REFUSAL_REF = {"$ref": "#/components/schemas/CommandRefusal"}


def status_of(code: str | None) -> int:
    return STATUS_OF_CODE.get(code or "", OTHER_REFUSAL)


def answer(outcome: CommandOutcome | None, key: str, options: dict[str, Any] | None = None,
           *, refusal_in_status: bool = True) -> JSONResponse:  # fmt: skip
    """The outcome as its sender knows it (under its own key) with the sender's next options
    if it is a seat: 200 accepted, a refusal's problem document (or 200 with it, when the
    outcome is read as a resource: ``refusal_in_status`` False), or 202 with where to await it."""
    if outcome is None:
        queued = Queued(command_id=key, outcome_url=outcome_url(key))
        return JSONResponse(queued.model_dump(), status_code=202,
                            headers={"Location": outcome_url(key)})  # fmt: skip
    shown = outcome.model_dump(mode="json") | {"command_id": key}
    if refusal_in_status and not outcome.accepted:
        return refusal(shown, options)
    if options is not None:
        shown["options"] = options
    return JSONResponse(shown, status_code=200)


def refusal(outcome: dict[str, Any], options: dict[str, Any] | None) -> JSONResponse:
    """A refused ``outcome`` (as its sender knows it) as a problem document with its status."""
    code = outcome.get("code") or "refused"
    status = status_of(code)
    body: dict[str, Any] = {
        "type": problem_type(code), "title": TITLE_OF_CODE.get(code, "Refused"),
        "status": status, "detail": outcome.get("reason") or code, "outcome": outcome,
    }  # fmt: skip
    if options is not None:
        body["options"] = options
    again = {"Retry-After": str(BUSY_RETRY_AFTER)} if status == 503 else None
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=again)


def _types(status: int) -> str:
    return ", ".join(
        f"`{problem_type(c)}`" for c, given in STATUS_OF_CODE.items() if given == status
    )


def _either(description: str) -> dict[str, Any]:
    """A status answered by a command's refusal or by a problem of the request itself."""
    schema = {"anyOf": [REFUSAL_REF, PROBLEM_REF]}
    return {"description": description, "content": {MEDIA_TYPE: {"schema": schema}}}


RETRY_AFTER = {"Retry-After": {"description": "Seconds before sending it again",
                               "schema": {"type": "string"}}}  # fmt: skip


def outcome_schema(*, opens: bool = False) -> dict[int | str, dict[str, Any]]:
    """Every status a route that sends a command answers (``opens``: it opens the table, so an
    unknown table is no 404)."""
    found = {} if opens else {404: {
        "description": "No table has that id (nothing was kept or queued)",
        "content": {MEDIA_TYPE: {"schema": PROBLEM_REF}}}}  # fmt: skip
    return found | {
        200: {
            "model": CommandAnswer,
            "description": "Accepted: the outcome; a seat's own command's with the seat's"
            " next options",
        },
        202: {
            "model": Queued,
            "description": "Queued: await it at outcome_url",
            "headers": {
                "Location": {
                    "description": "Where its outcome will be",
                    "schema": {"type": "string"},
                }
            },
        },
        409: _either(
            f"Refused: {_types(409)} (or another code: the outcome's code says"
            " which), a CommandRefusal; or the same Idempotency-Key's first request"
            " still in flight, a problem"
        ),
        412: {
            "description": f"Refused: {_types(412)}: If-Match is no longer the table's"
            " version; the options are the table's now",
            "content": {MEDIA_TYPE: {"schema": REFUSAL_REF}},
        },
        422: _either(
            f"Refused: {_types(422)}, a CommandRefusal; or the request was invalid"
            " (the Idempotency-Key names another request of this sender), a problem"
        ),
        503: _either(
            f"Refused: {_types(503)} (send it again under a new key), a"
            " CommandRefusal; or the store or the table's rules version is not here"
            " just now, a problem"
        ),
    }


def outcome_resource_schema() -> dict[int | str, dict[str, Any]]:
    """``GET /v1/commands/{key}``: the outcome resource, 200 whatever the outcome is."""
    return {
        200: {
            "model": CommandAnswer,
            "description": "The outcome, accepted or refused (a refusal with its code and"
            " reason): the outcome exists, so reading it is a success",
        },
        202: {"model": Queued, "description": "Not run yet: ask again"},
    }


def outcome_of(answer: dict[str, Any]) -> dict[str, Any]:
    """The outcome a command's answer carries, whichever it is: a 200's body, or a refusal's
    ``outcome`` member (a client's one way to read both)."""
    nested = answer.get("outcome")
    if isinstance(nested, dict):
        return nested
    return {k: v for k, v in answer.items() if k != "options"}
