"""Reading one table for the routes: its id from the path, its state, or a 404; and whether
this process has the table's rules version (``RulesVersionUnavailable`` when not, which the
app's one handler answers 503, ``problems``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from events.envelope import ID_IN_PATH_PATTERN, MAX_ID_CHARS, check_id
from services.api.context import ApiContext
from services.api.problems import Problem
from services.rules.table import TableState
from services.rules.variants.versions import rules

TableId = Annotated[
    str, Path(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_IN_PATH_PATTERN,
              description="The table's id (no space, control or '/')")]  # fmt: skip


def loaded_table(ctx: ApiContext, table_id: str) -> TableState:
    """The table now, folded by the API's reader; 404 if no table has that id."""
    if ctx.store.stream_version(table_id) == 0:
        raise Problem(404, "No such table", f"no table {table_id!r} has been opened")
    table = ctx.load(table_id)
    rules(table.rules_version)  # a fold of a version this process lacks is not shown as its own
    return table


def has_rules_of(ctx: ApiContext, table_id: str, *, opening: bool = False) -> None:
    """Raise ``RulesVersionUnavailable`` for an opened table whose rules version this process
    lacks: its command is not queued by a process that cannot show the table it changes; and
    404 for a command to a table no one opened (unless it is the one ``opening`` it), as every
    route that reads a table answers."""
    check_id("table_id", table_id)  # a body's id, refused by its name before a store reads it
    version = ctx.folds.rules_version(table_id)  # from the opening event, not a fold
    if version is not None:
        rules(version)
    elif not opening:
        raise Problem(404, "No such table", f"no table {table_id!r} has been opened")
