"""Issue 21, item 5: an Idempotency-Key reused, as the IETF Idempotency-Key draft answers it.

The attack: the same key sent again with another body was answered 200 with the first body's
outcome, and nothing said the second was never run. Now the same key with another request is
422 (nothing more is stored), a copy while the first is still in flight 409 (with where its
outcome will be), and the same request once it ran the first answer, byte for byte.
"""

from __future__ import annotations

from security_kit import Served, new_id, outcome_of, wait_until, workers_stopped


def test_the_same_key_with_another_command_is_422_and_runs_nothing(embedded: Served) -> None:
    table = embedded.seated_table(embedded.key())
    key = new_id("k")
    url = f"/v1/tables/{table.table_id}/commands"
    with embedded.client() as http:
        first = http.post(url, json={"command": "pass_claim", "seat": 1},
                          headers={**table.seat(1), "Idempotency-Key": key})  # fmt: skip
        assert first.status_code == 409 and outcome_of(first)["status"] == "refused", first.text
        version = http.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(1)).headers["ETag"]
        other = http.post(url, json={"command": "request_autoplay", "seat": 1},
                          headers={**table.seat(1), "Idempotency-Key": key})  # fmt: skip
        assert other.status_code == 422, other.text
        assert other.json()["title"] == "Idempotency-Key reused" and key in other.json()["detail"]
        guarded = http.post(url, json={"command": "pass_claim", "seat": 1},
                            headers={**table.seat(1), "Idempotency-Key": key, "If-Match": version})  # fmt: skip
        assert guarded.status_code == 422  # another If-Match is another request too
        after = http.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(1))
        assert after.headers["ETag"] == version  # nothing was run: no 托管 was asked
        assert outcome_of(http.get(f"/v1/commands/{key}", headers=table.seat(1))) == outcome_of(first)


def test_the_platforms_key_reused_for_another_table_is_422(embedded: Served) -> None:
    key = embedded.key()
    open_key = new_id("open")
    auth = {"Authorization": f"Bearer {key}"}
    with embedded.client() as http:
        body = {"table_id": new_id("t"), "variant": "harbin", "players": [new_id("p") for _ in range(4)]}
        first = http.post("/v1/tables", json=body, headers={**auth, "Idempotency-Key": open_key})
        assert first.status_code == 200 and first.json()["status"] == "accepted", first.text
        again = http.post("/v1/tables", json=body, headers={**auth, "Idempotency-Key": open_key})
        assert again.status_code == 200 and again.json() == first.json()  # the first answer
        other = {**body, "table_id": new_id("t"), "players": [new_id("q") for _ in range(4)]}
        reused = http.post("/v1/tables", json=other, headers={**auth, "Idempotency-Key": open_key})
        assert reused.status_code == 422, reused.text
        view = http.post(f"/v1/tables/{other['table_id']}/tokens", headers=auth,
                         json={"role": "spectator", "subject": "w"})  # fmt: skip
        assert view.status_code == 404  # never opened


def test_a_copy_of_a_command_in_flight_is_409_then_the_first_answer(distributed: Served) -> None:
    table = distributed.seated_table(distributed.key())
    key = new_id("k")
    url = f"/v1/tables/{table.table_id}/commands"
    command = {"command": "pass_claim", "seat": 2}
    headers = {**table.seat(2), "Idempotency-Key": key}
    with distributed.client() as http:
        with workers_stopped(distributed):
            queued = http.post(url, json=command, headers=headers)
            assert queued.status_code == 202, queued.text
            copy = http.post(url, json=command, headers=headers)
            assert copy.status_code == 409, copy.text
            assert copy.json()["title"] == "Command in flight"
            assert copy.headers["Location"] == queued.headers["Location"] == f"/v1/commands/{key}"
            assert copy.headers["Retry-After"]
            other = http.post(url, json={"command": "request_autoplay", "seat": 2}, headers=headers)
            assert other.status_code == 422  # in flight or not, another request is refused
        outcome = http.get(queued.headers["Location"], params={"wait": 10}, headers=table.seat(2))
        # Refused, unless the dealer's 2-second clock ran out first and opened a claim window
        # seat 2 may pass: either way the command ran once and has its outcome.
        assert outcome.status_code == 200 and outcome.json()["status"] in {"accepted", "refused"}
        in_flight = lambda: http.post(url, json=command, headers=headers).json().get("title") == "Command in flight"  # noqa: E731
        assert wait_until(lambda: not in_flight(), 10)  # then the first's answer, 200 or a refusal
        assert outcome_of(http.post(url, json=command, headers=headers)) == outcome_of(outcome)
