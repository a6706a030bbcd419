"""Each mutant runs only the tests that ran its line: a map from lines to tests, made once per
module under coverage, and the command a worker runs for each mutant.

``make mutate`` runs a module's tests once unmutated under coverage with one context per test
(pytest-cov's ``--cov-context=test``) and keeps, in ``mutation/work/sessions/<module>.tests.json``,
for every line of the module the tests that ran it, and the lines run outside any test (at
import: module-level tables, ``def`` lines, defaults). A mutant changes behaviour only where its
line runs, so a test that never ran that line unmutated passes on the mutant too: running it
could not kill the mutant, only cost time.

``python -m mutation.select MAP ARGS...`` is the test command of every mutant, in a worker's
tree: it finds the lines the mutant changed (the module's file against the source kept in the
map), widens each to its whole statement (coverage counts a statement at one of its lines), and

- a line run at import: every test of the module runs (``ARGS``, as without a map);
- lines run by some tests: only those (their files collected, the rest deselected by id);
- lines no test ran: no test runs, the mutant survives (exit 0), and says so.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import subprocess
import sys
from pathlib import Path

from mutation.config import PY

# Installed plugins are not loaded (schemathesis, anyio, xdist, cov: importing them cost each
# mutant's pytest twice the time of the engine's tests it ran); the engine's tests need only
# Hypothesis's.
BASE = ["-x", "-q", "-p", "no:cacheprovider", "-p", "_hypothesis_pytestplugin",
        "--hypothesis-seed=0"]  # fmt: skip
PYTEST_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
ONLY_ENV = "PAIJU_MUTATION_ONLY"  # the file of node ids the ``mutation.only`` plugin keeps


def build(module: str, args: list[str], tree: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in ``tree`` under coverage of ``module`` and write the map to ``out``."""
    return build_many({module: out}, args, tree)


def build_many(
    outs: dict[str, Path], args: list[str], tree: Path
) -> subprocess.CompletedProcess[str]:
    """One run of ``args`` under coverage of every module of ``outs``, and each module's map
    written to its path: modules that share their tests share the run (the table's tests take
    minutes under coverage, once for twenty modules rather than twenty times)."""
    data_file = next(iter(outs.values())).with_suffix(".coverage")
    data_file.unlink(missing_ok=True)
    env = dict(os.environ, PYTHONPATH=str(tree), COVERAGE_FILE=str(data_file), **PYTEST_ENV)
    covs = [f"--cov={_dotted(m)}" for m in outs]
    result = subprocess.run(
        [PY, "-m", "pytest", *BASE, "-p", "pytest_cov.plugin", *covs, "--cov-context=test",
         "--cov-report=", *args],
        cwd=tree, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if result.returncode == 0:
        for module, out in outs.items():
            out.write_text(json.dumps(_lines_to_tests(module, tree, data_file)))
    data_file.unlink(missing_ok=True)
    return result


def _dotted(module: str) -> str:
    return module.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _lines_to_tests(module: str, tree: Path, data_file: Path) -> dict[str, object]:
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    path = str((tree / module).resolve())
    by_line = data.contexts_by_lineno(path)
    tests: dict[str, list[str]] = {}
    imported: list[int] = []
    for line, contexts in sorted(by_line.items()):
        ids = sorted({c.rsplit("|", 1)[0] for c in contexts if c})
        if "" in contexts:
            imported.append(line)
        if ids:
            tests[str(line)] = ids
    return {
        "module": module,
        "source": (tree / module).read_text(encoding="utf-8"),
        "tests": tests,
        "imported": imported,
    }


def changed(original: str, mutated: str) -> set[int]:
    """The original's line numbers (1-based) that the mutant rewrote."""
    a, b = original.splitlines(), mutated.splitlines()
    lines: set[int] = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            lines.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    return lines


def statement_lines(source: str, lines: set[int]) -> set[int]:
    """``lines`` widened to the statements they are in (a compound statement: its header)."""
    widened = set(lines)
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.stmt) or node.end_lineno is None:
            continue
        body = [
            n for f in ("body", "orelse", "finalbody", "handlers") for n in getattr(node, f, [])
        ]
        end = min((n.lineno for n in body), default=node.end_lineno + 1) - 1
        span = range(node.lineno, max(end, node.lineno) + 1)
        if any(line in span for line in lines):
            widened.update(span)
    return widened


def selected(made: dict[str, object], mutated: str) -> list[str] | None:
    """The tests to run: ``None`` for all of them, ``[]`` for none."""
    source = str(made["source"])
    lines = statement_lines(source, changed(source, mutated))
    imported = set(made["imported"])  # type: ignore[arg-type]
    if not lines or lines & imported or not (imported or made["tests"]):
        return None  # no line ran at all: coverage did not see the module, so trust no map
    tests: dict[str, list[str]] = made["tests"]  # type: ignore[assignment]
    return sorted({t for line in lines for t in tests.get(str(line), [])})


def main(argv: list[str]) -> int:
    map_path, args = Path(argv[0]), argv[1:]
    made = json.loads(map_path.read_text())
    mutated = Path(str(made["module"])).read_text(encoding="utf-8")
    chosen = selected(made, mutated)
    if chosen is None:
        return _pytest(args, PYTEST_ENV)
    if not chosen:
        print("no test ran the mutated line(s) unmutated: none can kill this mutant")
        return 0
    only = map_path.with_name(f"{map_path.stem}.{os.getpid()}.only")
    only.write_text("\n".join(chosen))
    files = sorted({t.split("::", 1)[0] for t in chosen},
                   key=lambda f: (args.index(f) if f in args else len(args), f))  # fmt: skip
    options = [a for i, a in enumerate(args) if a.startswith("-") or (i and args[i - 1] == "-k")]
    try:
        code = _pytest(
            ["-p", "mutation.only", *options, *files], {ONLY_ENV: str(only), **PYTEST_ENV}
        )
    finally:
        only.unlink(missing_ok=True)
    if code == 5:  # nothing collected by those ids (renamed since the map): run them all
        return _pytest(args, PYTEST_ENV)
    return code


def _pytest(args: list[str], env: dict[str, str]) -> int:
    return subprocess.run(
        [PY, "-m", "pytest", *BASE, *args], env=dict(os.environ, **env)
    ).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
