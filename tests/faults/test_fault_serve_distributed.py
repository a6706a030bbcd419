"""``paiju serve --demo`` distributed (Redis broker, PostgreSQL store, a webhook URL): the worker,
the timekeeper and the reactor run as processes of their own, the demo plays through them, the
idle seat is played by the timers, the platform is told of each settled hand once, and each
part killed with SIGKILL is started again by serve, the play going on."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from fault_kit import PrivateRedis, Receiver, count_log, notified_keys, paiju

from events.store import open_store
from events.store.base import EventStore
from services.demo.http_demo import Plan

SECONDS = 90  # at most: the test stops it (SIGTERM) once it has seen what it looks for
SECRET = "platform-shared-secret"
TABLES = [f"{Plan().room(n).room}.1" for n in range(2)]  # the demo rooms' first tables


def children(pid: int) -> dict[int, str]:
    """The processes ``pid`` started, with the ``paiju`` command each runs."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                argv = (stat.parent / "cmdline").read_bytes().split(b"\0")
                found[int(stat.parent.name)] = " ".join(a.decode() for a in argv[3:4])
    return found


def the_part(serve: subprocess.Popen[str], name: str, timeout: float = 30) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid, what in children(serve.pid).items():
            if what == name:
                return pid
        time.sleep(0.1)
    raise AssertionError(f"paiju serve runs no {name}: {children(serve.pid)}")


def events_since(store: EventStore, position: int, actor: str) -> int:
    return sum(
        1 for t in TABLES for e in store.read_stream(t)
        if e.position > position and e.actor.kind == actor
    )  # fmt: skip


def wait_for(check: object, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.2)
    return False


def last_position(store: EventStore) -> int:
    return max((e.position for t in TABLES for e in store.read_stream(t)), default=0)


def test_paiju_serve_distributed_plays_the_demo_and_restarts_a_part_killed_with_sigkill(
    private_redis: PrivateRedis, faults_pg_url: str, tmp_path: Path
) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
        "PAIJU_BROKER_URL": private_redis.url,
        "PAIJU_STORE_URL": faults_pg_url,
        "PAIJU_API_PORT": "0",  # any free port: other tests serve beside this one
        "PAIJU_VISIBILITY_TIMEOUT": "5",
        "PAIJU_TURN_SECONDS": "1",
        "PAIJU_AUTOPLAY_WINDOW_SECONDS": "1",
        "PAIJU_CLAIM_SECONDS": "1",
        "PAIJU_LOG_LEVEL": "WARNING",
    }
    receiver = Receiver(SECRET)
    env |= {"PAIJU_WEBHOOK_URL": receiver.url, "PAIJU_WEBHOOK_SECRET": SECRET}
    store = open_store(faults_pg_url)
    out = (tmp_path / "serve.out").open("w+")
    serve = subprocess.Popen(
        [*paiju(), "serve", "--demo", "--tables", "2", "--workers", "1", "--for", str(SECONDS)],
        env=env, stdout=out, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
        start_new_session=True,
    )  # fmt: skip
    killed: dict[str, tuple[int, int]] = {}
    pool: list[int] = []  # the killed worker's pool processes, orphaned by the kill
    try:
        # played, and timed; the demo plays through the API process, which starts first
        assert wait_for(lambda: events_since(store, 0, "timer") > 0, 90)
        for name in ("worker", "timekeeper", "reactor"):
            before = the_part(serve, name)
            mark = last_position(store)
            pool += list(children(before)) if name == "worker" else []
            os.kill(before, signal.SIGKILL)  # a process of the paiju serve this test started
            assert wait_for(lambda n=name, b=before: the_part(serve, n) != b, 15)  # type: ignore[misc]
            after = the_part(serve, name)
            # the restarted part does its work: moves recorded after the kill, by seats or timers
            if name != "reactor":
                kind = "seat" if name == "worker" else "timer"
                assert wait_for(lambda m=mark, k=kind: events_since(store, m, k) > 0, 30), name
            killed[name] = (before, after)
        # a hand settled after the kills: the platform is told (the reactor restarted)
        after_kills = notified_keys(store, TABLES)
        settled = wait_for(lambda: notified_keys(store, TABLES) - after_kills, 45)
        due = notified_keys(store, TABLES)
        assert settled and wait_for(lambda: due <= receiver.keys(), 20), (due, receiver.received)
        os.kill(serve.pid, signal.SIGTERM)  # as a service manager stops it
        assert serve.wait(40) == 0
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(10)
    receiver.close()
    out.seek(0)
    printed = out.read()
    count = count_log(store, TABLES)
    by_timer = [e for t in TABLES for e in store.read_stream(t) if e.actor.kind == "timer"]
    opened = [store.read_stream(t)[0].payload["timing"] for t in TABLES]
    idle = [e for e in store.read_stream(TABLES[0]) if e.actor.kind == "seat" and e.actor.seat == 3]
    ends = [store.read_stream(t)[-1].type for t in TABLES]  # the demo ended them, parts still up
    store.close()
    exited = printed.count("part.exited")
    print(
        f"\npaiju serve distributed: killed {sorted(killed)} (restarted as"
        f" {[v[1] for v in killed.values()]}), part.exited logged {exited}; events {count.events}"
        f" ({len(by_timer)} by the timers), notifications due {len(due)} ({len(after_kills)}"
        f" before the kills), delivered"
        f" {len(receiver.received)}, doubled {receiver.doubled()}; doubled command ids {len(count.doubled_command_ids)},"
        f" tables not replaying {len(count.not_replaying)}"
    )
    assert "worker-0, timekeeper-0, projector-0, reactor-0 as processes" in printed
    assert "time is up" in printed and printed.count("paiju reactor: platform_webhooks from") >= 2
    assert receiver.doubled() == 0 and receiver.forged == 0
    assert exited >= 3
    assert [t["turn"] for t in opened] == [1, 1]  # PAIJU_TURN_SECONDS, as when embedded
    assert idle == []  # seat 3 at the first table never moved itself: the timers played it
    assert ends == ["table_closed", "table_closed"]
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == []
    leftover = [pid for pid in (*killed["worker"], *killed["timekeeper"], *pool)
                if Path(f"/proc/{pid}").exists()]  # fmt: skip
    assert leftover == []

