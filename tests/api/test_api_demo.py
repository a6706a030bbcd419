"""``paiju demo``: four bot players over HTTP and the streams, as a platform would play them,
against an embedded service (worker, timekeeper, projector and API threads) in this process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from events.store import open_store
from services.cli.main import main as paiju
from workers.serve import Embedded
from workers.settings import load_settings


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
    status = paiju(["demo", "--url", service.api.address, "--tables", "1", "--hands", "1",
                    "--pace", "0", "--no-idle", "--prefix", "http", "--for", "120"])  # fmt: skip
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "1 hand(s) settled" in printed.out and "http-1   v1    table_opened" in printed.out
    store = open_store(service.settings.store_url)
    events = store.read_stream("http-1")
    assert [e.type for e in events].count("hand_settled") == 1
    moves = [e for e in events if e.actor.kind == "seat"]
    assert {e.actor.seat for e in moves} == {0, 1, 2, 3}  # every seat played, none by the timers
    # each move was posted with an Idempotency-Key naming the version it answered
    for event in moves:
        assert event.command_id.startswith("http-1/v") and event.command_id.endswith(f"/s{event.actor.seat}")
        answered = int(event.command_id.split("/v")[1].split("/")[0])
        assert event.version > answered
    assert store.load_outcome(moves[0].command_id).accepted  # type: ignore[union-attr]
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
    assert "demo-1: 401 the API key is unknown, malformed or revoked" in capsys.readouterr().err
