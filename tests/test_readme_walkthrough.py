"""Issue 25, item 3: README's walkthrough of the platform's HTTP API, run as written against
``paiju serve`` (embedded, in a folder of its own): the only change made to it is the API's
address (``API=http://127.0.0.1:8080``), since tests serve beside each other on free ports.
Each step must do what its comment says: a room seats four and deals, a table is opened and
dealt, the dealer's discard from its stream's options is accepted, the table is closed and
dissolved, the reads answer, the demo plays a hand; no step answers a problem document."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from events.store import open_store

ROOT = Path(__file__).resolve().parents[1]
WRITTEN_ADDRESS = "API=http://127.0.0.1:8080;"


def walkthrough() -> str:
    """The first ``sh`` block under README's "The platform's HTTP API"."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("### The platform's HTTP API", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```\n", 1)[0]
    assert WRITTEN_ADDRESS in block, "the walkthrough no longer sets API= as this test expects"
    return block


def serving(folder: Path) -> tuple[subprocess.Popen[str], str]:
    """``paiju serve`` (no demo) in ``folder``: its default store, on a free port; its address."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")}, "PAIJU_API_PORT": "0"}
    server = subprocess.Popen([str(folder / ".venv" / "bin" / "paiju"), "serve"], cwd=folder, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    assert server.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        found = re.search(r"API on (http://127\.0\.0\.1:\d+) ", line)
        if found:
            # read on, to the end: a pipe no one reads fills (64 KB of the service's log lines),
            # the next line logged then blocks holding the logging lock, and every thread that
            # logs stops behind it, the worker too (the walkthrough's demo hung at random)
            threading.Thread(target=server.stdout.read, name="serve-output", daemon=True).start()
            return server, found.group(1)
        assert line or server.poll() is None, "paiju serve stopped before it served"
    raise AssertionError("paiju serve did not say where it serves within 60 s")


def test_the_readmes_api_walkthrough_runs_as_written_against_paiju_serve(tmp_path: Path) -> None:
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))  # README's commands say .venv/bin/paiju
    server, address = serving(tmp_path)
    try:
        script = walkthrough().replace(WRITTEN_ADDRESS, f"API={address};")
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")}}
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=180)  # fmt: skip
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
    out = done.stdout
    said = [line for line in done.stderr.splitlines() if not re.fullmatch(
        r"key [0-9a-f]+ \(.*\): shown once, stored only as a hash", line)]  # paiju keys create's
    assert done.returncode == 0 and not said, done.stderr + out[-3000:]
    assert '"type":"/problems/' not in out.replace(" ", ""), out  # no step was refused
    assert '"table_id":"east.1"' in out and '"started":true' in out  # the fourth ready dealt
    moved = json.loads(next(line for line in out.splitlines() if line.startswith('{"status":')))
    assert moved["status"] == "accepted" and moved["first_version"] > 0 and moved["next"]
    assert "1 hand(s) settled" in out  # the demo's bots played over HTTP
    events = open_store(f"sqlite:///{tmp_path}/paiju.sqlite3").read_stream("t1")
    kinds = [e.type for e in events]
    assert "tile_discarded" in kinds and kinds[-1] == "table_closed"  # moved, then 关桌 and 解散
    assert [e for e in events if e.type == "tile_discarded"][0].actor.kind == "seat"
