"""The house's ladder (issue 23), as ``lint-imports`` enforces it from ``pyproject.toml``: the
contracts hold on the tree, and an import that leans the wrong way breaks them, named."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("services", "events", "workers", "readmodels", "ops")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=where, capture_output=True,
                          text=True, timeout=120)  # fmt: skip


def test_every_contract_of_the_ladder_is_kept() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_a_worker_importing_the_api_breaks_the_workers_contract(tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    leaning = tmp_path / "workers" / "queues.py"
    leaning.write_text(leaning.read_text() + "\nfrom services.api import app  # noqa: E402\n")
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Workers import no API, CLI, serve or demo BROKEN" in done.stdout
    assert "workers.queues -> services.api.app" in done.stdout
    assert "1 broken" in done.stdout
