"""What is mutated, with which operators, against which tests: read from ``mutation/*.toml``."""

from __future__ import annotations

import ast
import glob
import hashlib
import io
import sys
import tokenize
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
# The event payloads moved into the engine's package (issue 23) but were never in scope: they
# declare shapes and bounds, which the schema and boundary tests pin; bringing them in is a run
# of its own (192 mutants), not a side effect of the move.
SCOPE_LEFT_OUT = ("services/rules/events/",)

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
    """Every module mutated by ``make mutate``: each file of services/rules (the payloads aside)
    and the two event-log modules."""
    found = [
        str(p.relative_to(ROOT))
        for package in SCOPE_PACKAGES
        for p in sorted((ROOT / package).rglob("*.py"))
        if p.read_text(encoding="utf-8").strip()
        and not str(p.relative_to(ROOT)).startswith(SCOPE_LEFT_OUT)
    ]
    return found + list(SCOPE_FILES)


def slug(module: str) -> str:
    return module.removesuffix(".py").replace("/", ".")


def source_digest(module: str) -> str:
    return hashlib.sha256((ROOT / module).read_bytes()).hexdigest()


def body_digest(module: str) -> str:
    """The digest of ``module`` with its import statements, docstrings and comments blanked.

    A mutant is an operator at a line and column of the code a module runs, and no operator
    touches a docstring or a comment; where a module's imports only name the same objects by a
    new path (a package moved) and its prose changed in place, every mutant and every line
    stays where it was, so a kept result still describes the module. Any other change, or a
    blanked part that grows or shrinks by a line, changes this digest too.
    """
    return body_of((ROOT / module).read_text(encoding="utf-8"))


def body_of(source: str) -> str:
    """``body_digest`` of a module's text."""
    lines = source.splitlines()
    for first, last in _prose_and_imports(source):
        for row in range(first - 1, last):
            lines[row] = "-"
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col].rstrip() if lines[row - 1] != "-" else "-"
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _prose_and_imports(source: str) -> list[tuple[int, int]]:
    """The line ranges of every import statement and docstring of ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append((node.lineno, node.end_lineno or node.lineno))
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            found.append((body[0].lineno, body[0].end_lineno or body[0].lineno))
    return found


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
