"""The demo's end: its tables are closed (or dissolved, then closed) as its bots stop, so no
absent bot is played by 托管 or charged a 超时 penalty afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from embedded_kit import embedded_service

from events.store import open_store
from services.cli.main import main as paiju
from services.demo.http_demo import Plan
from services.serve import Embedded


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Embedded]:
    with embedded_service(tmp_path, "demo-end") as embedded:
        yield embedded


def demo(service: Embedded, monkeypatch: pytest.MonkeyPatch, scopes: list[str], *more: str) -> int:
    assert service.api is not None
    key = service.api.ctx.keys.create(scopes, "the demo's end").token
    monkeypatch.setenv("PAIJU_API_KEY", key)
    return paiju(["demo", "--url", service.api.address, "--tables", "1", "--pace", "0",
                  "--turn", "60", "--claim", "60", *more])  # fmt: skip


def test_a_demo_stopped_mid_play_dissolves_and_closes_its_tables_and_no_bot_pays_after(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the idle seat never moves: left as it was, its table would be played by the timers
    status = demo(service, monkeypatch, ["tables", "tokens", "operator"], "--prefix", "cut",
                  "--for", "2")  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    table = f"{Plan(prefix='cut').room(0).room}.1"
    assert f"{table}: dissolved and closed as the demo stopped" in printed.out
    store = open_store(service.settings.store_url)
    try:
        kinds = [e.type for e in store.read_stream(table)]
        assert kinds[-1] == "table_closed" and "table_dissolved" in kinds
        assert "penalty_adjudicated" not in kinds and "wait_timed_out" not in kinds
        assert store.timers_of(table) == []  # nothing left for a timekeeper to fire
    finally:
        store.close()


def test_a_demo_that_played_its_hands_closes_its_tables_without_dissolving_them(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status = demo(service, monkeypatch, ["tables", "tokens"], "--prefix", "done", "--hands", "1",
                  "--no-idle", "--for", "120")  # fmt: skip
    assert status == 0, capsys.readouterr().err
    store = open_store(service.settings.store_url)
    try:
        kinds = [e.type for e in store.read_stream(f"{Plan(prefix='done').room(0).room}.1")]
    finally:
        store.close()
    assert kinds[-2:] == ["table_close_requested", "table_closed"]
    assert kinds.count("hand_settled") == 1 and "table_dissolved" not in kinds


def test_the_board_readme_names_shows_the_demos_hands_played_in_its_rooms(
    service: Embedded, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # two tables: the registry's first variant's room and harbin's, the variant README reads
    status = demo(service, monkeypatch, ["tables", "tokens"], "--prefix", "board", "--tables",
                  "2", "--hands", "1", "--no-idle", "--for", "120")  # fmt: skip
    assert status == 0, capsys.readouterr().err
    assert service.api is not None
    table = f"{Plan(prefix='board').room(1).room}.1"
    store = open_store(service.settings.store_url)
    try:
        events = store.read_stream(table)
    finally:
        store.close()
    assert events[0].payload["variant"] == "harbin" and events[0].payload["room"]
    bots = set(events[0].payload["players"])
    reads = service.api.ctx.keys.create(["reads"], "README's reads").token
    with httpx.Client(base_url=service.api.address,
                      headers={"Authorization": f"Bearer {reads}"}) as http:  # fmt: skip
        # README's request as written, waiting for the demo's last event to be read
        board = http.get("/v1/reads/leaderboards/harbin?period=week&page=1&size=20",
                         params={"min_position": events[-1].position})  # fmt: skip
        in_room = http.get("/v1/reads/leaderboards/harbin",
                           params={"room": events[0].payload["room"], "period": "week"})  # fmt: skip
    assert board.status_code == 200, board.text
    shown = {item["player"]: item["hands"] for item in board.json()["items"]}
    assert bots <= set(shown) and {shown[b] for b in bots} == {1}
    assert {item["player"] for item in in_room.json()["items"]} == bots  # the room's own board
