"""``paiju demo``: four bot players over HTTP and the streams, as a platform would play them,
against an embedded service (worker, timekeeper, projector and API threads) in this process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from events.store import open_store
from services.cli.main import main as paiju
from services.rules.table.deadlines import deadlines
from services.serve import Embedded
from services.settings import load_settings
from services.tables.command_ids import Sender, key_of
from services.tables.loader import EMPTY, fold


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Embedded]:
    settings = load_settings(store_url=f"sqlite:///{tmp_path}/demo.sqlite3", api_port=0,
                             broker_url="memory://", webhook_url=None)  # fmt: skip
    embedded = Embedded(settings)
    embedded.start()
    try:
        yield embedded
    finally:
        embedded.close()


def test_the_demo_plays_a_hand_to_the_end_over_http_with_each_seat_moved_by_its_own_token(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert service.api is not None
    key = service.api.ctx.keys.create(["tables", "tokens"], "the demo's test").token
    monkeypatch.setenv("PAIJU_API_KEY", key)
    # a long turn: the first runs from the room's deal, before the bots have their tokens
    status = paiju(["demo", "--url", service.api.address, "--tables", "1", "--hands", "1",
                    "--pace", "0", "--no-idle", "--prefix", "http", "--for", "120",
                    "--turn", "60"])  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "1 hand(s) settled" in printed.out and "http-harbin.1     v1    table_opened" in printed.out
    store = open_store(service.settings.store_url)
    events = store.read_stream("http-harbin.1")
    assert [e.type for e in events].count("hand_settled") == 1
    assert events[0].payload["room"] == "http-harbin"  # the room started it: seated, ready
    timing = events[0].payload["timing"]
    assert (timing["turn"], timing["claim"]) == (60, 3)  # the room's, from --turn and the default
    moves = [e for e in events if e.actor.kind == "seat"]
    # every seat the table waited on answered by itself, none by the timers (a seat the deal
    # left nothing to do, a hand won before its turn, is waited on by no one)
    assert {e.actor.seat for e in moves} == _seats_waited_on(service, "http-harbin.1")
    assert not [e for e in events if e.type in ("wait_timed_out", "seat_autoplayed")]
    # each move was posted with an Idempotency-Key naming the version it answered
    for event in moves:
        key = key_of(Sender.of_seat("http-harbin.1", event.actor.seat), event.command_id)
        assert key.startswith("http-harbin.1/v") and key.endswith(f"/s{event.actor.seat}")
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
        joined = client.post("/v1/rooms/kept-harbin/players/bot-left-over/join")
        assert (joined.status_code, joined.json()["table_id"]) == (200, "kept-harbin.2"), joined.text
    assert paiju(run) == 0, capsys.readouterr().err  # the first run's bots are still in their series
    store = open_store(service.settings.store_url)
    first, second = (store.read_stream(f"kept-harbin.{n}")[0].payload["players"] for n in (1, 2))
    assert not set(first) & set(second) and "bot-left-over" not in second
    room = [e for e in store.read_stream("room:kept-harbin") if e.type == "player_left_room"]
    assert [e.payload["player"] for e in room] == ["bot-left-over"]
    for player in (*first, *second):  # each new bot was granted the room's minimum, once
        grants = [e.payload["amount"] for e in store.read_stream(f"player:{player}") if e.type == "points_adjusted"]
        assert grants == [100]
    assert [e.type for e in store.read_stream("kept-harbin.2")].count("hand_settled") == 1
    store.close()
