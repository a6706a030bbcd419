"""``Rows`` in SQL, for SQLite and PostgreSQL alike, and the DDL of a build's tables.

Both databases take the same statements (``INSERT … ON CONFLICT (key) DO UPDATE`` with
``excluded``); only the placeholder and the column types differ. A build's tables are the
spec's names suffixed ``_b<build>``, so a rebuild writes beside the live build. JSON columns
hold canonical text (sorted keys), so a rebuild's rows equal the live ones byte for byte.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal

from readmodels.base import Key, Kind, TableSpec, Values

Dialect = Literal["sqlite", "postgres"]
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,50}$")
TYPES: dict[Dialect, dict[Kind, str]] = {
    "sqlite": {"text": "TEXT", "int": "INTEGER", "real": "REAL", "json": "TEXT"},
    "postgres": {"text": "text", "int": "bigint", "real": "double precision", "json": "text"},
}


def table_name(spec: TableSpec, build: int) -> str:
    if not _NAME.match(spec.name):
        raise ValueError(f"projection table name {spec.name!r}: lowercase letters, digits, _")
    return f"{spec.name}_b{build}"


def create_statements(spec: TableSpec, build: int, dialect: Dialect) -> list[str]:
    name = table_name(spec, build)

    def column(c: str, k: Kind) -> str:  # counters start at 0, so that ``add`` can add to them
        zero = " DEFAULT 0" if k in ("int", "real") and c not in spec.key else ""
        return f"{c} {TYPES[dialect][k]}{zero}"

    columns = ", ".join(column(c, k) for c, k in spec.columns)
    out = [f"CREATE TABLE IF NOT EXISTS {name} ({columns}, PRIMARY KEY ({', '.join(spec.key)}))"]
    for n, index in enumerate(spec.indexes):
        out.append(f"CREATE INDEX IF NOT EXISTS {name}_i{n} ON {name} ({', '.join(index)})")
    return out


def drop_statements(spec: TableSpec, build: int) -> list[str]:
    return [f"DROP TABLE IF EXISTS {table_name(spec, build)}"]


def _encode(kind: Kind, value: Any) -> Any:
    if kind == "json" and value is not None:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return value


def _decode(kind: Kind, value: Any) -> Any:
    if kind == "json" and value is not None:
        return json.loads(value)
    return value


def _each(
    execute: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]], text: str,
    many: list[Sequence[Any]],
) -> None:  # fmt: skip
    for params in many:
        execute(text, params)


class SqlRows:
    """``Rows`` on one open transaction: ``execute(sql, params) -> rows`` runs a statement."""

    def __init__(
        self,
        specs: Sequence[TableSpec],
        build: int,
        dialect: Dialect,
        execute: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]],
        execute_many: Callable[[str, list[Sequence[Any]]], None] | None = None,
    ) -> None:
        self.specs = {s.name: s for s in specs}
        self.build = build
        self.mark = "?" if dialect == "sqlite" else "%s"
        self.execute = execute
        self.execute_many = execute_many or (lambda text, many: _each(execute, text, many))

    def _spec(self, table: str) -> TableSpec:
        try:
            return self.specs[table]
        except KeyError:
            raise KeyError(f"no table {table!r} in this projection") from None

    def _where(self, spec: TableSpec, key: Key) -> tuple[str, list[Any]]:
        if not key:
            return "", []
        parts = [f"{c} = {self.mark}" for c in key]
        return " WHERE " + " AND ".join(parts), [
            _encode(spec.kind_of(c), v) for c, v in key.items()
        ]

    def get(self, table: str, key: Key) -> dict[str, Any] | None:
        found = self.select(table, key, limit=1)
        return found[0] if found else None

    def select(
        self, table: str, where: Key, order: tuple[str, ...] = (), limit: int = 1000,
        offset: int = 0, also: Sequence[tuple[str, Sequence[Any]]] = (),
    ) -> list[dict[str, Any]]:  # fmt: skip
        """Rows equal to ``where``, and meeting each ``also`` (SQL written with ``mark``, and
        its parameters: what equality cannot say, a prefix or a join)."""
        spec = self._spec(table)
        names = [c for c, _ in spec.columns]
        clause, params = self._where(spec, where)
        for condition, more in also:
            clause += (" AND " if clause else " WHERE ") + condition
            params = [*params, *more]
        ordering = ", ".join(f"{o[1:]} DESC" if o.startswith("-") else o for o in order)
        text = f"SELECT {', '.join(names)} FROM {table_name(spec, self.build)}{clause}"
        text += f" ORDER BY {ordering}" if ordering else ""
        text += f" LIMIT {int(limit)}" + (f" OFFSET {int(offset)}" if offset else "")
        rows = self.execute(text, params)
        return [
            {c: _decode(k, v) for (c, k), v in zip(spec.columns, row, strict=True)} for row in rows
        ]

    def total(self, table: str, column: str, where: Key,
              also: Sequence[tuple[str, Sequence[Any]]] = ()) -> int:  # fmt: skip
        """The sum of ``column`` over the rows ``select`` would find (0: none)."""
        spec = self._spec(table)
        if column not in {c for c, _ in spec.columns}:
            raise KeyError(f"{table} has no column {column!r}")
        clause, params = self._where(spec, where)
        for condition, more in also:
            clause += (" AND " if clause else " WHERE ") + condition
            params = [*params, *more]
        text = f"SELECT COALESCE(SUM({column}), 0) FROM {table_name(spec, self.build)}{clause}"
        return int(self.execute(text, params)[0][0])

    def _upsert(self, spec: TableSpec, values: dict[str, Any], updates: list[str]) -> None:
        columns = list(values)
        marks = ", ".join(self.mark for _ in columns)
        conflict = f"DO UPDATE SET {', '.join(updates)}" if updates else "DO NOTHING"
        text = (
            f"INSERT INTO {table_name(spec, self.build)} ({', '.join(columns)}) VALUES ({marks})"
            f" ON CONFLICT ({', '.join(spec.key)}) {conflict}"
        )
        self.execute(text, [_encode(spec.kind_of(c), v) for c, v in values.items()])

    def put(self, table: str, key: Key, values: Values) -> None:
        spec = self._spec(table)
        self._upsert(spec, {**key, **values}, [f"{c} = excluded.{c}" for c in values])

    def add(self, table: str, key: Key, amounts: Values, values: Values | None = None) -> None:
        spec = self._spec(table)
        name = table_name(spec, self.build)
        values = values or {}
        updates = [f"{c} = {name}.{c} + excluded.{c}" for c in amounts]
        updates += [f"{c} = excluded.{c}" for c in values]
        self._upsert(spec, {**key, **amounts, **values}, updates)

    def insert(self, table: str, values: Values) -> None:
        spec = self._spec(table)
        columns = list(values)
        marks = ", ".join(self.mark for _ in columns)
        self.execute(
            f"INSERT INTO {table_name(spec, self.build)} ({', '.join(columns)}) VALUES ({marks})",
            [_encode(spec.kind_of(c), v) for c, v in values.items()],
        )

    def delete(self, table: str, key: Key) -> None:
        spec = self._spec(table)
        clause, params = self._where(spec, key)
        self.execute(f"DELETE FROM {table_name(spec, self.build)}{clause}", params)

    # -- for ``BatchRows``: rows as the database holds them (JSON as text), many at once ----
    def fetch(self, spec: TableSpec, key: Sequence[Any]) -> tuple[Any, ...] | None:
        """The row with the primary key ``key`` (encoded, in ``spec.key`` order), as stored."""
        names = ", ".join(c for c, _ in spec.columns)
        where = " AND ".join(f"{c} = {self.mark}" for c in spec.key)
        found = self.execute(
            f"SELECT {names} FROM {table_name(spec, self.build)} WHERE {where}", list(key)
        )
        return found[0] if found else None

    def write(
        self, spec: TableSpec, columns: Sequence[str], adds: Sequence[str], conflict: bool,
        many: list[Sequence[Any]],
    ) -> None:  # fmt: skip
        """One statement for many rows of the same shape: ``columns`` inserted; on a key
        already there (``conflict``), the ``adds`` among them added to and the others set
        (without ``conflict``, a key already there is an error, as ``insert``'s)."""
        name = table_name(spec, self.build)
        text = (f"INSERT INTO {name} ({', '.join(columns)})"
                f" VALUES ({', '.join(self.mark for _ in columns)})")  # fmt: skip
        if conflict:
            sets = [f"{c} = {name}.{c} + excluded.{c}" if c in adds else f"{c} = excluded.{c}"
                    for c in columns if c not in spec.key]  # fmt: skip
            text += f" ON CONFLICT ({', '.join(spec.key)}) "
            text += f"DO UPDATE SET {', '.join(sets)}" if sets else "DO NOTHING"
        self.execute_many(text, many)

    def delete_keys(self, spec: TableSpec, many: list[Sequence[Any]]) -> None:
        where = " AND ".join(f"{c} = {self.mark}" for c in spec.key)
        self.execute_many(f"DELETE FROM {table_name(spec, self.build)} WHERE {where}", many)
