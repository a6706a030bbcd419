"""Reading the read models: the live build of a projection, bounded and paged, and as fresh
as the caller needs.

A query is a plain function: it hands ``query(db, projection, answer, min_position=...)`` an
``answer(view)`` that picks rows from ``view.rows``, the live build in one read-only snapshot
with that build's checkpoint (``view.position``). Every list is a ``Page`` (``page_window`` refuses a bad
page or a page larger than ``MAX_PAGE_SIZE``), so no query reads a table whole.

Read-your-writes: a command's outcome carries the global position of its last event
(``Outcome.last_position``). A read given ``min_position`` waits, at most ``wait_seconds``,
until the projection's checkpoint reaches it, and otherwise fails with ``ReadModelBehind``
saying how far behind the read model is (or where it stopped, if a poison event stopped it).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import psycopg
from pydantic import BaseModel

from events.limits import MAX_PAGE_SIZE
from readmodels.base import Projection
from readmodels.db import Build, ProjectionDB
from readmodels.sql import SqlRows
from services.tables.partitions import split_position

DEFAULT_PAGE_SIZE = 50
WAIT_SECONDS = 5.0
_POLL_SECONDS = (0.005, 0.01, 0.02, 0.05, 0.1)  # quick at first: a projector is usually ms behind
_ATTEMPTS = 3  # a read that met the old build's tables dropped by a rebuild's switch: again

T = TypeVar("T")


class QueryError(ValueError):
    """A query asked for something it cannot answer (a bad page); the message says what."""


class ReadModelBehind(Exception):
    """The read model has not reached the position asked for (``min_position``)."""

    def __init__(self, name: str, position: int, wanted: int, why: str) -> None:
        super().__init__(
            f"read model {name} is behind: at position {position}, asked for {wanted}"
            f" ({wanted - position} behind); {why}"
        )
        self.name, self.position, self.wanted = name, position, wanted


class Page(BaseModel, Generic[T]):
    """One page of a list: its items, where it is, whether more follow, and the position of
    the read model it was read at."""

    items: list[T]
    page: int
    size: int
    more: bool
    position: int


@dataclass(frozen=True, slots=True)
class View:
    """Rows on a projection's live build, and the build's checkpoint as of this snapshot."""

    rows: SqlRows
    build: int
    position: int


def page_window(page: int, size: int = DEFAULT_PAGE_SIZE) -> tuple[int, int]:
    """``(offset, limit)`` of a 1-based page; a bad page or size is a ``QueryError``."""
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise QueryError(f"page must be a whole number from 1, not {page!r}")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_PAGE_SIZE:
        raise QueryError(f"page size must be a whole number from 1 to {MAX_PAGE_SIZE}, not {size!r}")
    return (page - 1) * size, size


def paged(view: View, table: str, where: dict[str, object], order: tuple[str, ...],
          page: int, size: int = DEFAULT_PAGE_SIZE,
          also: Sequence[tuple[str, Sequence[Any]]] = ()) -> tuple[list[dict[str, object]], bool]:  # fmt: skip
    """One page of ``table``'s rows (equal to ``where`` and meeting ``also``, in ``order``) and
    whether more follow. ``order`` must end in a unique key, so that pages neither repeat nor
    skip a row."""
    offset, limit = page_window(page, size)
    found = view.rows.select(table, where, order=order, limit=limit + 1, offset=offset, also=also)
    return found[:limit], len(found) > limit


def wait_for(
    db: ProjectionDB, projection: Projection, min_position: int,
    wait_seconds: float = WAIT_SECONDS,
) -> Build:  # fmt: skip
    """The live build once its checkpoint has reached ``min_position`` (bounded wait)."""
    if isinstance(min_position, bool) or not isinstance(min_position, int) or min_position < 0:
        raise QueryError(f"min_position must be a whole number from 0, not {min_position!r}")
    deadline = time.monotonic() + wait_seconds
    for attempt in range(1_000_000):
        build = db.active_build(projection.name)
        position = build.at(split_position(min_position)[0]) if build else 0
        if build is not None and build.reached(min_position):  # in min_position's partition
            return build
        if build is not None and build.error is not None:
            raise ReadModelBehind(projection.name, position, min_position, build.error)
        left = deadline - time.monotonic()
        if left <= 0:
            break
        time.sleep(min(left, _POLL_SECONDS[min(attempt, len(_POLL_SECONDS) - 1)]))
    why = "no build yet (is a projector running?)" if build is None else (
        f"still behind after {wait_seconds:g} s (is a projector running?)")  # fmt: skip
    raise ReadModelBehind(projection.name, position, min_position, why)


def _missing_table(error: Exception) -> bool:
    if isinstance(error, psycopg.errors.UndefinedTable):
        return True
    return isinstance(error, sqlite3.OperationalError) and "no such table" in str(error)


def query(
    db: ProjectionDB, projection: Projection, answer: Callable[[View], T], *,
    min_position: int | None = None, wait_seconds: float = WAIT_SECONDS,
) -> T:  # fmt: skip
    """``answer`` of a ``View`` of the projection's live build, after waiting for
    ``min_position``. Run again if a rebuild's switch dropped the old build's tables under it
    (a read changes nothing, so running it twice is harmless)."""
    if min_position is not None:
        wait_for(db, projection, min_position, wait_seconds)
    for attempt in range(_ATTEMPTS):
        try:
            with db.live_reader(projection) as (build, rows):
                if build is None:
                    raise ReadModelBehind(projection.name, 0, min_position or 0,
                                          "no build yet (is a projector running?)")  # fmt: skip
                return answer(View(rows, build.build, build.position))
        except (psycopg.errors.UndefinedTable, sqlite3.OperationalError) as error:
            if not _missing_table(error) or attempt == _ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")
