"""A pytest plugin for ``mutation.select``: keep only the tests whose node ids are listed in the
file named by ``PAIJU_MUTATION_ONLY``; the others are deselected, as ``-k`` would."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = set(Path(os.environ["PAIJU_MUTATION_ONLY"]).read_text().splitlines())
    kept = [item for item in items if item.nodeid in wanted]
    dropped = [item for item in items if item.nodeid not in wanted]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
