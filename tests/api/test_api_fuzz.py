"""schemathesis over the OpenAPI document: every route the app has when the test runs (the
endless live streams excepted: they cannot end in process), with data that fits the document
and data that does not, under credentials that get past auth (a key with every scope, the
seat's token, an operator's) and some that do not. No answer may be a 5xx, and every answer
must match the document: status, content type, headers and body schema."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from api_kit import Api, Table, open_dealt_table_sync, platform_headers, table_body
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.config._checks import (
    POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES,
    PositiveDataAcceptanceConfig,
)
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import negated_parameters
from schemathesis.generation.modes import GenerationMode
from starlette.testclient import TestClient

from readmodels import catalog
from readmodels.runner import Projector
from services.api.app import create_api
from services.api.keys import SCOPES


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
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(
        expected_statuses=POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES + STATE_STATUSES)


CASES = 700
"""Cases in all, shared by the operations and the two modes."""
BUDGET_SECONDS = 45.0
"""On a loaded machine the later operations get fewer cases, to stay in budget: at least
``FLOOR`` of data that fits the document (so that how many routes answered a success does not
depend on the machine's load: the cases are derandomized) and 3 of data that does not."""
FLOOR = {GenerationMode.POSITIVE: 10, GenerationMode.NEGATIVE: 3}


@dataclass
class Credentials:
    key: str
    table: Table
    operator: str

    def for_case(self, choice: str, path: dict[str, Any]) -> str | None:
        seat = path.get("seat")
        seat = seat if isinstance(seat, int) and 0 <= seat <= 3 else 0
        return {"key": self.key, "seat": self.table.tokens[seat], "operator": self.operator,
                "none": None}[choice]  # fmt: skip


@asynccontextmanager
async def _no_lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield  # the module's server runs the context's threads; the fuzzer's client must not


@pytest.fixture(scope="module")
def fuzzed(api: Api) -> Iterator[tuple[FastAPI, Credentials]]:
    """The app with its limits off (the fuzzer sends thousands), a dealt table and tokens."""
    settings = api.ctx.settings
    api.ctx.settings = settings.model_copy(update={
        "api_rate_limit_key": "", "api_rate_limit_commands": "", "api_rate_limit_reads": "",
        "api_rate_limit_anonymous": "", "api_command_wait": 0.5})  # fmt: skip
    try:
        app = create_api(api.ctx)
    finally:
        api.ctx.settings = settings
    app.router.lifespan_context = _no_lifespan
    key = api.ctx.keys.create(list(SCOPES), "fuzz").token
    with TestClient(app) as client:
        table = open_dealt_table_sync(client, key)
        minted = client.post(f"/v1/tables/{table.table_id}/tokens", headers=platform_headers(key),
                             json={"role": "operator", "subject": "fuzz"})  # fmt: skip
        operator = minted.json()["token"]
    projector = Projector(api.ctx.store, api.ctx.read_models(), list(catalog.ALL))
    projector.attach()
    projector.catch_up()  # the read models built, so reads answer rather than "behind"
    yield app, Credentials(key, table, operator)


def _streams(operation: Any) -> bool:
    responses = operation.definition.raw.get("responses", {})
    return any("text/event-stream" in r.get("content", {}) for r in responses.values())


def _best(path: str) -> str:
    """The credential a route most likely wants: a seat's routes a token, the rest a key."""
    return "seat" if "{seat}" in path or path.endswith("/view") or "/commands/" in path else "key"


def _known(name: str, table: Table) -> Any:
    players = table_body(table.table_id)["players"]
    return {"table_id": table.table_id, "player": players[1], "variant": "harbin"}.get(name)


def test_no_route_answers_5xx_or_outside_its_schema(fuzzed: tuple[FastAPI, Credentials]) -> None:
    app, credentials = fuzzed
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    all_checks(schema)
    operations = [r.ok() for r in schema.get_all_operations()]
    fuzzed_ones = [op for op in operations if not _streams(op)]
    assert len(fuzzed_ones) >= 10 and len(fuzzed_ones) < len(operations)
    runs = [(op, mode) for op in fuzzed_ones
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)]  # fmt: skip
    most = max(5, CASES // len(runs))
    examples, cases = most, 0
    failures: list[str] = []
    answered: dict[str, set[int]] = {}
    started = time.monotonic()
    for done, (operation, mode) in enumerate(runs):
        spent = time.monotonic() - started
        if cases:  # what a case has cost so far, for what is left of the budget
            fits = (BUDGET_SECONDS - spent) / (len(runs) - done) / (spent / cases)
            examples = max(FLOOR[mode], min(most, int(fits)))
        cases += examples
        try:
            _fuzz(operation, mode, credentials, examples, answered)
        except Unsatisfiable:  # nothing to send wrong: a route with no parameter, no body
            assert mode == GenerationMode.NEGATIVE, operation.label
        except (Exception, BaseExceptionGroup) as error:  # the others still run
            failures.append(f"{operation.label} ({mode.value}): {str(error)[:2000]}")
    print(f"{cases} cases over {len(runs)} runs in {time.monotonic() - started:.1f} s")
    assert time.monotonic() - started < 600  # bounded, whatever the routes do
    assert not failures, "\n\n".join(failures)
    # Past auth, and past validation: most routes answered something successful.
    succeeded = [label for label, statuses in answered.items() if any(s < 300 for s in statuses)]
    assert len(succeeded) >= 0.7 * len(fuzzed_ones), {k: sorted(v) for k, v in answered.items()}


def _fuzz(operation: Any, mode: GenerationMode, credentials: Credentials, examples: int,
          answered: dict[str, set[int]]) -> None:  # fmt: skip
    best = _best(operation.path)
    parameters = operation.definition.raw.get("parameters", [])
    waits = {p["name"] for p in parameters if p.get("in") == "query" and p["name"] == "wait"}
    choice = st.sampled_from([best, best, best, "key", "seat", "operator", "none"])
    fresh = itertools.count()

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(case=operation.as_strategy(generation_mode=mode), who=choice, known=st.booleans())
    def run(case: Any, who: str, known: bool) -> None:
        # what a negative case made invalid stays invalid: neither its path nor a missing
        # Authorization is replaced by a good one (else it is valid, and rightly accepted)
        negated = {(str(name).lower(), location.value) for name, location in negated_parameters(case.meta)}
        path = case.path_parameters or {}
        for name in path:
            value = _known(name, credentials.table)
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
            headers[keys[0]] = f"fuzz-{next(fresh)}"
        if raw is not None:
            headers["Authorization"] = f"Bearer {raw}"
        case.headers = headers
        # credentials given, as schemathesis' own auth providers mark them: ignored_auth then
        # tries the route without them and with forged ones, and expects a 401 or 403
        case._has_explicit_auth = raw is not None
        response = case.call_and_validate()  # the checks the schema's config enables: all
        answered.setdefault(operation.label, set()).add(response.status_code)

    run()


def test_every_route_documents_the_problems_any_route_may_answer(
    fuzzed: tuple[FastAPI, Credentials],
) -> None:
    app, _ = fuzzed
    with TestClient(app) as client:
        document = client.get("/openapi.json").json()
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            documented = set(operation["responses"])
            assert {"409", "413", "422", "429", "500"} <= documented, (method, path)


# Regressions: what the fuzzer found, each answered as it should be now.


def test_an_outcome_asked_by_an_id_beyond_latin_1_is_a_problem_naming_it_not_a_500(
    fuzzed: tuple[FastAPI, Credentials],
) -> None:
    app, credentials = fuzzed
    with TestClient(app) as client:
        answer = client.get('/v1/commands/ā"õ', headers=platform_headers(credentials.key))
    assert answer.status_code == 404, answer.text
    assert answer.json()["detail"] == "you sent no command under Idempotency-Key 'ā\"õ'"


def test_the_replay_export_is_documented_as_the_json_lines_it_sends(
    fuzzed: tuple[FastAPI, Credentials],
) -> None:
    app, credentials = fuzzed
    with TestClient(app) as client:
        document = client.get("/openapi.json").json()
        export = client.get(f"/v1/ops/replay/tables/{credentials.table.table_id}/export",
                            headers=platform_headers(credentials.key))  # fmt: skip
    assert export.status_code == 200 and export.headers["content-type"] == "application/x-ndjson"
    responses = document["paths"]["/v1/ops/replay/tables/{table_id}/export"]["get"]["responses"]
    assert "application/x-ndjson" in responses["200"]["content"]
