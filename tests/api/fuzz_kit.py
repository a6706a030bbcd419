"""The fuzzer's side of ``test_api_fuzz``: schemathesis with all its checks, the credentials a
case is sent with, and one case sent as a well-behaved client would send it."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from api_kit import Table, table_body
from schemathesis.checks import not_a_server_error
from schemathesis.config import PositiveDataAcceptanceConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import negated_parameters


@schemathesis.check
def no_server_fault(ctx: Any, response: Any, case: Any) -> bool | None:
    """No 5xx, but a documented 503 with Retry-After ("the read model is behind the position
    you asked for") is an answer, not a fault."""
    documented = str(response.status_code) in case.operation.definition.raw.get("responses", {})
    if response.status_code == 503 and documented and "retry-after" in response.headers:
        return None
    return not_a_server_error(ctx, response, case)


STATE_STATUSES = ["412"]
"""Answers to well-formed data that depend on the table's state, as 409 does (which
schemathesis allows already): a stale If-Match is refused 412, however well formed."""


def all_checks(schema: Any) -> None:
    """Every check schemathesis has (its "all"), ours standing for its server-error check."""
    schema.config.checks.update(included_check_names=["all"],
                                excluded_check_names=[not_a_server_error.__name__])  # fmt: skip
    accepted = schema.config.checks.positive_data_acceptance.expected_statuses  # its defaults
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=[*accepted, *STATE_STATUSES])


@dataclass
class Credentials:
    key: str
    table: Table
    operator: str
    fresh: Iterator[int] = field(default_factory=itertools.count)

    def for_case(self, choice: str, path: dict[str, Any]) -> str | None:
        seat = path.get("seat")
        seat = seat if isinstance(seat, int) and 0 <= seat <= 3 else 0
        return {"key": self.key, "seat": self.table.tokens[seat], "operator": self.operator,
                "none": None}[choice]  # fmt: skip


def streams(operation: Any) -> bool:
    responses = operation.definition.raw.get("responses", {})
    return any("text/event-stream" in r.get("content", {}) for r in responses.values())


def best(path: str) -> str:
    """The credential a route most likely wants: a seat's routes a token, the rest (a replay
    of a seat's view too: support's, not the seat's) a key."""
    seats = ("{seat}" in path and not path.startswith("/v1/ops/")) or path.endswith("/view")
    return "seat" if seats or "/commands/" in path else "key"


def known_value(name: str, table: Table) -> Any:
    players = table_body(table.table_id)["players"]
    return {"table_id": table.table_id, "player": players[1], "variant": "harbin",
            "hand": 1}.get(name)  # fmt: skip


def send(case: Any, credentials: Credentials, who: str, known: bool) -> Any:
    """``case`` sent as ``who`` (a key, a seat's token, an operator's, none), its path's ids
    the fuzzed table's where ``known``, under a fresh Idempotency-Key, and checked by every
    check the schema's config enables; the response."""
    waits = {p["name"] for p in case.operation.definition.raw.get("parameters", [])
             if p.get("in") == "query" and p["name"] == "wait"}  # fmt: skip
    # what a negative case made invalid stays invalid: neither its path nor a missing
    # Authorization is replaced by a good one (else it is valid, and rightly accepted)
    negated = {(str(name).lower(), location.value) for name, location in negated_parameters(case.meta)}
    path = case.path_parameters or {}
    for name in path:
        value = known_value(name, credentials.table)
        if known and value is not None and not case.meta.is_negative_at(ParameterLocation.PATH):
            path[name] = value
    if "wait" in waits:  # awaiting what never comes would only spend the budget
        case.query = {**(case.query or {}), "wait": 0}
    raw = None if ("authorization", "header") in negated else credentials.for_case(who, path)
    headers = dict(case.headers or {})
    headers.pop("Authorization", None)
    keys = [name for name in headers if name.lower() == "idempotency-key"]
    if keys and ("idempotency-key", "header") not in negated:
        # one key per request, as the protocol asks: the same key with another request is
        # refused 422 (the IETF draft's answer), which says nothing of the document
        headers[keys[0]] = f"fuzz-{next(credentials.fresh)}"
    if raw is not None:
        headers["Authorization"] = f"Bearer {raw}"
    case.headers = headers
    # credentials given, as schemathesis' own auth providers mark them: ignored_auth then
    # tries the route without them and with forged ones, and expects a 401 or 403
    case._has_explicit_auth = raw is not None
    return case.call_and_validate()  # the checks the schema's config enables: all
