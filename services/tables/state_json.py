"""A table's folded state as plain JSON, and the version of the state's shape.

Snapshots used to be pickles: reading one back ran whatever code its bytes named, and they
were tagged with the rules version, which says nothing about the state's fields. Here the
state (frozen dataclasses all the way down, with ``Win`` payloads inside) goes through
pydantic's validation of those same dataclasses: JSON out, typed state back in, nothing
executed. ``STATE_SHAPE`` is a digest of the state's JSON schema, derived from the classes'
fields and their types, so adding, renaming or retyping any field of any state class gives
another shape, and snapshots of the old shape are ignored rather than misread.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError

from events.hashchain import canonical_json, sha256_hex
from services.rules.events.hand import Win
from services.rules.table.state import TableState

STATE_ADAPTER: TypeAdapter[TableState] = TypeAdapter(TableState)
STATE_ADAPTER.rebuild(
    _types_namespace={"Win": Win}
)  # HandState.wins names Win only for type checkers


def _shape(schema: Any) -> Any:
    """The schema without its prose: a docstring edit is not a change of shape."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k not in ("description", "title")}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def shape_of(adapter: TypeAdapter[Any]) -> str:
    """A digest of the JSON schema of ``adapter``'s type: its fields, their types, defaults."""
    return sha256_hex(canonical_json(_shape(adapter.json_schema())))[:16]


STATE_SHAPE = shape_of(STATE_ADAPTER)
"""The version of the state's shape: changes whenever a field of a state class does."""


class StateDecodeError(ValueError):
    """A JSON document is not a table state of this shape."""


def encode_state(state: TableState) -> dict[str, Any]:
    data: dict[str, Any] = STATE_ADAPTER.dump_python(state, mode="json")
    return data


def decode_state(data: Any) -> TableState:
    try:
        return STATE_ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the document"
        raise StateDecodeError(f"not a table state: {where}: {first['msg']}") from None
