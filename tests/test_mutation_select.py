"""``make mutate`` runs each mutant against the tests that ran its line (mutation/select.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mutation.select import changed, selected, statement_lines

SOURCE = """\
LIMIT = 3


def within(c):
    if not 2 <= c <= LIMIT:
        return False
    total = (c +
             1)
    return total > 0
"""


def _map(tests: dict[int, list[str]], imported: list[int]) -> dict[str, object]:
    return {"source": SOURCE, "tests": {str(k): v for k, v in tests.items()}, "imported": imported}


def test_a_mutant_is_found_at_the_line_it_rewrote() -> None:
    assert changed(SOURCE, SOURCE.replace("2 <= c", "1 <= c")) == {5}
    assert changed(SOURCE, SOURCE) == set()


def test_a_line_inside_a_statement_widens_to_the_whole_statement() -> None:
    assert statement_lines(SOURCE, {8}) == {7, 8}


def test_a_compound_statement_widens_to_its_header_not_its_body() -> None:
    assert statement_lines(SOURCE, {5}) == {5}
    assert 6 not in statement_lines(SOURCE, {5})


def test_a_mutant_runs_only_the_tests_that_ran_its_line() -> None:
    made = _map({5: ["t.py::test_a", "t.py::test_b"], 7: ["t.py::test_c"]}, imported=[1, 4])
    assert selected(made, SOURCE.replace("2 <= c", "1 <= c")) == ["t.py::test_a", "t.py::test_b"]
    assert selected(made, SOURCE.replace("1)", "2)")) == ["t.py::test_c"]  # line 8 counts as 7


def test_a_mutant_of_a_line_run_at_import_runs_every_test() -> None:
    made = _map({5: ["t.py::test_a"]}, imported=[1, 4])
    assert selected(made, SOURCE.replace("LIMIT = 3", "LIMIT = 4")) is None


def test_a_mutant_of_a_line_no_test_ran_runs_none_and_survives() -> None:
    made = _map({5: ["t.py::test_a"]}, imported=[1, 4])
    assert selected(made, SOURCE.replace("total > 0", "total >= 0")) == []


def test_a_map_that_saw_no_line_of_the_module_runs_every_test() -> None:
    """Coverage that missed the module (a package's ``__init__`` named as a module) proves
    nothing: the mutant runs against all the tests, never survives for want of a map."""
    assert selected(_map({}, imported=[]), SOURCE.replace("total > 0", "total >= 0")) is None


MODEL = """\
from __future__ import annotations
from pydantic import BaseModel


class Rulings(BaseModel):
    seat: int | None = None


def ruled(seat: int | None) -> str | None:
    kept: int | None = seat
    return None
"""


def test_a_models_fields_are_mutated_but_function_annotations_are_not() -> None:
    """pydantic evaluates a model's field annotations; nothing evaluates a postponed function
    annotation, so a mutant there is mypy's to find and is left out of the run."""
    import ast

    from mutation.config import _spans

    lines = {start[0] for start, _ in _spans(ast.parse(MODEL), models=True)}
    assert lines == {9, 10}
    assert {start[0] for start, _ in _spans(ast.parse(MODEL), models=False)} == {6, 9, 10}


def test_modules_sharing_their_tests_get_from_one_run_the_maps_each_run_alone_gives(
    tmp_path: Path,
) -> None:
    """The table's twenty modules run the same tests: one coverage run maps them all."""
    pytest.importorskip("pytest_cov")  # the mutate extra, which CI does not install
    from mutation.select import build, build_many

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("def a(x):\n    return x + 1\n")
    (tmp_path / "pkg" / "b.py").write_text("def b(x):\n    if x:\n        return 1\n    return 0\n")
    (tmp_path / "test_ab.py").write_text(
        "from pkg.a import a\nfrom pkg.b import b\n\n"
        "def test_a():\n    assert a(1) == 2\n\n"
        "def test_b():\n    assert b(0) == 0\n"
    )
    shared = {m: tmp_path / f"{m.replace('/', '.')}.shared.json" for m in ("pkg/a.py", "pkg/b.py")}
    assert build_many(shared, ["test_ab.py"], tmp_path).returncode == 0
    for module, out in shared.items():
        alone = tmp_path / f"{module.replace('/', '.')}.alone.json"
        assert build(module, ["test_ab.py"], tmp_path, alone).returncode == 0
        assert json.loads(out.read_text()) == json.loads(alone.read_text())
    b_map = json.loads(shared["pkg/b.py"].read_text())
    assert b_map["tests"]["4"] == ["test_ab.py::test_b"]  # `return 0` ran under test_b only
    assert "3" not in b_map["tests"]  # `return 1` ran under no test
