"""One request per move: a seat's stream opens with its view and what it may do, each delivery
ends with the seat's options at the version it ends on, and a command's answer brings the
sender's next options; each is what the engine says of the table at its version (the very
functions ``GET …/view`` and ``GET …/legal`` answer with), compared here with a fold of the
store up to that version, so a table a timer moved meanwhile does not make them differ."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
from api_kit import Api, Table, a_discard, new_id, open_dealt_table_sync, read_events

from services.rules.table import TableState
from services.rules.table.legal import legal_commands
from services.rules.table.views import player_view
from services.tables.loader import EMPTY, fold


def discard(http: httpx.Client, table: Table, seat: int, command: dict[str, Any], version: int) -> httpx.Response:
    return http.post(f"/v1/tables/{table.table_id}/commands", json=command,
                     headers=table.seat(seat) | {"Idempotency-Key": new_id("d"), "If-Match": f'"{version}"'})  # fmt: skip


def test_a_seats_stream_opens_with_its_view_and_what_it_may_do_there(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    turn, _ = a_discard(http, table)
    options = {}
    for seat in (turn, (turn + 1) % 4):
        first = read_events(api.base, table, seat, 1, views=True)[0]
        assert first["event"] == "view" and "id" not in first  # it moves no client's cursor
        frame = first["data"]
        assert frame["options"]["version"] == frame["version"] >= 4
        assert_as_the_table_was(api, table, seat, frame["options"], frame["view"])
        options[seat] = frame["options"]
    # each seat's first frame, read at once: a stream opened again later may find the turn
    # gone to the timers (a 15 s turn; CI's loaded machine took that long between the two)
    opened = options[turn]
    assert opened["deadline"]["wait"] == "turn" and opened["deadline"]["seconds"] > 0
    assert opened["deadline"]["due_at"] is not None
    assert opened["view"] == opened_view(api, table, turn, opened["version"])  # a choice: its view
    waiting = options[(turn + 1) % 4]
    assert waiting["deadline"] is None and "view" not in waiting  # nothing to choose


def test_a_resumed_stream_starts_with_the_view_then_gives_what_was_missed(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, command = a_discard(http, table)
    before = api.ctx.store.stream_version(table.table_id)
    assert discard(http, table, seat, command, before).json()["status"] == "accepted"
    now = api.ctx.store.stream_version(table.table_id)
    frames = read_events(api.base, table, seat, 1 + now - before, views=True, params={"after": before})
    assert frames[0]["event"] == "view" and frames[0]["data"]["version"] == now
    assert [int(f["id"]) for f in frames[1:]] == list(range(before + 1, now + 1))


def test_each_delivery_ends_with_the_seats_options_at_the_version_it_ends_on(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, command = a_discard(http, table)
    before = api.ctx.store.stream_version(table.table_id)
    assert discard(http, table, seat, command, before).json()["status"] == "accepted"
    for viewer in range(4):
        events = read_events(api.base, table, viewer, 100, params={"after": before},
                             until=lambda frame: "options" in frame["data"])  # fmt: skip
        *earlier, last = events
        assert all("options" not in e["data"] for e in earlier)
        options = last["data"]["options"]
        assert options["version"] == int(last["id"]) > before
        at_that_version = table_at(api, table, options["version"])
        assert options["commands"] == [c.model_dump(mode="json") for c in legal_commands(at_that_version, viewer)]


def assert_as_the_table_was(api: Api, table: Table, seat: int, options: dict[str, Any],
                            view: dict[str, Any] | None = None) -> None:  # fmt: skip
    """The options (and view) are what the engine says of the table at their version."""
    then = table_at(api, table, options["version"])
    assert options["commands"] == [c.model_dump(mode="json") for c in legal_commands(then, seat)]
    if view is not None:
        assert view == player_view(then, seat)


def opened_view(api: Api, table: Table, seat: int, version: int) -> dict[str, Any]:
    return player_view(table_at(api, table, version), seat)


def table_at(api: Api, table: Table, version: int) -> TableState:
    store = api.ctx.store
    return fold(store, table.table_id, store.read_stream(table.table_id)[:version], EMPTY).state


def test_an_accepted_commands_answer_brings_the_seats_next_options(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, command = a_discard(http, table)
    version = api.ctx.store.stream_version(table.table_id)
    answer = discard(http, table, seat, command, version).json()
    assert answer["status"] == "accepted"
    options = answer["options"]
    assert options["version"] >= answer["last_version"]
    assert_as_the_table_was(api, table, seat, options)
    assert not any(c["command"] == "discard_tile" for c in options["commands"])  # its turn is over


def test_a_refused_commands_answer_brings_the_options_at_the_tables_version(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, command = a_discard(http, table)
    version = api.ctx.store.stream_version(table.table_id)
    answer = discard(http, table, seat, command, version - 1)
    assert answer.status_code == 412, answer.text
    stale = answer.json()
    assert stale["outcome"]["status"] == "refused"
    assert stale["options"]["version"] >= version
    assert_as_the_table_was(api, table, seat, stale["options"], stale["options"]["view"])


def test_a_platforms_command_answer_carries_no_seats_options(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    opened = http.post("/v1/tables", json={"table_id": new_id("t"), "variant": "harbin",
                                           "players": [new_id(p) for p in "abcd"]},
                       headers={"Authorization": f"Bearer {api.key}", "Idempotency-Key": new_id("o")})  # fmt: skip
    assert opened.json()["status"] == "accepted" and "options" not in opened.json()
    assert table.tokens  # the seat tokens of the other table answer as before


def test_the_options_a_seat_is_streamed_show_it_only_its_own_tiles(api: Api, http: httpx.Client) -> None:
    table = open_dealt_table_sync(http, api.key)
    turn, _ = a_discard(http, table)
    options = read_events(api.base, table, turn, 1, views=True)[0]["data"]["options"]
    seats = options["view"]["hand"]["seats"]
    assert seats[turn]["concealed"]
    assert all(not seats[other].get("concealed") for other in range(4) if other != turn)


def test_a_commands_answer_while_its_seats_stream_is_open_gives_what_the_stream_then_gives(
    api: Api, http: httpx.Client
) -> None:
    table = open_dealt_table_sync(http, api.key)
    seat, command = a_discard(http, table)
    version = api.ctx.store.stream_version(table.table_id)
    received: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: received.extend(read_events(
        api.base, table, seat, 100, params={"after": version}, timeout=20,
        until=lambda frame: "options" in frame["data"])))  # fmt: skip
    reader.start()
    deadline = time.monotonic() + 10
    while api.ctx.feeds.get(table.table_id) is None and time.monotonic() < deadline:
        time.sleep(0.02)
    answer = discard(http, table, seat, command, version).json()
    reader.join(20)
    streamed = received[-1]["data"]["options"]
    assert answer["status"] == "accepted"
    if streamed["version"] == answer["options"]["version"]:  # no timer moved it in between
        assert streamed == answer["options"]
    assert_as_the_table_was(api, table, seat, answer["options"])
