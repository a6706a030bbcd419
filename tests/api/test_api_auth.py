"""Who may do what: API keys (hashed, scoped, revocable) and table tokens (signed, bound to
one table and one seat, short-lived)."""

from __future__ import annotations

import sqlite3

import httpx
import jwt
import pytest
from api_kit import Api, new_id, open_dealt_table, platform_headers, table_body, turn_and_discard

from services.api.tokens import TokenProblem, TokenSigner

pytestmark = pytest.mark.anyio


async def test_seat_a_token_cannot_act_or_read_for_seat_b(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, table)
    other = (seat + 1) % 4
    acted = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                              headers={**table.seat(other), "Idempotency-Key": new_id("c")})  # fmt: skip
    assert acted.status_code == 403
    assert acted.json()["detail"] == f"this token is for seat {other}, not seat {seat}"
    legal = await client.get(f"/v1/tables/{table.table_id}/seats/{seat}/legal", headers=table.seat(other))
    assert legal.status_code == 403
    stream = await client.get(f"/v1/tables/{table.table_id}/seats/{seat}/events", headers=table.seat(other))
    assert stream.status_code == 403


async def test_a_token_of_table_x_works_on_no_other_table(client: httpx.AsyncClient, api: Api) -> None:
    x = await open_dealt_table(client, api.key)
    y = await open_dealt_table(client, api.key)
    seat, discard = await turn_and_discard(client, y)
    for answer in (
        await client.get(f"/v1/tables/{y.table_id}/view", headers=x.seat(seat)),
        await client.get(f"/v1/tables/{y.table_id}/seats/{seat}/legal", headers=x.seat(seat)),
        await client.post(f"/v1/tables/{y.table_id}/commands", json=discard,
                          headers={**x.seat(seat), "Idempotency-Key": new_id("c")}),
    ):  # fmt: skip
        assert answer.status_code == 403
        assert answer.json()["detail"] == f"this token is for table {x.table_id!r}, not {y.table_id!r}"


async def test_expired_and_forged_tokens_are_refused(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    expired, _ = api.ctx.signer.mint("seat", table.table_id, "ann", -30, 0)
    forged, _ = TokenSigner(b"x" * 32).mint("seat", table.table_id, "ann", 600, 0)
    claims = jwt.decode(table.tokens[1], options={"verify_signature": False})
    head, _, sig = table.tokens[1].split(".")
    retargeted = jwt.encode({**claims, "seat": 0}, "not-the-secret-of-the-api-" * 2)
    tampered = ".".join([head, retargeted.split(".")[1], sig])
    url = f"/v1/tables/{table.table_id}/seats/0/legal"
    answers = {name: await client.get(url, headers={"Authorization": f"Bearer {token}"})
               for name, token in [("expired", expired), ("forged", forged), ("tampered", tampered)]}  # fmt: skip
    assert {name: a.status_code for name, a in answers.items()} == dict.fromkeys(answers, 401)
    assert "expired" in answers["expired"].json()["detail"]
    assert "Signature verification failed" in answers["forged"].json()["detail"]
    assert (await client.get(url, headers=table.seat(0))).status_code == 200


async def test_unknown_malformed_and_revoked_keys_are_refused(client: httpx.AsyncClient, api: Api) -> None:
    made = api.ctx.keys.create(["tables", "tokens"], "to revoke")
    body = table_body(new_id("t"))
    key_id, secret = made.token.removeprefix("pk_").split(".")
    wrong_secret = f"pk_{key_id}.{'A' * len(secret)}"
    for bad in (wrong_secret, "pk_0123456789abcdef.nope", "pk_short"):
        refused = await client.post("/v1/tables", json=body, headers=platform_headers(bad, new_id("o")))
        assert refused.status_code == 401
        assert refused.json()["detail"] == "the API key is unknown, malformed or revoked"
    api.ctx.keys.revoke(made.key.key_id)
    revoked = await client.post("/v1/tables", json=body, headers=platform_headers(made.token, new_id("o")))
    assert revoked.status_code == 401


async def test_a_key_without_the_scope_is_refused_naming_the_scope(client: httpx.AsyncClient, api: Api) -> None:
    tokens_only = api.ctx.keys.create(["tokens"]).token
    refused = await client.post("/v1/tables", json=table_body(new_id("t")),
                                headers=platform_headers(tokens_only, new_id("o")))  # fmt: skip
    assert refused.status_code == 403
    assert "lacks the 'tables' scope" in refused.json()["detail"]
    table = await open_dealt_table(client, api.key)
    operator = await client.post(f"/v1/tables/{table.table_id}/tokens",
                                 json={"role": "operator", "subject": "ops"},
                                 headers=platform_headers(tokens_only))  # fmt: skip
    assert operator.status_code == 403 and "'operator' scope" in operator.json()["detail"]


def test_a_key_is_stored_only_as_a_hash(api: Api) -> None:
    made = api.ctx.keys.create(["tables"], "hash check")
    secret = made.token.split(".", 1)[1]
    with sqlite3.connect(api.ctx.keys.path) as conn:
        stored = conn.execute("SELECT secret_hash FROM api_keys WHERE key_id = ?",
                              (made.key.key_id,)).fetchone()[0]  # fmt: skip
    assert secret not in stored and len(stored) == 64
    assert api.ctx.keys.verify(made.token) == made.key


async def test_a_seat_token_is_minted_only_for_that_seats_player(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    wrong = await client.post(f"/v1/tables/{table.table_id}/seats/2/tokens", json={"player": "ann"},
                              headers=platform_headers(api.key))  # fmt: skip
    assert wrong.status_code == 409
    assert wrong.json()["detail"] == f"seat 2 of table {table.table_id} is 'cy-{table.table_id}', not 'ann'"


async def test_a_spectator_sees_what_player_view_gives_a_spectator(client: httpx.AsyncClient, api: Api) -> None:
    table = await open_dealt_table(client, api.key)
    minted = await client.post(f"/v1/tables/{table.table_id}/tokens",
                               json={"role": "spectator", "subject": "fan"},
                               headers=platform_headers(api.key))  # fmt: skip
    spectator = {"Authorization": f"Bearer {minted.json()['token']}"}
    seen = await client.get(f"/v1/tables/{table.table_id}/view", headers=spectator)
    assert seen.status_code == 200
    assert seen.json() == api.ctx.service.view(table.table_id, None)
    assert seen.json() != api.ctx.service.view(table.table_id, None, operator=True)
    _, discard = await turn_and_discard(client, table)
    acted = await client.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                              headers={**spectator, "Idempotency-Key": new_id("c")})  # fmt: skip
    assert acted.status_code == 403


def test_a_token_checked_once_is_still_refused_once_it_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    signer = TokenSigner(b"s" * 32)
    token, claims = signer.mint("seat", "t1", "ann", 60, 2)
    assert signer.read(token) == claims == signer.read(token)  # the second from what it kept
    later = claims.expires_at + 1.0
    monkeypatch.setattr("services.api.tokens.time.time", lambda: later)
    with pytest.raises(TokenProblem, match="expired"):
        signer.read(token)
    forged = token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]
    with pytest.raises(TokenProblem, match="not valid"):
        TokenSigner(b"s" * 32).read(forged)
