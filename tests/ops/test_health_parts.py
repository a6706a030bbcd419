"""``paiju health`` part by part: the worker, the timekeeper, the projector and the reactor
each report what is wrong while their store is gone, their build is stopped, or they are dead,
and healthy again once it is put right."""

from __future__ import annotations

import io
import os
import signal
from pathlib import Path

import pytest
from ops_kit import Part, PrivateRedis, until

from events.store import parse_store_url
from readmodels.db import open_projection_db
from services.cli import health_cmd
from services.cli.main import build_parser

PARTS = ("worker", "timekeeper", "projector", "reactor")
ARGV = {
    "worker": ["worker", "--pool", "prefork", "--concurrency", "1", "--without-mingle",
               "--without-gossip"],
    "timekeeper": ["timekeeper"],
    "projector": ["projector"],
    "reactor": ["reactor"],
}  # fmt: skip


def _health() -> tuple[int, dict[str, str]]:
    """``paiju health``'s status and its lines by what they are about (store, worker, ...)."""
    out = io.StringIO()
    code = health_cmd.main(build_parser().parse_args(["health"]), out=out)
    lines = dict(line.split(": ", 1) for line in out.getvalue().splitlines())
    return code, lines


def _healthy() -> bool:
    return _health()[0] == 0


def test_each_part_says_what_is_wrong_while_it_is_and_is_healthy_once_it_is_put_right(
    private_redis: PrivateRedis, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = {"PAIJU_BROKER_URL": private_redis.url, "PAIJU_STORE_URL": store_url,
                "PAIJU_HEARTBEAT_SECONDS": "0.2", "PAIJU_HEARTBEAT_STALE_SECONDS": "2",
                "PAIJU_WEBHOOK_URL": "http://127.0.0.1:9/hooks", "PAIJU_WEBHOOK_SECRET": "s" * 32,
                "PAIJU_LOG_FORMAT": "json"}  # fmt: skip
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    parts = {name: Part(name, ARGV[name], {**os.environ}, tmp_path) for name in PARTS}
    for part in parts.values():
        part.start()
    try:
        assert until(_healthy, 60, 0.2), (_health(), {n: p.log_text()[-800:] for n, p in parts.items()})
        assert _health()[1]["worker"] == "ok (1 alive)"

        store_file = Path(parse_store_url(store_url).path)
        store_file.rename(store_file.with_suffix(".away"))  # the store is gone for new connections
        try:
            def all_say_store_unreachable() -> bool:
                lines = _health()[1]
                return all("store unreachable: " in lines[name] for name in PARTS)

            assert until(all_say_store_unreachable, 20, 0.2), _health()
            code, lines = _health()
            assert code == 1 and lines["store"].startswith("store unreachable: ")
        finally:
            store_file.with_suffix(".away").rename(store_file)
        assert until(_healthy, 20, 0.2), _health()

        db = open_projection_db(store_url)
        try:
            points = db.active_build("points")
            assert points is not None
            stopped = "stopped at position 7 (hand_settled of t-1 v96): KeyError: 'winner'"
            db.record_error("points", points.build, 7, stopped)
            assert until(lambda: f"projector points {stopped}" in _health()[1]["projector"], 20,
                         0.2), _health()  # fmt: skip
            db.clear_error("points", points.build)
            assert until(_healthy, 20, 0.2), _health()
        finally:
            db.close()

        timekeeper = parts["timekeeper"]
        os.killpg(timekeeper.pid, signal.SIGKILL)  # dead: no word from it, its last heartbeat ages
        timekeeper.process.wait(10)  # type: ignore[union-attr]
        assert until(lambda: "no timekeeper heartbeat for " in _health()[1]["timekeeper"], 20,
                     0.2), _health()  # fmt: skip
        assert _health()[1]["worker"] == "ok (1 alive)"
        timekeeper.start()
        assert until(_healthy, 30, 0.2), _health()
    finally:
        for part in parts.values():
            part.stop()
    assert not any("heartbeat.not_written" in part.log_text() for part in parts.values())
