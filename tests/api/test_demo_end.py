"""The demo's end: its tables are closed (or dissolved, then closed) as its bots stop, so no
absent bot is played by 托管 or charged a 超时 penalty afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
