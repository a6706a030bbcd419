"""``paiju serve``: the embedded default in one process, its demo played through the worker
path and the idle seat played by the timers; ``paiju timekeeper``'s refusals of bad options."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from effects.effects_kit import Receiver

from events.store import open_store
from readmodels.db import open_projection_db
from services.cli.main import main as paiju
from services.demo.http_demo import Plan

# the demo's first tables, a room per variant in the registry's order; the first has the idle seat
FIRST, SECOND, THIRD = (f"{Plan().room(n).room}.1" for n in range(3))


def test_paiju_serve_embedded_plays_the_demo_and_the_timers_play_the_idle_seat(
    tmp_path: Path,
) -> None:
    store_url = f"sqlite:///{tmp_path}/serve.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
        "PAIJU_STORE_URL": store_url,
        "PAIJU_API_PORT": "0",  # any free port: other tests serve beside this one
        "PAIJU_TURN_SECONDS": "1",
        "PAIJU_AUTOPLAY_WINDOW_SECONDS": "1",
        "PAIJU_CLAIM_SECONDS": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "services.cli.main", "serve", "--demo", "--tables", "2", "--pace", "0.2",
         "--for", "12"],
        env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "paiju serve: embedded" in done.stdout and "time is up" in done.stdout
    store = open_store(store_url)
    events = store.read_stream(FIRST)
    by_timer = [e for e in events if e.actor.kind == "timer"]
    # the idle seat is timed out (a bot late on a loaded machine may be too: 托管 is the rule)
    assert any(e.payload.get("seats") == [3] for e in by_timer if e.type == "wait_timed_out")
    by_bots = [e for e in events if e.actor.kind == "seat"]
    assert by_bots and {e.actor.seat for e in by_bots} <= {0, 1, 2}  # seat 3 never moved
    outcome = store.load_outcome(by_bots[0].command_id)  # type: ignore[attr-defined]
    assert outcome is not None and outcome.accepted  # through the command path: recorded
    assert store.read_stream(SECOND)  # the other table plays too
    points = open_projection_db(store_url).active_build("points")
    assert points is not None and points.position > 0  # the projector thread kept the read models
    # stopped, the demo dissolved and closed its tables: no timer plays its absent bots later
    assert f"{FIRST}: dissolved and closed as the demo stopped" in done.stdout
    assert "automatic=托管" in done.stdout and "automatic=False" not in done.stdout
    assert events[-1].type == "table_closed" and store.timers_of(FIRST) == []
    store.close()


def test_paiju_serve_listens_on_the_port_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("PAIJU_STORE_URL", f"sqlite:///{tmp_path}/port.sqlite3")
    monkeypatch.setenv("PAIJU_API_PORT", "1")  # the option wins over the variable
    assert paiju(["serve", "--port", str(port), "--for", "0.5"]) == 0
    assert f"API on http://127.0.0.1:{port} " in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:  # argparse's refusal, before anything starts
        paiju(["serve", "--port", "65536"])
    assert refused.value.code == 2
    assert "--port: '65536': give a port from 0 to 65535" in capsys.readouterr().err


def test_paiju_timekeeper_refuses_a_bad_lease_and_a_queue_it_cannot_reach(
    capsys: object, monkeypatch: object, tmp_path: Path
) -> None:
    monkeypatch.setenv("PAIJU_STORE_URL", f"sqlite:///{tmp_path}/t.sqlite3")  # type: ignore[attr-defined]
    monkeypatch.delenv("PAIJU_BROKER_URL", raising=False)  # type: ignore[attr-defined]
    assert paiju(["timekeeper", "--lease", "0"]) == 2
    assert "--lease must be 1-3600 seconds" in capsys.readouterr().err  # type: ignore[attr-defined]
    assert paiju(["timekeeper", "--via", "queue"]) == 2
    assert "--via queue needs PAIJU_BROKER_URL" in capsys.readouterr().err  # type: ignore[attr-defined]


SETTLING = (SECOND, THIRD)  # the tables without the idle seat


def settlements(store_url: str) -> set[str]:
    """The notification keys of the hands settled so far at the demo's second and third tables."""
    store = open_store(store_url)
    try:
        return {f"paiju-event-{e.position}" for table in SETTLING
                for e in store.read_stream(table) if e.type == "hand_settled"}  # fmt: skip
    finally:
        store.close()


def test_paiju_serve_embedded_tells_the_platform_of_each_settled_hand(tmp_path: Path) -> None:
    receiver = Receiver("a-secret-of-the-platform")
    receiver.start()
    store_url = f"sqlite:///{tmp_path}/serve.sqlite3"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
        "PAIJU_STORE_URL": store_url,
        "PAIJU_API_PORT": "0",  # any free port: other tests serve beside this one
        "PAIJU_WEBHOOK_URL": receiver.url,
        "PAIJU_WEBHOOK_SECRET": receiver.secret,
    }
    try:
        with subprocess.Popen(
            [sys.executable, "-m", "services.cli.main", "serve", "--demo", "--tables", "3",
             "--pace", "0", "--for", "90"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        ) as serving:  # fmt: skip
            deadline = time.monotonic() + 80
            while not settlements(store_url) and time.monotonic() < deadline:
                time.sleep(0.5)  # a hand at full pace takes seconds
            settled = settlements(store_url)
            serving.send_signal(signal.SIGTERM)  # stopped as an operator stops it
            _, err = serving.communicate(timeout=60)
    finally:
        receiver.stop()
    assert serving.returncode == 0, err
    assert settled, "no hand was settled in 80 s"
    # every settlement the service recorded before it was stopped reached the platform, once
    # (the demo's tables dissolved as it stops settle their hands then, nothing paid: those
    # wait for the next run's reactor, which goes on from its checkpoint)
    delivered = set(receiver.received)
    assert len(settled - delivered) <= 1 and receiver.doubled() == 0 and receiver.forged == 0
