"""schemathesis' stateful phase, with all its checks: calls chained by the links schemathesis
infers from the document (a table opened, then dealt, its commands, their outcomes, its view
and replay; a room put, then read; ...), each answer checked as in ``test_api_fuzz``, and the
checks that only act on chains (``use_after_free``, ``ensure_resource_availability``) acting.
Bounded: a fixed number of derandomized chains of a few steps each."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fuzz_kit import Credentials, all_checks, send, streams
from hypothesis import HealthCheck, Phase, settings

CHAINS = 40
STEPS = 6
_opened = itertools.count()


def fresh_players(case: Any) -> None:
    """A table opened with players and an id of its own, as a platform opens one: the
    generator repeats its ids from chain to chain, and a player sits at one table (decision
    18: a second table of theirs is 409), so no chain would get past its first step."""
    body = case.body
    if case.operation.label != "POST /v1/tables" or not isinstance(body, dict):
        return
    players = body.get("players")
    if isinstance(players, list) and len(players) == 4 and all(isinstance(p, str) for p in players):
        n = next(_opened)
        body["players"] = [f"chain{n}-{seat}" for seat in range(4)]
        body["table_id"] = f"chain-{n}"


def test_chained_calls_answer_as_the_document_says(fuzzed: tuple[FastAPI, Credentials]) -> None:
    app, credentials = fuzzed
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    all_checks(schema)
    live = [op.ok() for op in schema.get_all_operations() if streams(op.ok())]
    for operation in live:  # an endless stream cannot end in process: left out of the chains
        schema = schema.exclude(method=operation.method.upper(), path=operation.path)
    machine = schema.as_state_machine()
    links = [name for name, value in vars(machine).items() if hasattr(value, "hypothesis_stateful_rule")]
    assert len(links) >= 20, "schemathesis inferred too few links to chain calls"
    answered: dict[str, set[int]] = {}

    class Chains(machine):  # type: ignore[misc, valid-type]
        def call(self, case: Any, **kwargs: Any) -> Any:
            fresh_players(case)
            response = send(case, credentials, "key", known=False)
            answered.setdefault(case.operation.label, set()).add(response.status_code)
            return response

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            pass  # send() validated it with every check already

    Chains.run(settings=settings(max_examples=CHAINS, stateful_step_count=STEPS, deadline=None,
                                 database=None, derandomize=True,
                                 phases=[Phase.explicit, Phase.generate],
                                 suppress_health_check=list(HealthCheck)))  # fmt: skip
    chained = [label for label, statuses in answered.items() if any(s < 300 for s in statuses)]
    # the chains got past auth and validation: 8 operations answered a success when written
    assert len(chained) >= 6, answered


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
