"""schemathesis over the OpenAPI document, with all its checks (``fuzz_kit.all_checks``):
every route the app has when the test runs (the endless live streams excepted: they cannot
end in process), with data that fits the document and data that does not, under credentials
that get past auth (a key with every scope, the seat's token, an operator's) and some that do
not. Two phases: its coverage phase (each boundary of the document, a required header left
out, a method the route has not: deterministic, a sample of each route's cases) and its
fuzzing phase (derandomized). No answer may be a 5xx; every answer matches the document
(status, content type, headers, body); data that fits it is accepted, data that does not is
refused; a route that needs credentials refuses a request without them or with forged ones."""

from __future__ import annotations

import time
from typing import Any

import schemathesis
from api_kit import platform_headers
from fastapi import FastAPI
from fuzz_kit import Credentials, all_checks, best, send, streams
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.drivers import CoverageGenerator
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.meta import CoverageScenario
from schemathesis.generation.modes import GenerationMode
from schemathesis.generation.overrides import Override
from starlette.testclient import TestClient

CASES = 700
"""Cases in all, shared by the operations and the two modes."""
BUDGET_SECONDS = 45.0
"""On a loaded machine the later operations get fewer cases, to stay in budget: at least
``FLOOR`` of data that fits the document (so that how many routes answered a success does not
depend on the machine's load: the cases are derandomized) and 3 of data that does not."""
FLOOR = {GenerationMode.POSITIVE: 10, GenerationMode.NEGATIVE: 3}


def test_no_route_answers_5xx_or_outside_its_schema(fuzzed: tuple[FastAPI, Credentials]) -> None:
    app, credentials = fuzzed
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    all_checks(schema)
    operations = [r.ok() for r in schema.get_all_operations()]
    fuzzed_ones = [op for op in operations if not streams(op)]
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
    likely = best(operation.path)
    choice = st.sampled_from([likely, likely, likely, "key", "seat", "operator", "none"])

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(case=operation.as_strategy(generation_mode=mode), who=choice, known=st.booleans())
    def run(case: Any, who: str, known: bool) -> None:
        response = send(case, credentials, who, known)
        answered.setdefault(operation.label, set()).add(response.status_code)

    run()


COVERAGE_PER_ROUTE = 60
"""Coverage cases sent per route, beside every case that leaves out a required header or
sends a method the route has not (the checks only that phase runs): the first of each route's
deterministic list, which opens with its boundaries (the coverage phase has 2,679 in all)."""


def test_every_route_answers_the_coverage_phase_as_its_document_says(
    fuzzed: tuple[FastAPI, Credentials],
) -> None:
    app, credentials = fuzzed
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    all_checks(schema)
    failures: list[str] = []
    started, sent = time.monotonic(), 0
    for operation in [r.ok() for r in schema.get_all_operations()]:
        if streams(operation):
            continue
        for case in _coverage(schema, operation):
            sent += 1
            try:
                send(case, credentials, best(operation.path), known=True)
            except (Exception, BaseExceptionGroup) as error:  # the others still run
                failures.append(f"{operation.label}: {str(error)[:1500]}")
    print(f"{sent} coverage cases in {time.monotonic() - started:.1f} s")
    assert not failures, "\n\n".join(failures[:30])


def _coverage(schema: Any, operation: Any) -> list[Any]:
    """The route's coverage cases to send: those of the checks only this phase runs, and the
    first ``COVERAGE_PER_ROUTE`` of the rest."""
    generator = CoverageGenerator(
        operation=operation, generation_modes=list(GenerationMode),
        generation_config=schema.config.generation_for(operation=operation, phase="coverage"),
        auth_storage=None, override=Override(query={}, headers={}, cookies={}, path_parameters={}, body={}),
        feedback=FeedbackSources())  # fmt: skip
    special, rest = [], []
    for case in generator:
        data = case.meta.phase.data
        header_left_out = (data.scenario == CoverageScenario.MISSING_PARAMETER
                           and data.parameter_location == ParameterLocation.HEADER)  # fmt: skip
        other_method = data.scenario == CoverageScenario.UNSPECIFIED_HTTP_METHOD
        (special if header_left_out or other_method else rest).append(case)
    assert special or operation.method.upper() != "POST", operation.label  # some are looked at
    return special + rest[:COVERAGE_PER_ROUTE]


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
