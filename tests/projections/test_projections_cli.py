"""``paiju projections status|rebuild|retry`` and ``paiju projector``: what they print, and a
line naming what was wrong for anything they cannot do."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from projection_kit import play_series
from test_projector import Broken

from events.store import open_store
from readmodels.catalog import ALL
from readmodels.db import open_projection_db
from readmodels.points import Points
from readmodels.runner import Projector
from services.cli.main import main as paiju

PLAYERS = ("ann", "bo", "cy", "di")
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = paiju(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_status_then_a_rebuild_switches_points_to_a_new_build(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    head = store.last_position()  # type: ignore[attr-defined]
    status, out, _ = run(capsys, "projections", "status", "--store", url)
    assert status == 0 and "points: not built" in out
    projector = Projector(store, open_projection_db(url), [Points()])
    projector.attach()
    projector.catch_up()
    projector.close()
    status, out, _ = run(capsys, "projections", "status", "--store", url)
    assert (
        f"points: live, build 1 (code v{Points.code_version}) at position {head} of {head}, lag 0"
        in out
    )
    status, out, err = run(capsys, "projections", "rebuild", "points", "--store", url)
    assert status == 0, err
    assert "rebuilding points as build 2" in out and "points build 2 is live" in out
    status, out, _ = run(capsys, "projections", "status", "--json", "--store", url)
    (line,) = [json.loads(x) for x in out.splitlines() if '"points"' in x]
    assert line["live"]["build"] == 2 and line["lag"] == 0 and line["building"] is None


def test_retry_clears_where_a_projection_stopped(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    db = open_projection_db(url)
    projector = Projector(store, db, [Broken()])
    projector.attach()
    projector.catch_up()
    projector.close()
    status, _, err = run(capsys, "projections", "retry", "points", "--store", url)
    assert status == 2 and "paiju projections: points is not stopped" in err
    monkeypatch.setattr("readmodels.catalog.ALL", (Points(), Broken()))
    status, out, _ = run(capsys, "projections", "status", "--store", url)
    assert "broken: stopped" in out and "stopped at position" in out
    status, out, _ = run(capsys, "projections", "retry", "broken", "--store", url)
    assert status == 0 and "broken build 1 cleared; it was stopped at position" in out
    assert db.builds("broken")[0].error is None


@pytest.mark.parametrize(
    "argv, says",
    [
        (["projections", "rebuild", "pionts"], "no projection 'pionts'; known: "),
        (["projections", "rebuild"], "rebuild needs a projection's name"),
        (["projections", "status", "points"], "status takes no projection name"),
        (["projector", "--only", "pionts"], "no projection 'pionts'; known: "),
        (["projector", "--batch", "0"], "--batch must be 1-10000 events, not 0"),
    ],
)
def test_what_paiju_cannot_do_is_one_line_naming_it(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, *argv, "--store", f"sqlite:///{tmp_path}/p.sqlite3")
    assert status == 2 and len(err.strip().splitlines()) == 1 and says in err


def test_paiju_projector_keeps_points_until_sigterm(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/p.sqlite3"
    store = open_store(url)
    play_series(store, "t1", "harbin", PLAYERS, hands=1)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_STORE_URL": url, "PAIJU_LOG_LEVEL": "WARNING"}  # fmt: skip
    process = subprocess.Popen([sys.executable, "-m", "services.cli.main", "projector"], env=env,
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        db, deadline = open_projection_db(url), time.monotonic() + 60
        head = store.last_position()  # type: ignore[attr-defined]
        while any((b := db.active_build(p.name)) is None or b.position < head for p in ALL):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
    assert process.returncode == 0
    assert "paiju projector: keeping points" in out
    assert f"stopped; {len(ALL) * head} events applied" in out  # every projection, every event
