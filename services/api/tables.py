"""Reading one table for the routes: its id from the path, its state, or a 404."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from services.api.context import ApiContext
from services.api.problems import Problem
from services.rules.table import TableState

TableId = Annotated[
    str, Path(min_length=1, max_length=128, pattern=r"^[^\s/]+$", description="The table's id")
]


def loaded_table(ctx: ApiContext, table_id: str) -> TableState:
    """The table now, folded by the API's reader; 404 if no table has that id."""
    if ctx.store.stream_version(table_id) == 0:
        raise Problem(404, "No such table", f"no table {table_id!r} has been opened")
    return ctx.load(table_id)
