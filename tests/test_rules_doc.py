"""``docs/rules.md`` traces every rule sentence of the five documents to the tests that hold it.

These tests keep the trace from rotting: every ``tests/...py::name`` it cites must name a test
function that exists, every sentence row must cite a test or say why it has none, and the
summary's counts must be the rows' own.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRACE = ROOT / "docs" / "rules.md"
DOCUMENTS = ("000", "001", "002", "003", "004")
REFERENCE = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
ROW = re.compile(r"^\|\s*((\d{3})\.\d+)\s*\|")
NO_TEST = re.compile(r"\*\*no test\*\*:\s*\S")
SUMMARY = re.compile(r"^\|\s*`(\d{3})`\s*\|[^|]*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|")


def _trace() -> str:
    return TRACE.read_text(encoding="utf-8")


def _rows() -> list[tuple[str, str, str]]:
    """(sentence id, document, the row's last cell) for every sentence row of the trace."""
    rows = []
    for line in _trace().splitlines():
        found = ROW.match(line)
        if found:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((found.group(1), found.group(2), cells[-1]))
    return rows


@cache
def _test_functions(path: str) -> frozenset[str]:
    """Names of the functions defined in a test file (at module level or in a class)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.add(node.name)
        elif isinstance(node, ast.ClassDef):
            found.update(
                item.name
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            )
    return frozenset(found)


def _references() -> list[tuple[str, str]]:
    return sorted(set(REFERENCE.findall(_trace())))


def _is_test(path: str, name: str) -> bool:
    return name.startswith("test_") and (ROOT / path).is_file() and name in _test_functions(path)


def test_the_trace_cites_tests_at_all() -> None:
    assert len(_references()) > 100


def test_every_test_the_trace_cites_exists() -> None:
    missing = [f"{path}::{name}" for path, name in _references() if not _is_test(path, name)]
    assert not missing, f"docs/rules.md cites tests that do not exist: {missing}"


def test_every_sentence_row_cites_a_test_or_says_why_it_has_none() -> None:
    bare = [
        sentence
        for sentence, _, tests in _rows()
        if not REFERENCE.search(tests) and not NO_TEST.search(tests)
    ]
    assert not bare, f"rows with neither a test nor a reason: {bare}"


def test_sentence_ids_are_unique_and_cover_the_five_documents() -> None:
    ids = [sentence for sentence, _, _ in _rows()]
    assert len(ids) == len(set(ids)), "a sentence id is used twice"
    assert {document for _, document, _ in _rows()} == set(DOCUMENTS)


def test_the_summary_counts_the_rows_as_they_are() -> None:
    counted: dict[str, tuple[int, int, int]] = {}
    for document in DOCUMENTS:
        rows = [tests for _, d, tests in _rows() if d == document]
        untested = sum(1 for tests in rows if NO_TEST.search(tests))
        counted[document] = (len(rows), len(rows) - untested, untested)
    stated = {
        m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        for m in map(SUMMARY.match, _trace().splitlines())
        if m
    }
    assert stated == counted


def test_the_open_list_names_exactly_the_rows_that_are_not_yet_implemented() -> None:
    text = _trace()
    section = text[text.index("## Open") :].split("Rows whose rule is implemented")[0]
    listed = set(re.findall(r"^- (\d{3}\.\d+):", section, flags=re.MULTILINE))
    expected = {sentence for sentence, _, tests in _rows() if "not yet implemented" in tests}
    assert listed == expected
