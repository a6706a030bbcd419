"""Shared by the CLI tests: a SQLite store holding a table the bots played, and ``paiju`` run
both in this process (``run``) and as a real process (``run_process``)."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

from events.store import open_store
from services.cli.main import main
from services.cli.simulate_store import run_variant_on_store

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class StoredTable:
    url: str
    path: Path
    table_id: str
    hands: int


def store_table(path: Path, variant: str = "harbin", hands: int = 3) -> StoredTable:
    url = f"sqlite:///{path}"
    with closing(open_store(url)) as store:
        run = run_variant_on_store(variant, hands, "cli-tests", "winning", store, url)
    assert run.failure is None and run.table_id is not None, run.failure
    return StoredTable(url, path, run.table_id, hands)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``paiju ARGV`` in this process: (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def paiju_command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "services.cli.main", *argv]


def run_process(
    *argv: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        paiju_command(*argv),
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


def one_line(err: str) -> str:
    """The single line a failure prints; fails the test when there are more (a traceback)."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]
