"""README's layout table names every part of the tree: each top-level folder and each part of
``services/`` (a part added without a line there is a part a newcomer cannot find)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_PARTS = {"__pycache__", "__init__.py"}


def _table_paths() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## How it fits together", 1)[1].split("\n## ", 1)[0]
    return {p.rstrip("/") for row in section.splitlines() if row.startswith("| `")
            for p in re.findall(r"`([^`]+)`", row.split("|")[1])}  # fmt: skip


def _parts() -> set[str]:
    top = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")
           and not p.name.endswith(".egg-info") and p.name not in NOT_PARTS}  # fmt: skip
    services = {f"services/{p.name}" for p in (ROOT / "services").iterdir()
                if p.name not in NOT_PARTS}  # fmt: skip
    return (top - {"services"}) | services


def test_the_readme_layout_table_names_every_part_of_the_tree() -> None:
    listed = _table_paths()
    assert sorted(_parts() - listed) == []
    assert sorted(p for p in listed if not (ROOT / p).exists()) == []
