"""A seat's live stream on a real socket (uvicorn on 127.0.0.1): its own tiles and no one
else's, resumed after a drop with nothing lost or repeated, its refusals, heartbeats, and
the seat reported away when its stream drops and back when it returns."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
from api_kit import Api, Table, a_discard, new_id, open_dealt_table_sync, read_events

from events.outcomes import CommandOutcome
from services.tables.command_ids import Sender, client_command_id
from services.tables.runner import outcome_store


def _operator_events(api: Api, table: Table) -> list[dict[str, Any]]:
    return api.ctx.service.stream_for(table.table_id, "operator").events


def events_only(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f | {"data": {k: v for k, v in f["data"].items() if k != "options"}} for f in frames]


def _until(check: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s")


def test_each_seat_gets_its_own_tiles_on_the_wire_and_no_other_seats(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    dealt = next(e for e in _operator_events(api, table) if e["type"] == "tiles_dealt")
    hands = dealt["payload"]["hands"]
    for seat in (0, 2):
        events = read_events(api.base, table, seat, dealt["version"])
        assert [int(e["id"]) for e in events] == list(range(1, dealt["version"] + 1))
        wire = events[-1]
        assert wire["event"] == "tiles_dealt"
        seen = wire["data"]["payload"]["hands"]
        assert seen[seat] == hands[seat]
        assert all(seen[other] is None for other in range(4) if other != seat)
        assert all(str(h) not in str(wire) for other, h in enumerate(hands) if other != seat)


def test_a_stream_resumed_after_a_drop_loses_nothing_and_repeats_nothing(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, discard = a_discard(http, table)
    first = read_events(api.base, table, seat, api.ctx.store.stream_version(table.table_id))
    moved = http.post(f"/v1/tables/{table.table_id}/commands", json=discard,
                      headers={**table.seat(seat), "Idempotency-Key": new_id("c")})  # fmt: skip
    assert moved.json()["status"] == "accepted"
    target = moved.json()["last_version"]
    last = first[-1]["id"]
    resumed = read_events(api.base, table, seat, target - int(last),
                          headers={**table.seat(seat), "Last-Event-ID": last})  # fmt: skip
    by_query = read_events(api.base, table, seat, target - int(last), params={"after": last})
    whole = read_events(api.base, table, seat, target)
    assert [int(e["id"]) for e in first + resumed] == list(range(1, target + 1))
    # the events, without the options each delivery ends with (where a delivery ends differs)
    assert events_only(first + resumed) == events_only(whole)
    assert by_query == resumed


def test_a_refusal_of_the_seats_own_command_arrives_on_its_stream(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, _ = a_discard(http, table)
    waiting = (seat + 1) % 4
    version = api.ctx.store.stream_version(table.table_id)
    received: list[dict[str, Any]] = []
    reader = threading.Thread(
        target=lambda: received.extend(read_events(api.base, table, waiting, version + 1))
    )
    reader.start()
    _until(lambda: api.ctx.presence.open[(table.table_id, waiting)] > 0)
    command_id = new_id("c")
    refused = http.post(f"/v1/tables/{table.table_id}/commands",
                        json={"command": "discard_tile", "seat": waiting, "tile": "1m"},
                        headers={**table.seat(waiting), "Idempotency-Key": command_id})  # fmt: skip
    assert refused.status_code == 409 and refused.json()["outcome"]["status"] == "refused"
    reader.join(15)
    last = received[-1]
    assert last["event"] == "command_refused" and "id" not in last
    assert last["data"]["command_id"] == command_id and last["data"]["code"] == "refused_by_rules"
    others = read_events(api.base, table, seat, 100, params={"refusals_after": 0}, comments=True,
                         until=lambda item: item == {"comment": "heartbeat"})  # fmt: skip
    assert not [e for e in others if e.get("event") == "command_refused"]
    assert others[-1] == {"comment": "heartbeat"}


def test_a_refusal_a_worker_recorded_for_a_command_sent_elsewhere_reaches_the_seats_stream(
    api: Api, http: httpx.Client
) -> None:
    """Another API process sent it (or its answer was a 202): this process's follower finds the
    refusal among every table's, and the seat's stream looks for its own then."""
    table = open_dealt_table_sync(http, api.key)
    seat, _ = a_discard(http, table)
    waiting = (seat + 1) % 4
    received: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: received.extend(
        read_events(api.base, table, waiting, 100, until=lambda f: f.get("event") == "command_refused")))
    reader.start()
    _until(lambda: api.ctx.presence.open[(table.table_id, waiting)] > 0)
    time.sleep(0.5)  # the stream has looked for refusals once, as it opened
    sender = Sender.of_seat(table.table_id, waiting)
    outcome_store(api.ctx.store).record_outcome(CommandOutcome(
        command_id=client_command_id(sender, "sent-elsewhere"), table_id=table.table_id,
        status="refused", reason="not its turn", code="refused_by_rules",
        actor_kind="seat", actor_seat=waiting))  # fmt: skip
    reader.join(15)
    last = received[-1]
    assert last["event"] == "command_refused" and last["data"]["command_id"] == "sent-elsewhere"


def test_a_dropped_stream_reports_the_seat_away_after_the_grace_and_a_new_one_brings_it_back(
    api: Api, http: httpx.Client
) -> None:
    table = open_dealt_table_sync(http, api.key)
    read_events(api.base, table, 3, 1)
    _until(lambda: not api.ctx.load(table.table_id).presence[3].connected)
    version = api.ctx.store.stream_version(table.table_id)
    events = read_events(api.base, table, 3, version + 1, params={"after": 0})
    assert events[-1]["event"] == "seat_reconnected"
    assert events[-1]["data"]["payload"]["seat"] == 3
    assert [e["event"] for e in events].count("seat_disconnected") == 1


def test_the_stream_takes_its_token_in_the_query_and_other_routes_do_not(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    events = read_events(api.base, table, 1, 1, headers={}, params={"access_token": table.tokens[1]})
    assert events[0]["event"] == "table_opened"
    view = http.get(f"/v1/tables/{table.table_id}/view", params={"access_token": table.tokens[1]})
    assert view.status_code == 401
