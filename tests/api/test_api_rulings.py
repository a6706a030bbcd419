"""A seat's rulings over HTTP: its own seat's, with its token, and no other seat's."""

from __future__ import annotations

import httpx
import pytest
from api_kit import Api, open_dealt_table

from services.rules.ready import NOT_OPEN

pytestmark = pytest.mark.anyio


async def test_a_seat_reads_its_rulings_with_its_token(api: Api, client: httpx.AsyncClient) -> None:
    table = await open_dealt_table(client, api.key)
    dealer = api.ctx.load(table.table_id).hand.dealer  # type: ignore[union-attr]
    for seat in range(4):
        found = await client.get(f"/v1/tables/{table.table_id}/seats/{seat}/rulings",
                                 headers=table.seat(seat))  # fmt: skip
        assert found.status_code == 200, found.text
        body = found.json()
        assert (body["seat"], body["variant"], body["hand_number"]) == (seat, "harbin", 1)
        # not open (开门) yet: no seat of a fresh 哈尔滨 hand may declare 听, and each is told so
        for blockers in [body["ready_blockers"]] if seat != dealer else [
                d["ready_blockers"] for d in body["discards"]]:  # fmt: skip
            assert NOT_OPEN in blockers, body


async def test_a_seat_token_reads_no_other_seats_rulings(api: Api, client: httpx.AsyncClient) -> None:
    table = await open_dealt_table(client, api.key)
    found = await client.get(f"/v1/tables/{table.table_id}/seats/1/rulings", headers=table.seat(0))
    assert found.status_code == 403 and "seat 0, not seat 1" in found.json()["detail"], found.text
    other = await open_dealt_table(client, api.key)
    found = await client.get(f"/v1/tables/{other.table_id}/seats/0/rulings", headers=table.seat(0))
    assert found.status_code == 403, found.text
