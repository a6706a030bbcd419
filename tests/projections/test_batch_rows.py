"""A batch's rows kept in memory (``BatchRows``) answer and write what the same operations
answered and wrote one statement at a time (``SqlRows``), on both stores."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from readmodels.base import Rows, TableSpec
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.sql import SqlRows

SPEC = TableSpec(
    "kit_rows",
    (("a", "text"), ("b", "int"), ("n", "int"), ("label", "text"), ("doc", "json")),
    ("a", "b"),
)
COUNTS = TableSpec("kit_counts", (("a", "text"), ("total", "int"), ("seen", "int")), ("a",))
Op = tuple[Any, ...]


class Kit:
    name: ClassVar[str] = "kit"
    code_version: ClassVar[int] = 1
    tables: ClassVar[tuple[TableSpec, ...]] = (SPEC, COUNTS)


def operations(seed: int, count: int = 80) -> list[Op]:
    """A random sequence of row operations over a few keys (inserts always of new keys)."""
    rng = random.Random(seed)
    keys = [{"a": a, "b": b} for a in "xy" for b in range(3)]
    fresh = 100
    ops: list[Op] = []
    for _ in range(count):
        key, a = rng.choice(keys), rng.choice("xyz")
        pick = rng.randrange(9)
        if pick == 0:
            values = {"n": rng.randrange(-5, 5), "label": rng.choice(["東", "南", None])}
            ops.append(("put", SPEC.name, key, dict(rng.sample(sorted(values.items()), 1))))
        elif pick == 1:
            doc = {"seat": rng.randrange(4), "ok": True, "tiles": (1, 2), "by": {3: "三"}}
            ops.append(("put", SPEC.name, key, {"doc": rng.choice([doc, {**doc, "by": [None]}])}))
        elif pick == 2:
            ops.append(("add", SPEC.name, key, {"n": rng.randrange(1, 9)},
                        rng.choice([None, {"label": "西"}])))  # fmt: skip
        elif pick == 3:
            key = {"a": rng.choice("xy"), "b": (fresh := fresh + 1)}
            keys.append(key)
            ops.append(("insert", SPEC.name, {**key, "n": 7, "doc": [1, {"b": 2, "a": 1}]}))
        elif pick == 4:
            ops.append(("delete", SPEC.name, key))
        elif pick == 5:
            ops.append(("get", SPEC.name, key))
        elif pick == 6:
            ops.append(("select", SPEC.name, {"a": key["a"]}, ("b",)))
        elif pick == 7:
            ops.append(("add", COUNTS.name, {"a": a}, {"total": rng.randrange(9), "seen": 1}))
        else:
            ops.append(rng.choice([("get", COUNTS.name, {"a": a}),
                                   ("put", COUNTS.name, {"a": a}, {"total": 0})]))  # fmt: skip
    return ops


def run(rows: Rows, ops: list[Op]) -> list[str]:
    """Every operation on ``rows``; what the reads answered (as text: key order and types
    count)."""
    answers: list[str] = []
    for op in ops:
        kind, table, *args = op
        if kind == "get":
            answers.append(repr(rows.get(table, *args)))
        elif kind == "select":
            answers.append(repr(rows.select(table, args[0], order=args[1])))
        else:
            getattr(rows, kind)(table, *args)
    return answers


def every_row(db: ProjectionDB, build: int) -> dict[str, Any]:
    with db.reader(Kit(), build) as rows:
        return {t.name: rows.select(t.name, {}, order=t.key) for t in Kit.tables}


@pytest.mark.parametrize("seed", range(6))
def test_a_batch_kept_in_memory_answers_and_writes_what_statement_by_statement_did(
    url: str, seed: int
) -> None:
    db = open_projection_db(url)
    try:
        one_by_one = db.new_build(Kit(), active=True).build
        kept = db.new_build(Kit(), active=False).build
        ops = operations(seed)
        for part in (ops[:40], ops[40:]):  # two batches: the second reads what the first wrote
            with db._transaction() as conn:
                plain = SqlRows(Kit.tables, one_by_one, db.dialect,
                                lambda t, p, conn=conn: db._run(conn, t, p))  # fmt: skip
                expected = run(plain, part)
            position = db.builds("kit")[1].position
            with db.batch(Kit(), kept, position, position + 1) as rows:
                assert run(rows, part) == expected
            assert every_row(db, kept) == every_row(db, one_by_one)
    finally:
        db.close()


def test_an_insert_of_a_key_already_there_fails_its_batch_and_writes_nothing(url: str) -> None:
    db = open_projection_db(url)
    try:
        build = db.new_build(Kit(), active=True).build
        with db.batch(Kit(), build, 0, 1) as rows:
            rows.insert(SPEC.name, {"a": "x", "b": 1, "n": 1})
        with pytest.raises(Exception), db.batch(Kit(), build, 1, 2) as rows:  # noqa: B017
            rows.add(COUNTS.name, {"a": "x"}, {"total": 3})
            rows.insert(SPEC.name, {"a": "x", "b": 1, "n": 2})  # never read: the base refuses it
        assert db.builds("kit")[0].position == 1
        assert every_row(db, build) == {
            SPEC.name: [{"a": "x", "b": 1, "n": 1, "label": None, "doc": None}],
            COUNTS.name: [],
        }
    finally:
        db.close()
