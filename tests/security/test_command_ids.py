"""Issue 21, item 1: a client's Idempotency-Key names a command only within what sent it, and
the ids the service gives its own commands are out of every client's reach.

The attacks, as a hostile seat made them: name the id its own table's turn timer fires under
(the timer then took the seat's refusal as its own outcome and never timed the seat out); name
another table's timer id from a seat of this one; name a room's next table's opening id (the
room then never opened it). Each is made under every form the id has had, and the tables must
be timed out and opened all the same; and an outcome is told only to the sender of its key.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from security_kit import SeatedTable, Served, new_id, outcome_of, wait_until

from services.tables.command_ids import service_command_id

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def view(http: httpx.Client, table: SeatedTable, seat: int) -> tuple[dict[str, Any], int]:
    answer = http.get(f"/v1/tables/{table.table_id}/view", headers=table.seat(seat))
    assert answer.status_code == 200, answer.text
    return answer.json(), int(answer.headers["ETag"].strip('"'))


def timer_ids(table_id: str, seat: int, version: int) -> list[str]:
    """Every id the turn timer of ``seat`` could fire under, near ``version``: the forms the
    timers have used (``timeout:<table>:turn:...``) and the service's own (``p:timeout:...``)."""
    found = []
    for v in range(max(1, version - 3), version + 2):
        key = f"turn:{seat}:v{v}"
        found += [f"timeout:{table_id}:{key}", service_command_id("timeout", table_id, key)]
    return found


def pre_claim(http: httpx.Client, attacker: SeatedTable, seat: int, ids: list[str]) -> None:
    """Send a command bound to be refused under each of ``ids`` (the attack)."""
    for command_id in ids:
        answer = http.post(f"/v1/tables/{attacker.table_id}/commands",
                           json={"command": "pass_claim", "seat": seat},
                           headers={**attacker.seat(seat), "Idempotency-Key": command_id})  # fmt: skip
        assert answer.status_code == 409, answer.text  # nothing to pass: recorded as its refusal
        assert outcome_of(answer)["status"] == "refused"
        assert outcome_of(answer)["command_id"] == command_id  # told under its own key


def timed_out(http: httpx.Client, table: SeatedTable, seat: int, seconds: float = 30) -> bool:
    """The seat on turn was timed out (超时托管) by the table's timer."""
    return wait_until(lambda: view(http, table, seat)[0]["presence"][seat]["autoplay"] == "timeout",
                      seconds, 0.3)  # fmt: skip


def on_turn(http: httpx.Client, table: SeatedTable) -> tuple[int, int]:
    seen, version = view(http, table, 0)
    return seen["hand"]["turn"], version


@pytest.mark.parametrize("served", ["embedded", "distributed"])
def test_a_seat_naming_its_own_turn_timers_id_is_timed_out_all_the_same(
    served: str, request: pytest.FixtureRequest
) -> None:
    serve: Served = request.getfixturevalue(served)
    table = serve.seated_table(serve.key())
    with serve.client() as http:
        seat, version = on_turn(http, table)
        pre_claim(http, table, seat, timer_ids(table.table_id, seat, version))
        assert timed_out(http, table, seat)


def test_a_seat_of_one_table_naming_another_tables_timer_id_does_not_stop_its_clock(
    embedded: Served,
) -> None:
    key = embedded.key()
    attacker, victim = embedded.seated_table(key), embedded.seated_table(key)
    with embedded.client() as http:
        seat, version = on_turn(http, victim)
        pre_claim(http, attacker, 0, timer_ids(victim.table_id, seat, version))
        assert timed_out(http, victim, seat)


def test_a_seat_naming_a_rooms_next_opening_does_not_stop_the_room(embedded: Served) -> None:
    key = embedded.key()
    attacker = embedded.seated_table(key)
    room = new_id("room")
    auth = {"Authorization": f"Bearer {key}"}
    with embedded.client() as http:
        made = http.put(f"/v1/rooms/{room}", json={"variant": "harbin", "minimum_points": 0},
                        headers=auth)  # fmt: skip
        assert made.status_code in (200, 201), made.text
        table_id = f"{room}.1"
        ids = [f"{table_id}:open", f"{table_id}:deal-1", service_command_id("open", table_id),
               service_command_id("deal", table_id, "1")]  # fmt: skip
        pre_claim(http, attacker, 1, ids)
        players = [new_id(p) for p in ("ann", "bo", "cy", "di")]
        for player in players:
            joined = http.post(f"/v1/rooms/{room}/players/{player}/join", headers=auth)
            assert joined.status_code == 200, joined.text
        answers = [http.post(f"/v1/rooms/{room}/players/{p}/ready", headers=auth) for p in players]
        assert answers[-1].status_code == 200, answers[-1].text
        assert answers[-1].json()["started"] and answers[-1].json()["table_id"] == table_id
        minted = http.post(f"/v1/tables/{table_id}/tokens", headers=auth,
                           json={"role": "spectator", "subject": "a-watcher"})  # fmt: skip
        assert minted.status_code == 200, minted.text
        seen = http.get(f"/v1/tables/{table_id}/view",
                        headers={"Authorization": f"Bearer {minted.json()['token']}"})  # fmt: skip
        assert seen.status_code == 200 and seen.json()["hand"] is not None  # opened and dealt


def test_an_outcome_is_told_only_to_the_sender_of_its_key(embedded: Served) -> None:
    key = embedded.key()
    table = embedded.seated_table(key)
    command_key = new_id("mine")
    with embedded.client() as http:
        sent = http.post(f"/v1/tables/{table.table_id}/commands",
                         json={"command": "pass_claim", "seat": 2},
                         headers={**table.seat(2), "Idempotency-Key": command_key})  # fmt: skip
        assert sent.status_code in (200, 409) and outcome_of(sent)["command_id"] == command_key
        own = http.get(f"/v1/commands/{command_key}", headers=table.seat(2))
        assert own.status_code == 200 and outcome_of(own) == outcome_of(sent)
        for other in ({**table.seat(1)}, {"Authorization": f"Bearer {key}"},
                      {"Authorization": f"Bearer {embedded.key('tables')}"}):  # fmt: skip
            theirs = http.get(f"/v1/commands/{command_key}", headers=other)
            assert theirs.status_code == 404, theirs.text
        # the same key from another seat is another command: its own outcome, not seat 2's
        again = http.post(f"/v1/tables/{table.table_id}/commands",
                          json={"command": "pass_claim", "seat": 1},
                          headers={**table.seat(1), "Idempotency-Key": command_key})  # fmt: skip
        assert again.status_code in (200, 409) and outcome_of(again)["actor_seat"] == 1
