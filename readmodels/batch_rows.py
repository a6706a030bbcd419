"""A batch's rows kept in memory and written once, at the end of the batch (``flush``).

A projection changes few rows many times in a batch (a live table on every event of its hand,
a balance on every settlement): ``SqlRows`` paid a round trip for each change and each read.
``BatchRows`` reads a row the first time the batch touches it, keeps what the batch did to it,
and writes each changed row once, with one statement for all the rows of the same shape
(``executemany``: on PostgreSQL one pipelined round trip). Same transaction, same rows: the
projector flushes before it moves the checkpoint, and a failed batch writes nothing.

Rows are kept as the database holds them (JSON as canonical text, counters starting at 0), so
what ``get`` gives back within the batch is what a read of the written row would give. A row
not yet read holds only the batch's changes (``Entry.amounts``, ``Entry.values``), written as
``add``/``put`` would have been; ``get`` reads it then and applies them. ``select`` on
anything but a primary key writes that table's changes first and asks the database (its
answers are kept until the table is written again: a table's seats, read on every settlement).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from readmodels.base import Key, Kind, TableSpec, Values
from readmodels.sql import SqlRows, _decode, _encode


@dataclass(slots=True)
class Entry:
    """What the batch knows of one row, and did to it."""

    known: bool = False  # ``row`` is the row as it stands (``None``: there is none)
    row: dict[str, Any] | None = None  # every column, encoded
    dirty: bool = False
    inserted: bool = False  # by ``insert`` on a row never read: a key already there is an error
    amounts: dict[str, Any] = field(default_factory=dict)  # not known: added to the row
    values: dict[str, Any] = field(default_factory=dict)  # not known: set on the row


@dataclass
class Table:
    spec: TableSpec
    entries: dict[tuple[Any, ...], Entry] = field(default_factory=dict)
    selects: dict[tuple[Any, ...], list[tuple[Any, ...]]] = field(default_factory=dict)
    kinds: dict[str, Kind] = field(init=False)

    def __post_init__(self) -> None:
        self.kinds = dict(self.spec.columns)
        self.json = tuple(c for c, k in self.spec.columns if k == "json")
        if set(self.json) & set(self.spec.key):
            raise ValueError(f"table {self.spec.name}: a JSON column cannot be part of its key")

    def stored(self, column: str, value: Any) -> Any:
        """A value as a read of the database gives it back: JSON as decoded from its text
        (a copy of the batch's own), a flag as 0 or 1."""
        try:
            kind = self.kinds[column]
        except KeyError:
            raise KeyError(f"table {self.spec.name} has no column {column!r}") from None
        if kind == "json":
            return _as_read(value)
        return int(value) if isinstance(value, bool) else value

    def hashable(self, column: str, value: Any) -> Any:
        if self.kinds.get(column) == "json":
            return _encode("json", value)
        return self.stored(column, value)

    def from_base(self, found: Sequence[Any]) -> dict[str, Any]:
        """A row as the database gave it (JSON as text), as the batch holds it."""
        row = dict(zip(self.kinds, found, strict=True))
        for c in self.json:
            row[c] = _decode("json", row[c])
        return row

    def to_base(self, column: str, value: Any) -> Any:
        return _encode("json", value) if column in self.json else value


class BatchRows:
    """``Rows`` for one batch, over ``SqlRows`` on the batch's transaction."""

    def __init__(self, sql: SqlRows) -> None:
        self.sql = sql
        self.tables = {name: Table(spec) for name, spec in sql.specs.items()}

    # -- Rows -------------------------------------------------------------------------------
    def get(self, table: str, key: Key) -> dict[str, Any] | None:
        t = self._table(table)
        if set(key) != set(t.spec.key):
            found = self.select(table, key, limit=1)
            return found[0] if found else None
        entry = self._read(t, self._key(t, key))
        return None if entry.row is None else self._decoded(t, entry.row)

    def put(self, table: str, key: Key, values: Values) -> None:
        self._change(table, key, {}, values)

    def add(self, table: str, key: Key, amounts: Values, values: Values | None = None) -> None:
        self._change(table, key, amounts, values or {})

    def insert(self, table: str, values: Values) -> None:
        t = self._table(table)
        key = {c: values[c] for c in t.spec.key}
        k = self._key(t, key)
        entry = t.entries.get(k)
        if entry is not None and entry.known and entry.row is not None:
            raise ValueError(f"{table}: a row with the key {key} is already there")
        if entry is not None and not entry.known:  # changed, never read: read it first
            entry = self._read(t, k)
            if entry.row is not None:
                raise ValueError(f"{table}: a row with the key {key} is already there")
        fresh = entry is None
        entry = entry or Entry()
        entry.row = self._new_row(t, values)
        entry.known = entry.dirty = True
        entry.inserted = fresh
        t.entries[k] = entry
        t.selects.clear()

    def delete(self, table: str, key: Key) -> None:
        t = self._table(table)
        if set(key) != set(t.spec.key):  # many rows at once: written, then asked of the base
            self._flush_table(t)
            t.entries.clear()
            t.selects.clear()
            self.sql.delete(table, key)
            return
        t.entries[self._key(t, key)] = Entry(known=True, row=None, dirty=True)
        t.selects.clear()

    def select(
        self, table: str, where: Key, order: tuple[str, ...] = (), limit: int = 1000,
        offset: int = 0,
    ) -> list[dict[str, Any]]:  # fmt: skip
        t = self._table(table)
        spec = t.spec
        asked = (tuple(sorted((c, t.hashable(c, v)) for c, v in where.items())),
                 order, limit, offset)  # fmt: skip
        if asked not in t.selects:
            self._flush_table(t)
            found = self.sql.select(table, where, order, limit, offset)
            t.selects[asked] = [tuple(t.stored(c, r[c]) for c, _ in spec.columns) for r in found]
        names = [c for c, _ in spec.columns]
        return [self._decoded(t, dict(zip(names, r, strict=True))) for r in t.selects[asked]]

    # -- writing -----------------------------------------------------------------------------
    def flush(self) -> None:
        """Write every changed row (the projector calls it before moving the checkpoint)."""
        for t in self.tables.values():
            self._flush_table(t)

    def _flush_table(self, t: Table) -> None:
        spec, names = t.spec, [c for c, _ in t.spec.columns]
        gone: list[Sequence[Any]] = []
        shapes: dict[tuple[tuple[str, ...], tuple[str, ...], bool], list[Sequence[Any]]] = {}
        for k, entry in t.entries.items():
            if not entry.dirty:
                continue
            if entry.known and entry.row is None:
                gone.append(k)
            elif entry.known:
                assert entry.row is not None
                shape = (tuple(names), (), not entry.inserted)
                shapes.setdefault(shape, []).append([t.to_base(c, entry.row[c]) for c in names])
            else:
                columns = (*spec.key, *entry.amounts, *entry.values)
                shape = (columns, tuple(entry.amounts), True)
                shapes.setdefault(shape, []).append([
                    *k, *entry.amounts.values(),
                    *(t.to_base(c, v) for c, v in entry.values.items()),
                ])  # fmt: skip
            entry.dirty = entry.inserted = False  # written: a later change of it is an update
        if gone:
            self.sql.delete_keys(spec, gone)
        for (columns, adds, conflict), many in shapes.items():
            self.sql.write(spec, columns, adds, conflict, many)
        # what is written is read again as it is now: forget the changes of rows never read
        t.entries = {k: e for k, e in t.entries.items() if e.known}

    # -- rows in memory ----------------------------------------------------------------------
    def _table(self, table: str) -> Table:
        try:
            return self.tables[table]
        except KeyError:
            raise KeyError(f"no table {table!r} in this projection") from None

    @staticmethod
    def _key(t: Table, key: Key) -> tuple[Any, ...]:
        return tuple(t.stored(c, key[c]) for c in t.spec.key)

    def _read(self, t: Table, k: tuple[Any, ...]) -> Entry:
        """The entry of a row as it stands: read from the database the first time."""
        entry = t.entries.get(k)
        if entry is not None and entry.known:
            return entry
        found = self.sql.fetch(t.spec, k)
        row = None if found is None else t.from_base(found)
        if entry is None:
            entry = Entry(known=True, row=row)
        else:  # the batch's changes, on the row it read
            entry.row = self._changed(t, row, k, entry.amounts, entry.values)
            entry.known, entry.amounts, entry.values = True, {}, {}
        t.entries[k] = entry
        return entry

    def _change(self, table: str, key: Key, amounts: Values, values: Values) -> None:
        t = self._table(table)
        spec = t.spec
        if set(key) != set(spec.key):
            raise KeyError(f"{table}: a row is named by its key {spec.key}, not {tuple(key)}")
        k = self._key(t, key)
        entry = t.entries.setdefault(k, Entry())
        adding = {c: t.stored(c, a) for c, a in amounts.items()}
        setting = {c: t.stored(c, v) for c, v in values.items()}
        if entry.known:
            entry.row = self._changed(t, entry.row, k, adding, setting)
        else:  # as ``add`` then ``put`` would have left it: a set after an add wins, and an
            for c, a in adding.items():  # add after a set adds to what was set
                if c in entry.values:
                    entry.values[c] = _plus(entry.values[c], a)
                else:
                    entry.amounts[c] = _plus(entry.amounts.get(c, 0), a)
            for c, v in setting.items():
                entry.amounts.pop(c, None)
                entry.values[c] = v
        entry.dirty = True
        t.selects.clear()

    def _changed(
        self, t: Table, row: dict[str, Any] | None, k: tuple[Any, ...],
        amounts: dict[str, Any], values: dict[str, Any],
    ) -> dict[str, Any]:  # fmt: skip
        """``row`` after ``add(amounts, values)`` (``None``: the row ``add`` inserts)."""
        if row is None:
            return self._new_row(t, {**dict(zip(t.spec.key, k, strict=True)), **amounts,
                                     **values}, encoded=True)  # fmt: skip
        row = dict(row)
        for c, a in amounts.items():
            row[c] = _plus(row[c], a)
        row.update(values)
        return row

    @staticmethod
    def _new_row(t: Table, values: Values, encoded: bool = False) -> dict[str, Any]:
        """A new row with ``values``; the others as the table's defaults leave them."""
        row = {c: 0 if k in ("int", "real") and c not in t.spec.key else None
               for c, k in t.spec.columns}  # fmt: skip
        for c, v in values.items():
            row[c] = v if encoded else t.stored(c, v)
        return row

    @staticmethod
    def _decoded(t: Table, row: dict[str, Any]) -> dict[str, Any]:
        """A copy of the row for the projection (its JSON values its own to change)."""
        row = dict(row)
        for c in t.json:
            row[c] = _copy(row[c])
        return row


def _plus(held: Any, amount: Any) -> Any:
    return None if held is None or amount is None else held + amount


JSON_SCALARS = (str, int, float, bool, type(None))


def _as_read(value: Any) -> Any:
    """A copy of ``value`` as a JSON column gives it back once written and read (tuples as
    lists, keys sorted), without the text: anything but plain lists, dicts with text keys,
    text, numbers, flags and ``None`` goes through the text itself."""
    pure = _pure_copy(value)
    return pure if pure is not _IMPURE else _decode("json", _encode("json", value))


_IMPURE = object()


def _pure_copy(value: Any) -> Any:
    kind = type(value)
    if kind in JSON_SCALARS:
        return value
    if kind is list or kind is tuple:
        out = [_pure_copy(v) for v in value]
        return _IMPURE if any(v is _IMPURE for v in out) else out
    if kind is dict:  # keys in order, as the canonical text holds them
        if any(type(k) is not str for k in value):
            return _IMPURE
        copied = {}
        for k in sorted(value):
            if (v := _pure_copy(value[k])) is _IMPURE:
                return _IMPURE
            copied[k] = v
        return copied
    return _IMPURE


def _copy(value: Any) -> Any:
    """A copy of a value already as read (plain lists, dicts and scalars)."""
    kind = type(value)
    if kind is list:
        return [_copy(v) for v in value]
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    return value
