"""Bounded pages of a read model's live build, for the query modules (and the API after them).

A page is at most ``MAX_LIMIT`` rows from at most ``MAX_OFFSET`` in; its order always ends
with the table's key, so two pages never share or skip a row of an unchanged table. It says
the build's position, so a reader knows how far into the log the rows are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workers.projections.base import Projection, TableSpec
from workers.projections.db import ProjectionDB
from workers.projections.sql import table_name

MAX_LIMIT = 100
MAX_OFFSET = 10_000


class BadPageError(ValueError):
    """A page asked for outside the bounds (the message names the field and the bound)."""


@dataclass(frozen=True, slots=True)
class Page:
    rows: list[dict[str, Any]]
    offset: int
    limit: int
    next_offset: int | None  # None: this is the last page
    position: int  # the build's checkpoint: the rows include every event up to it


def check_page(limit: int, offset: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise BadPageError(f"limit must be 1–{MAX_LIMIT}, got {limit!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_OFFSET:
        raise BadPageError(f"offset must be 0–{MAX_OFFSET}, got {offset!r}")


def _spec(projection: Projection, table: str) -> TableSpec:
    for spec in projection.tables:
        if spec.name == table:
            return spec
    raise KeyError(f"no table {table!r} in projection {projection.name}")


def read_page(
    db: ProjectionDB,
    projection: Projection,
    table: str,
    where: Mapping[str, Any] | None = None,
    order: tuple[str, ...] = (),
    limit: int = 20,
    offset: int = 0,
) -> Page:
    """Rows of ``table`` whose columns equal ``where``, in ``order`` (``-name``: descending),
    then by key; an empty page while the projection has no live build yet."""
    check_page(limit, offset)
    spec = _spec(projection, table)
    build = db.active_build(projection.name)
    if build is None:
        return Page([], offset, limit, None, 0)
    where = dict(where or {})
    for column in [*where, *(o.lstrip("-") for o in order)]:
        spec.kind_of(column)  # a column the table has, or KeyError naming it
    names = [c for c, _ in spec.columns]
    mark = db.mark
    clause = " AND ".join(f"{c} = {mark}" for c in where)
    ordering = [f"{o[1:]} DESC" if o.startswith("-") else o for o in order]
    ordering += [k for k in spec.key if k not in {o.lstrip("-") for o in order}]
    text = f"SELECT {', '.join(names)} FROM {table_name(spec, build.build)}"
    text += f" WHERE {clause}" if clause else ""
    text += f" ORDER BY {', '.join(ordering)} LIMIT {limit + 1} OFFSET {offset}"
    with db.reader(projection, build.build) as rows:
        found = rows.execute(text, list(where.values()))
    decoded = [
        {c: json.loads(v) if k == "json" and v is not None else v
         for (c, k), v in zip(spec.columns, row, strict=True)}
        for row in found[:limit]
    ]  # fmt: skip
    more = offset + limit if len(found) > limit else None
    return Page(decoded, offset, limit, more, build.position)
