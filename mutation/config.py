"""What is mutated, with which operators, against which tests: read from ``mutation/*.toml``."""

from __future__ import annotations

import ast
import glob
import hashlib
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "mutation"
WORK = HERE / "work"  # gitignored: sessions, worker trees, logs
SESSIONS = WORK / "sessions"
PY = sys.executable

SCOPE_PACKAGES = ("services/rules",)
SCOPE_FILES = ("events/hashchain.py", "events/envelope.py")

# cosmic-ray's core operators, less those that are noise here (see docs/testing.md):
# - a binary operator turned into each of ten others: only the slips a hand makes are kept;
# - ``==`` into ``is``: on the small ints and interned strings the engine compares, the same.
KEPT_BINARY = {
    ("Add", "Sub"), ("Sub", "Add"), ("Mul", "Add"), ("Mul", "Div"), ("Div", "Mul"),
    ("FloorDiv", "Div"), ("FloorDiv", "Mul"), ("Mod", "FloorDiv"), ("Pow", "Mul"),
    ("BitOr", "BitAnd"), ("BitAnd", "BitOr"), ("BitXor", "BitOr"),
    ("LShift", "RShift"), ("RShift", "LShift"),
}  # fmt: skip


def operator_kept(name: str) -> bool:
    op = name.split("/", 1)[1]
    if op.startswith("ReplaceBinaryOperator_"):
        _, left, right = op.split("_")
        return (left, right) in KEPT_BINARY
    if op.startswith("ReplaceComparisonOperator_"):
        _, left, right = op.split("_")
        return not ({left, right} & {"Is", "IsNot"}) or {left, right} == {"Is", "IsNot"}
    return op not in ("VariableReplacer", "VariableInserter")  # need arguments: not configured


def scope() -> list[str]:
    """Every module mutated by ``make mutate``: each file of services/rules and the two events."""
    found = [
        str(p.relative_to(ROOT))
        for package in SCOPE_PACKAGES
        for p in sorted((ROOT / package).rglob("*.py"))
        if p.read_text(encoding="utf-8").strip()
    ]
    return found + list(SCOPE_FILES)


def slug(module: str) -> str:
    return module.removesuffix(".py").replace("/", ".")


def source_digest(module: str) -> str:
    return hashlib.sha256((ROOT / module).read_bytes()).hexdigest()


@dataclass(frozen=True)
class TestsMap:
    tiers: dict[str, list[str]]
    modules: dict[str, list[str]]
    folders: dict[str, list[str]]

    @classmethod
    def load(cls) -> TestsMap:
        data = tomllib.loads((HERE / "tests.toml").read_text(encoding="utf-8"))
        return cls(data["tiers"], data.get("modules", {}), data.get("folders", {}))

    def entry(self, module: str) -> list[str]:
        if module in self.modules:
            return self.modules[module]
        folders = [f for f in self.folders if module.startswith(f)]
        if folders:
            return self.folders[max(folders, key=len)]
        return ["@fast"]

    def args(self, entry: list[str]) -> list[str]:
        """Pytest arguments: tiers (``@name``) expanded, globs expanded, missing globs dropped."""
        out: list[str] = []
        for arg in entry:
            if arg.startswith("@"):
                out.extend(a for a in self.args(self.tiers[arg[1:]]) if a not in out)
            elif arg.startswith("-") or (out and out[-1] == "-k"):
                out.append(arg)
            elif any(c in arg for c in "*?["):
                out.extend(sorted(glob.glob(arg, root_dir=ROOT)))
            elif arg not in out:
                out.append(arg)
        return out

    def for_module(self, module: str) -> list[str]:
        return self.args(self.entry(module))

    def fast(self) -> list[str]:
        return self.args(["@fast"])


def test_command(args: list[str], tests_map: Path) -> str:
    """The command a worker runs for one mutant, in its own copy of the tree: the tests of
    ``args`` that ran the mutated line (``mutation/select.py``), with ``-x`` (the first failure
    kills it), in one process, Hypothesis seeded so that a survivor survives again."""
    return " ".join([PY, "-m", "mutation.select", str(tests_map)] + [_quote(a) for a in args])


def _quote(arg: str) -> str:
    return f"'{arg}'" if any(c in arg for c in " *?") else arg


def annotation_spans(module: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where ``module``'s annotations are: under ``from __future__ import annotations`` they are
    never evaluated, so a mutant inside one is mypy's to find, not a test's. A class's field
    annotations are left out of the spans where pydantic may read them (a model's fields)."""
    text = (ROOT / module).read_text(encoding="utf-8")
    return _spans(ast.parse(text), models="pydantic" in text)


def _spans(tree: ast.Module, models: bool) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    fields = {
        id(n)
        for c in ast.walk(tree)
        if models and isinstance(c, ast.ClassDef)
        for n in c.body
        if isinstance(n, ast.AnnAssign)
    }
    spans = []
    for node in ast.walk(tree):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign) and id(node) not in fields:
            found.append(node.annotation)
        for ann in found:
            if ann is not None and ann.end_lineno is not None and ann.end_col_offset is not None:
                spans.append(((ann.lineno, ann.col_offset), (ann.end_lineno, ann.end_col_offset)))
    return spans


def annotations_inert(module: str) -> bool:
    """Annotations never run: postponed, and no function's checked at call time (pydantic's
    ``validate_call``); a pydantic model's fields are kept out of the spans instead."""
    text = (ROOT / module).read_text(encoding="utf-8")
    return "from __future__ import annotations" in text and "validate_call" not in text
