"""The platform's API over a home store and two table stores: the same routes, each table's
commands and stream served from its own store, an outcome naming its partition's position,
and the reads waiting for that position."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from services.api.app import create_api
from services.api.context import ApiContext
from services.api.server import ApiServer
from services.tables.partitions import split_position
from workers.embedded import EmbeddedWorker

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "api"))
from api_kit import platform_headers, read_events, table_body  # noqa: E402
from partition_kit import caught_up, settings_of  # noqa: E402
from test_partitioned_tables import tables_in  # noqa: E402


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ApiContext, str, str]]:
    root = tmp_path_factory.mktemp("partitioned-api")
    settings = settings_of(f"sqlite:///{root}/home.sqlite3",
                           {k: f"sqlite:///{root}/t{k}.sqlite3" for k in (1, 2)})  # fmt: skip
    settings = settings.model_copy(update={"api_command_wait": 5})
    ctx = ApiContext.open(settings)
    server = ApiServer(create_api(ctx))
    with EmbeddedWorker(ctx.app, concurrency=2):
        server.start()
        try:
            key = ctx.keys.create(["tables", "tokens", "operator", "reads"], "tests").token
            yield ctx, server.address, key
        finally:
            server.stop()
            ctx.close()


def opened_and_dealt(client: httpx.Client, key: str, table: str) -> list[str]:
    """The table opened and dealt through the platform's routes; its seats' tokens."""
    body = table_body(table)
    for path, json in (("/v1/tables", body), (f"/v1/tables/{table}/hands", None)):
        answer = client.post(path, json=json, headers=platform_headers(key, f"{table}-{path[-5:]}"))
        assert answer.status_code == 200, answer.text
    return [client.post(f"/v1/tables/{table}/seats/{seat}/tokens", json={"player": player},
                        headers=platform_headers(key)).json()["token"]
            for seat, player in enumerate(body["players"])]  # fmt: skip


def discard(
    client: httpx.Client, table: str, tokens: list[str], key: str
) -> tuple[int, dict[str, Any]]:
    for seat, token in enumerate(tokens):
        legal = client.get(f"/v1/tables/{table}/seats/{seat}/legal",
                           headers={"Authorization": f"Bearer {token}"}).json()  # fmt: skip
        found = [c for c in legal["commands"] if c["command"] == "discard_tile"]
        if found:
            answer = client.post(f"/v1/tables/{table}/commands", json=found[0], headers={
                "Authorization": f"Bearer {token}", "Idempotency-Key": key})  # fmt: skip
            assert answer.status_code == 200, answer.text
            return seat, dict(answer.json())
    raise AssertionError("no seat may discard")


def test_tables_of_two_stores_play_stream_and_read_their_writes_through_one_api(
    api: tuple[ApiContext, str, str],
) -> None:
    ctx, base, key = api
    with httpx.Client(base_url=base, timeout=20) as client:
        for number, table in ((1, tables_in(1, 1)[0]), (2, tables_in(2, 1)[0])):
            tokens = opened_and_dealt(client, key, table)
            assert ctx.parts.partitions().placed(table) == number
            seat, outcome = discard(client, table, tokens, f"d-{table}")
            assert split_position(outcome["last_position"])[0] == number
            assert ctx.parts.partitions().tables[number].read_stream(table)  # its own store
            read = client.get(
                f"/v1/commands/d-{table}", headers={"Authorization": f"Bearer {tokens[seat]}"}
            )
            assert (
                read.status_code == 200 and read.json()["last_position"] == outcome["last_position"]
            )
            frames = read_events(base, _table(table, tokens), 0, 1)  # the seat's stream serves
            assert frames and frames[0]["data"]
            params = {"min_position": outcome["last_position"], "wait": 0.2}
            behind = client.get(
                f"/v1/reads/tables/{table}", params=params, headers=platform_headers(key)
            )
            assert behind.status_code == 503, behind.text  # its partition's projector has not run
            caught_up(ctx.parts, number)
            fresh = client.get(
                f"/v1/reads/tables/{table}", params=params, headers=platform_headers(key)
            )
            assert fresh.status_code == 200, fresh.text
            assert fresh.json()["last_position"] == outcome["last_position"]
        beyond = client.get("/v1/reads/tables/x", params={"min_position": 9 << 40},
                            headers=platform_headers(key))  # fmt: skip
        assert beyond.status_code == 409 and "names partition 9" in beyond.text


def _table(table_id: str, tokens: list[str]) -> Any:
    from api_kit import Table

    return Table(table_id, tokens)
