"""The attacks' targets: a real ``paiju serve`` embedded (SQLite, one process) for the module,
and one distributed on PostgreSQL and a private Redis (the processes' path) for the tests that
need the worker, timekeeper and projector as processes of their own."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from security_kit import Served

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "faults"))
from fault_kit import PrivateRedis  # noqa: E402
from pg_reset import fresh_schema  # noqa: E402

PG_URL = os.environ.get("PAIJU_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/paiju_test")
QUICK_CLOCKS = {
    "PAIJU_TURN_SECONDS": "2",
    "PAIJU_AUTOPLAY_WINDOW_SECONDS": "1",
    "PAIJU_CLAIM_SECONDS": "2",
    "PAIJU_API_COMMAND_WAIT": "5",
}


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``paiju serve`` on its embedded default, with quick turn clocks."""
    root = tmp_path_factory.mktemp("serve")
    served = Served(root, {"PAIJU_STORE_URL": f"sqlite:///{root}/paiju.sqlite3", **QUICK_CLOCKS})
    served.start()
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(scope="module")
def distributed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``paiju serve --apis 1 --workers 1 --timekeepers 1 --projectors 1`` on a PostgreSQL
    schema of its own and a private redis-server."""
    root = tmp_path_factory.mktemp("serve-pg")
    redis_root = root / "redis"
    redis_root.mkdir()
    redis = PrivateRedis(redis_root)
    redis.start()
    try:
        with fresh_schema("security") as schema:
            env = {
                "PAIJU_STORE_URL": f"{PG_URL}?schema={schema}",
                "PAIJU_BROKER_URL": redis.url,
                **QUICK_CLOCKS,
            }
            served = Served(root, env, ["--apis", "1", "--workers", "1", "--timekeepers", "1",
                                        "--reactors", "0", "--projectors", "1"])  # fmt: skip
            served.start(timeout=90)
            try:
                yield served
            finally:
                served.stop()
    finally:
        redis.stop()
