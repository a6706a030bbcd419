"""What a projection is: its tables, and how each event changes their rows.

A projection turns the global order of events into read-model rows. It is deterministic code
of one version (``code_version``): given the same events it writes the same rows, so a
rebuild from position 0 reproduces every row, and a change to it is a new version, rebuilt
beside the old. It never reads a clock, the store or another projection: everything it needs
comes from the events, and what it must remember between events (which player sits where)
it keeps in tables of its own.

It writes through ``Rows``, a handful of row operations that both databases run alike, inside
the one transaction that also moves its checkpoint (``readmodels.runner``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from events.envelope import RecordedEvent

Kind = Literal["text", "int", "real", "json"]
Key = Mapping[str, Any]
Values = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A read-model table: its columns (name, kind), primary key and extra indexes."""

    name: str
    columns: tuple[tuple[str, Kind], ...]
    key: tuple[str, ...]
    indexes: tuple[tuple[str, ...], ...] = ()

    def kind_of(self, column: str) -> Kind:
        for name, kind in self.columns:
            if name == column:
                return kind
        raise KeyError(f"table {self.name} has no column {column!r}")


class Rows(Protocol):
    """Row operations on a projection's tables (by their names in the spec)."""

    def get(self, table: str, key: Key) -> dict[str, Any] | None: ...

    def put(self, table: str, key: Key, values: Values) -> None:
        """Insert the row, or set ``values`` on the row already there."""

    def add(self, table: str, key: Key, amounts: Values, values: Values | None = None) -> None:
        """Add ``amounts`` to the row's columns (a new row starts them at 0); set ``values``."""

    def insert(self, table: str, values: Values) -> None:
        """A new row (a history line); its key must be new."""

    def delete(self, table: str, key: Key) -> None: ...

    def select(
        self, table: str, where: Key, order: tuple[str, ...] = (), limit: int = 1000,
        offset: int = 0,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """Rows whose columns equal ``where``, in ``order`` (a name, or ``-name``: descending),
        skipping the first ``offset`` (a page of a query)."""


class Projection(Protocol):
    """One read model: a name, a code version, its tables, and ``apply``."""

    name: ClassVar[str]
    code_version: ClassVar[int]
    tables: ClassVar[tuple[TableSpec, ...]]

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        """Change the rows for one event (most events change nothing)."""


def latest(row: dict[str, Any] | None, position: int, column: str = "last_position") -> int:
    """``position`` or the row's own ``column``, whichever is later. A read model over several
    stores gets their events in any order; of two merged positions the larger is the later
    (``services.tables.partitions``), so the row ends the same whatever the order."""
    if row is None or row.get(column) is None:
        return position
    return max(position, int(row[column]))


class PoisonEventError(Exception):
    """An event a projection cannot apply; the build stops at it, saying where and why."""
