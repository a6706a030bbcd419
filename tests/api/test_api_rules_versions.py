"""A table whose rules version this API process does not have: its view, its seats' commands
and its streams answer 503 (a problem naming the table's version and the versions this process
has, with Retry-After), from the app's one handler; nothing is queued and nothing stored
changes. The table is opened and dealt while the process has its version, then the process
stops knowing it (``versions.known_only``), as an API process of the release before would."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from api_kit import Table, open_dealt_table, platform_headers, turn_and_discard

from services.api.app import create_api
from services.api.problems import MEDIA_TYPE, RULES_RETRY_AFTER
from services.rules import RULES_VERSION
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv
from services.tables.runner import outcome_store

HARBIN = VARIANTS["harbin"]
NEWER = rv.ENGINE.derived(
    "paiju-rules/api-test", "哈尔滨 turns of 20 seconds",
    harbin=dataclasses.replace(HARBIN, config=dataclasses.replace(
        HARBIN.config, timing=dataclasses.replace(HARBIN.config.timing, turn=20))),
)  # fmt: skip
pytestmark = pytest.mark.anyio


@pytest.fixture
async def newer_table(client: httpx.AsyncClient, api) -> AsyncIterator[Table]:  # type: ignore[no-untyped-def]
    """A dealt 哈尔滨 table opened under NEWER; within the test, the process has only ENGINE."""
    with rv.known_only(rv.ENGINE, NEWER, current=NEWER.id):
        table = await open_dealt_table(client, api.key)
        assert api.ctx.load(table.table_id).rules_version == NEWER.id
    with rv.known_only(rv.ENGINE):
        yield table


def stored(api) -> Iterator[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    return ((e.stream_id, e.version, e.hash) for e in api.ctx.store.read_all(0, 100_000))


def assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"] == MEDIA_TYPE
    assert response.headers["Retry-After"] == str(RULES_RETRY_AFTER)
    body = response.json()
    assert (body["status"], body["title"]) == (503, "Rules version unavailable")
    assert (body["rules_version"], body["known_versions"]) == (NEWER.id, [RULES_VERSION])
    assert NEWER.id in body["detail"] and RULES_VERSION in body["detail"]


async def test_the_view_of_a_table_of_a_version_this_process_lacks_is_503_naming_both(
    client: httpx.AsyncClient, newer_table: Table
) -> None:
    for seat in (0, 1):
        assert_unavailable(await client.get(f"/v1/tables/{newer_table.table_id}/view",
                                            headers=newer_table.seat(seat)))  # fmt: skip
    assert_unavailable(await client.get(f"/v1/tables/{newer_table.table_id}/seats/0/legal",
                                        headers=newer_table.seat(0)))  # fmt: skip


async def test_its_seats_stream_is_503_before_its_first_byte(
    client: httpx.AsyncClient, newer_table: Table
) -> None:
    url = f"/v1/tables/{newer_table.table_id}/seats/0/events"
    assert_unavailable(await client.get(url, headers=newer_table.seat(0)))


async def test_a_command_to_it_is_503_and_nothing_is_stored(
    client: httpx.AsyncClient, api, newer_table: Table  # type: ignore[no-untyped-def]
) -> None:
    with rv.known_only(rv.ENGINE, NEWER):
        seat, discard = await turn_and_discard(client, newer_table)
    before = list(stored(api))
    headers = {**newer_table.seat(seat), "Idempotency-Key": "c-rules-1"}
    assert_unavailable(await client.post(f"/v1/tables/{newer_table.table_id}/commands",
                                         json=discard, headers=headers))  # fmt: skip
    deal = await client.post(f"/v1/tables/{newer_table.table_id}/hands",
                             headers=platform_headers(api.key, "deal-rules-2"))  # fmt: skip
    assert_unavailable(deal)
    assert list(stored(api)) == before
    outcomes = outcome_store(api.ctx.store)
    assert outcomes.load_outcome("c-rules-1") is None and outcomes.load_outcome("deal-rules-2") is None


async def test_once_the_process_has_the_version_again_the_same_table_is_served(
    client: httpx.AsyncClient, newer_table: Table
) -> None:
    with rv.known_only(rv.ENGINE, NEWER):
        view = await client.get(f"/v1/tables/{newer_table.table_id}/view",
                                headers=newer_table.seat(0))  # fmt: skip
    assert view.status_code == 200 and view.json()["table_id"] == newer_table.table_id


def test_the_openapi_document_lists_503_as_a_problem(api) -> None:  # type: ignore[no-untyped-def]
    document = create_api(api.ctx).openapi()
    view = document["paths"]["/v1/tables/{table_id}/view"]["get"]["responses"]
    assert "503" in view
