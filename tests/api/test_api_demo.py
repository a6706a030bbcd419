"""``paiju demo``: four bot players over HTTP and the streams, as a platform would play them,
against an embedded service (worker, timekeeper, projector and API threads) in this process."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from embedded_kit import embedded_service

from events.store import open_store
from services.cli.main import main as paiju
from services.demo.http_demo import Plan
from services.rules.table.deadlines import deadlines
from services.serve import Embedded
from services.tables.command_ids import Sender, key_of
from services.tables.loader import EMPTY, fold

HTTP_ROOM = Plan(prefix="http").room(0).room  # the demo's first room: the registry's first variant
HTTP_TABLE = f"{HTTP_ROOM}.1"
KEPT_ROOM = Plan(prefix="kept").room(0).room


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Embedded]:
    with embedded_service(tmp_path, "demo") as embedded:
        yield embedded


def one_hand_of_the_demo(service: Embedded, monkeypatch: pytest.MonkeyPatch, prefix: str) -> int:
    """``paiju demo`` at one table of rooms ``PREFIX-…``, every seat a bot, for one hand."""
    assert service.api is not None
    key = service.api.ctx.keys.create(["tables", "tokens"], "the demo's test").token
    monkeypatch.setenv("PAIJU_API_KEY", key)
    # a long turn: the first runs from the room's deal, before the bots have their tokens
    return paiju(["demo", "--url", service.api.address, "--tables", "1", "--hands", "1",
                  "--pace", "0", "--no-idle", "--prefix", prefix, "--for", "120",
                  "--turn", "60"])  # fmt: skip


def test_the_demo_plays_a_hand_to_the_end_over_http_with_each_seat_moved_by_its_own_token(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status = one_hand_of_the_demo(service, monkeypatch, "http")
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "1 hand(s) settled" in printed.out
    assert re.search(rf"{re.escape(HTTP_TABLE)} +v1 +table_opened", printed.out), printed.out
    store = open_store(service.settings.store_url)
    events = store.read_stream(HTTP_TABLE)
    assert [e.type for e in events].count("hand_settled") == 1
    assert events[0].payload["room"] == HTTP_ROOM  # the room started it: seated, ready
    timing = events[0].payload["timing"]
    assert (timing["turn"], timing["claim"]) == (60, 3)  # the room's, from --turn and the default
    moves = [e for e in events if e.actor.kind == "seat"]
    # every seat the table waited on answered by itself, none by the timers (a seat the deal
    # left nothing to do, a hand won before its turn, is waited on by no one)
    assert {e.actor.seat for e in moves} == _seats_waited_on(service, HTTP_TABLE)
    assert not [e for e in events if e.type in ("wait_timed_out", "seat_autoplayed")]
    # each move was posted with an Idempotency-Key naming the version it answered
    for event in moves:
        key = key_of(Sender.of_seat(HTTP_TABLE, event.actor.seat), event.command_id)
        assert key.startswith(f"{HTTP_TABLE}/v") and key.endswith(f"/s{event.actor.seat}")
        answered = int(event.command_id.split("/v")[1].split("/")[0])
        assert event.version > answered
    assert store.load_outcome(moves[0].command_id).accepted  # type: ignore[union-attr]
    store.close()


def _seats_waited_on(service: Embedded, table_id: str) -> set[int]:
    """Every seat some state of the table waited on (its turn, or a claim it was asked)."""
    store = open_store(service.settings.store_url)
    try:
        table, seats = EMPTY, set[int]()
        for recorded in store.read_stream(table_id):
            table = fold(store, table_id, [recorded], table)
            seats |= {s for d in deadlines(table.state) if d.wait in ("turn", "claim")
                      for s in d.seats}  # fmt: skip
        return seats
    finally:
        store.close()


def test_the_demo_without_a_key_or_with_a_revoked_one_says_so(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert service.api is not None
    monkeypatch.delenv("PAIJU_API_KEY", raising=False)
    assert paiju(["demo", "--url", service.api.address]) == 2
    assert "give a platform API key (--key or PAIJU_API_KEY)" in capsys.readouterr().err
    made = service.api.ctx.keys.create(["tables", "tokens"], "revoked at once")
    service.api.ctx.keys.revoke(made.key.key_id)
    assert paiju(["demo", "--url", service.api.address, "--key", made.token, "--for", "20"]) == 2
    err = capsys.readouterr().err  # the first of its rooms (set up together) to be refused
    assert "paiju demo: setting up room demo-" in err and ": 401 the API key is unknown, malformed or revoked" in err


def test_a_second_run_on_a_kept_store_seats_new_bots_at_the_rooms_next_table(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert service.api is not None
    key = service.api.ctx.keys.create(["tables", "tokens"], "the demo's test").token
    monkeypatch.setenv("PAIJU_API_KEY", key)
    run = ["demo", "--url", service.api.address, "--tables", "1", "--hands", "1", "--pace", "0",
           "--no-idle", "--prefix", "kept", "--for", "120"]  # fmt: skip
    assert paiju(run) == 0, capsys.readouterr().err
    # a run that stopped between its joins and its fourth ready left its bot seated
    with httpx.Client(base_url=service.api.address, headers={"Authorization": f"Bearer {key}"}) as client:
        granted = client.post("/v1/players/bot-left-over/points", json={"amount": 100},
                              headers={"Idempotency-Key": "left-over"})  # fmt: skip
        assert granted.status_code == 200, granted.text
        joined = client.post(f"/v1/rooms/{KEPT_ROOM}/players/bot-left-over/join")
        assert (joined.status_code, joined.json()["table_id"]) == (200, f"{KEPT_ROOM}.2"), joined.text
    assert paiju(run) == 0, capsys.readouterr().err  # the first run's bots are still in their series
    store = open_store(service.settings.store_url)
    first, second = (store.read_stream(f"{KEPT_ROOM}.{n}")[0].payload["players"] for n in (1, 2))
    assert not set(first) & set(second) and "bot-left-over" not in second
    room = [e for e in store.read_stream(f"room:{KEPT_ROOM}") if e.type == "player_left_room"]
    assert [e.payload["player"] for e in room] == ["bot-left-over"]
    for player in (*first, *second):  # each new bot was granted the room's minimum, once
        grants = [e.payload["amount"] for e in store.read_stream(f"player:{player}") if e.type == "points_adjusted"]
        assert grants == [100]
    assert [e.type for e in store.read_stream(f"{KEPT_ROOM}.2")].count("hand_settled") == 1
    store.close()


def test_the_demos_bots_move_with_one_request_each_and_never_read_a_view_or_a_legal_list(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, str]] = []
    send = httpx.AsyncClient.send

    async def counted(self: httpx.AsyncClient, request: httpx.Request, **kwargs: object) -> httpx.Response:
        sent.append((request.method, request.url.path))
        return await send(self, request, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx.AsyncClient, "send", counted)
    status = one_hand_of_the_demo(service, monkeypatch, "one")
    assert status == 0, capsys.readouterr().err
    table = f"{Plan(prefix='one').room(0).room}.1"
    assert not [p for m, p in sent if m == "GET" and p.endswith(("/view", "/legal"))]
    posts = [p for m, p in sent if m == "POST" and p == f"/v1/tables/{table}/commands"]
    store = open_store(service.settings.store_url)
    try:
        moves = {e.command_id for e in store.read_stream(table) if e.actor.kind == "seat"}
    finally:
        store.close()
    assert moves and len(posts) <= len(moves) + 4  # one POST a move (a few lost races at most)
