"""``paiju reactor`` refuses, in one line naming the variable, settings it cannot run with."""

from __future__ import annotations

import subprocess
import sys

import pytest


def reactor(env: dict[str, str], tmp_path: object) -> subprocess.CompletedProcess[str]:
    store = f"sqlite:///{tmp_path}/cli.sqlite3"
    return subprocess.run(
        [sys.executable, "-m", "services.cli.main", "reactor", "--store", store],
        env={"PATH": "/usr/bin:/bin", **env}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({}, "PAIJU_WEBHOOK_URL is not set"),
        ({"PAIJU_WEBHOOK_URL": "http://127.0.0.1:9/h"}, "PAIJU_WEBHOOK_SECRET is not set"),
        ({"PAIJU_WEBHOOK_URL": "ftp://x", "PAIJU_WEBHOOK_SECRET": "s"}, "http:// or https://"),
        ({"PAIJU_WEBHOOK_MAX_ATTEMPTS": "zero"}, "PAIJU_WEBHOOK_MAX_ATTEMPTS"),
        ({"PAIJU_WEBHOOK_URL": "http://127.0.0.1:9/h", "PAIJU_WEBHOOK_SECRET": "s",
          "PAIJU_WEBHOOK_TIMEOUT": "40"}, "lease"),
    ],
)  # fmt: skip
def test_a_reactor_that_cannot_run_says_why_in_one_line(
    env: dict[str, str], named: str, tmp_path: object
) -> None:
    done = reactor(env, tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("paiju reactor: ") and done.stderr.count("\n") == 1
    assert named in done.stderr
