"""A real ``paiju serve`` for the attacks of ``tests/security``: the service as a platform runs
it, in a process of its own on a free port, embedded (SQLite, in-memory broker) or distributed
(PostgreSQL schema and a private Redis, with the worker, timekeeper and projector processes).

An attacker holds what a hostile platform client holds: a seat token of its own table, or a
``tables`` key. ``Served`` makes those through the CLI (``paiju keys create``) and the API,
exactly as the README tells a platform to.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from services.api.answers import outcome_of as api_outcome_of

ADDRESS = re.compile(r"API on (http://127\.0\.0\.1:\d+)")
PLAYERS = ["ann", "bo", "cy", "di"]


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@dataclass
class SeatedTable:
    """A table opened and dealt through the platform routes, with its four seat tokens."""

    table_id: str
    players: list[str]
    tokens: list[str] = field(default_factory=list)

    def seat(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


class Served:
    """``paiju serve`` in a process of its own; ``base`` is its API's address."""

    def __init__(self, root: Path, env: Mapping[str, str], argv: list[str] | None = None) -> None:
        self.root = root
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
            "PAIJU_API_PORT": "0",
            **env,
        }
        self.argv = argv or []
        self.log = root / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.base = ""

    def start(self, timeout: float = 60) -> None:
        out = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "services.cli.main", "serve", *self.argv],
            env=self.env, stdout=out, stderr=subprocess.STDOUT, cwd=self.root,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = ADDRESS.search(self.log.read_text(errors="replace"))
            if found:
                self.base = found.group(1)
                if self._healthy():
                    return
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"paiju serve did not start:\n{self.log.read_text()[-4000:]}")

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"{self.base}/healthz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        """SIGKILL to the whole session (serve and every part it started): no test here is
        about a warm stop (tests/deploy and tests/workers/test_serve are), and a warm one spent
        5-10 s of every module's teardown waiting for Celery's loop to look up."""
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(30)

    def paiju(self, *argv: str) -> str:
        """A ``paiju`` command against the served store; its standard output."""
        done = subprocess.run(
            [sys.executable, "-m", "services.cli.main", *argv], env=self.env,
            capture_output=True, text=True, timeout=60, cwd=self.root,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    def key(self, scopes: str = "tables,tokens") -> str:
        """A new platform API key with ``scopes``, as ``paiju keys create`` prints it."""
        return self.paiju("keys", "create", "--scopes", scopes).split()[0]

    def client(self, **kwargs: Any) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=kwargs.pop("timeout", 20), **kwargs)

    def seated_table(self, key: str, variant: str = "harbin", players: list[str] | None = None,
                     **options: Any) -> SeatedTable:  # fmt: skip
        """A table opened with ``key`` (``POST /v1/tables``), dealt, and its seat tokens."""
        players = players or [new_id(p) for p in PLAYERS]
        table = SeatedTable(new_id(f"sec-{variant}"), players)
        auth = {"Authorization": f"Bearer {key}"}
        with self.client() as http:
            body = {"table_id": table.table_id, "variant": variant, "players": players, **options}
            opened = http.post("/v1/tables", json=body,
                               headers={**auth, "Idempotency-Key": new_id("open")})  # fmt: skip
            opened = settled(http, opened, auth)
            assert opened.status_code == 200 and opened.json()["status"] == "accepted", opened.text
            dealt = http.post(f"/v1/tables/{table.table_id}/hands",
                              headers={**auth, "Idempotency-Key": new_id("deal")})  # fmt: skip
            dealt = settled(http, dealt, auth)
            assert dealt.status_code == 200 and dealt.json()["status"] == "accepted", dealt.text
            for seat, player in enumerate(players):
                minted = http.post(f"/v1/tables/{table.table_id}/seats/{seat}/tokens",
                                   json={"player": player}, headers=auth)  # fmt: skip
                assert minted.status_code == 200, minted.text
                table.tokens.append(minted.json()["token"])
        return table


def settled(http: httpx.Client, answer: httpx.Response, headers: dict[str, str],
            timeout: float = 60) -> httpx.Response:  # fmt: skip
    """``answer``, or, where it is a 202 (the command kept and queued while the box is busy),
    its outcome once a worker has run it: a loaded CI box may take longer than the POST waits."""
    deadline = time.monotonic() + timeout
    while answer.status_code == 202 and time.monotonic() < deadline:
        answer = http.get(answer.json()["outcome_url"], params={"wait": 5}, headers=headers)
    return answer


def wait_until(check: Any, timeout: float, every: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(every)
    return False


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (its children, theirs, ...)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        children = [p for p, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    return ""


@contextlib.contextmanager
def workers_stopped(served: Served) -> Iterator[None]:
    """SIGSTOP the served worker processes (and their pools) until the block ends: commands
    wait on the queue, in flight."""
    assert served.process is not None
    worker = [p for p in descendants(served.process.pid) if "services.cli.main worker" in cmdline(p)]
    assert worker, "paiju serve runs no worker process"
    stopped = worker + [c for w in worker for c in descendants(w)]
    for pid in stopped:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


def outcome_of(answer: httpx.Response) -> dict[str, Any]:
    """The recorded outcome of an answer, without the seat's options: those are what the seat
    may do *now*, so a later copy of the answer names later options once the table moved on
    (the dealer's clock runs while the test waits). The API's own reading of an answer
    (``services.api.answers.outcome_of``): a refusal's ``outcome``, or a 200's body."""
    return api_outcome_of(answer.json())
