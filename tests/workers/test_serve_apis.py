"""``paiju serve`` distributed runs the platform's API as processes of its own (``--apis N``):
each on a port chosen before it starts, all with one token secret, so a seat token minted at
one API is good at another; an API process killed with SIGKILL comes back on its port."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from worker_kit import REDIS_URL, forget_keys, paiju

from events.store import open_store
from services.api.keys import KeyStore
from services.serve import api_ports, parts


@pytest.fixture
def serve(pg_schema_url: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    prefix = f"paiju-test-serve-{uuid.uuid4().hex[:8]}:"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_BROKER_URL": REDIS_URL, "PAIJU_KEY_PREFIX": prefix, "PAIJU_STORE_URL": pg_schema_url,
           "PAIJU_API_PORT": "0", "PAIJU_LOG_LEVEL": "WARNING"}  # fmt: skip
    open_store(pg_schema_url).close()  # migrated before the parts open it
    out = (tmp_path / "serve.out").open("w+")
    process = subprocess.Popen(
        [*paiju(), "serve", "--apis", "2", "--workers", "1", "--projectors", "0", "--for", "120"],
        env=env, stdout=out, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        yield process, addresses(out, 2)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(40)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        forget_keys(prefix)


def addresses(out: object, count: int, timeout: float = 60) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out.seek(0)  # type: ignore[attr-defined]
        found = re.findall(r"api-\d+: API on (http://\S+) ", out.read())  # type: ignore[attr-defined]
        if len(found) == count:
            return found
        time.sleep(0.1)
    raise AssertionError("paiju serve printed no API addresses")


def answering(base: str, timeout: float = 90) -> bool:  # a loaded machine starts it slowly
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{base}/openapi.json", timeout=2).status_code == 200:
                return True
        time.sleep(0.2)
    return False


def api_children(pid: int) -> dict[int, str]:
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                argv = (stat.parent / "cmdline").read_bytes().split(b"\0")
                if b"api" in argv:
                    found[int(stat.parent.name)] = argv[argv.index(b"--port") + 1].decode()
    return found


def test_a_seat_token_minted_at_one_api_process_acts_at_another_and_a_killed_one_comes_back(
    serve: tuple[subprocess.Popen[str], list[str]], pg_schema_url: str
) -> None:
    process, (first, second) = serve
    assert answering(first) and answering(second) and first != second
    with closing(KeyStore(pg_schema_url)) as keys:
        key = keys.create(["tables", "tokens"], "serve test").token
    platform = {"Authorization": f"Bearer {key}"}
    table = f"t-{uuid.uuid4().hex[:8]}"
    with httpx.Client(timeout=15) as http:
        opened = http.post(f"{first}/v1/tables", headers=platform | {"Idempotency-Key": f"{table}/open"},
                           json={"table_id": table, "variant": "harbin", "players": ["a", "b", "c", "d"]})  # fmt: skip
        assert opened.json()["status"] == "accepted", opened.text  # through the worker process
        dealt = http.post(f"{second}/v1/tables/{table}/hands", headers=platform | {"Idempotency-Key": f"{table}/deal"})
        assert dealt.json()["status"] == "accepted", dealt.text
        tokens = [http.post(f"{first}/v1/tables/{table}/seats/{seat}/tokens", headers=platform,
                            json={"player": p}).json()["token"] for seat, p in enumerate("abcd")]  # fmt: skip
        # minted at the first API, used at the second: one secret for all of them
        acting = next(s for s in range(4) if any(
            c["command"] == "discard_tile" for c in http.get(
                f"{second}/v1/tables/{table}/seats/{s}/legal",
                headers={"Authorization": f"Bearer {tokens[s]}"}).json()["commands"]))  # fmt: skip
        seat = {"Authorization": f"Bearer {tokens[acting]}"}
        legal = http.get(f"{second}/v1/tables/{table}/seats/{acting}/legal", headers=seat).json()
        discard = next(c for c in legal["commands"] if c["command"] == "discard_tile")
        moved = http.post(f"{second}/v1/tables/{table}/commands", json=discard,
                          headers=seat | {"Idempotency-Key": f"{table}/move"})  # fmt: skip
        assert moved.json()["status"] == "accepted", moved.text
        first_event = moved.json()["first_version"]
        with http.stream("GET", f"{first}/v1/tables/{table}/seats/{acting}/events",
                         headers=seat | {"Last-Event-ID": str(first_event - 1)}) as stream:  # fmt: skip
            frames = (json.loads(line[5:]) for line in stream.iter_lines() if line.startswith("data:"))
            data = next(frame for frame in frames if "type" in frame)  # past the opening view
        assert data["type"] == "tile_discarded"  # the other API streams it
    # an API process killed with SIGKILL is started again by serve, on its own port
    port = second.rsplit(":", 1)[1]
    victim = next(pid for pid, p in api_children(process.pid).items() if p == port)
    os.kill(victim, signal.SIGKILL)  # a process of the paiju serve this test started
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and victim in api_children(process.pid):
        time.sleep(0.2)
    assert answering(second)
    assert port in api_children(process.pid).values()


def test_the_api_processes_come_first_each_on_a_port_of_its_own() -> None:
    ports = api_ports("127.0.0.1", 0, 3)
    assert len(set(ports)) == 3 and all(ports)
    group = parts(2, 1, 1, False, 1, ports)
    assert [p.name for p in group] == ["api-0", "api-1", "api-2", "worker-0", "worker-1",
                                       "timekeeper-0", "projector-0"]  # fmt: skip
    assert group[1].argv[-3:] == ["api", "--port", str(ports[1])]
