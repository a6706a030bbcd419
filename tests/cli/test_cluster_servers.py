"""The local cluster's own servers: a PostgreSQL crashed (immediate stop) and started again keeps
every committed row, and a Redis killed with SIGKILL comes back with its append-only file."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg

from services.cluster.servers import PrivatePostgres, PrivateRedis


def test_a_private_postgres_crashed_and_restarted_keeps_what_was_committed(tmp_path: Path) -> None:
    server = PrivatePostgres(tmp_path)
    server.start()
    try:
        with psycopg.connect(server.url, autocommit=True) as db:
            db.execute("CREATE TABLE kept (n int)")
            db.execute("INSERT INTO kept VALUES (7)")
        server.restart()
        with psycopg.connect(server.url) as db:
            assert db.execute("SELECT n FROM kept").fetchall() == [(7,)]
        assert server.restarts == 1
    finally:
        server.stop()


def test_a_private_redis_killed_comes_back_with_its_append_only_file(tmp_path: Path) -> None:
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        server.client().rpush("paiju:commands", "a move")
        time.sleep(1.5)  # appendfsync everysec
        server.restart()
        assert server.client().lrange("paiju:commands", 0, -1) == [b"a move"]
    finally:
        server.stop()
