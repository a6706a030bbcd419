"""Command bodies as the OpenAPI document declares them: what the server takes, no more.

The engine's commands (``services.rules.table.commands``) are lax where JSON is concerned (a
``true`` is read as the integer 1) and leave texts to the table service's edge
(``services.tables.bounds``: no control character, a player's name at most 32 characters),
which refuses them only once a worker runs the command. The platform's ``TableOpening`` and a
seat's command are read strictly here, and their rules are in the document, so a client made
from the document sends nothing the server then refuses.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Union, get_args

from pydantic import BeforeValidator, Field, TypeAdapter, ValidationError

from events.envelope import ID_PATTERN, MAX_ID_CHARS
from events.limits import MAX_BASE_STAKE, MAX_OPTIONS, MAX_WAIT_SECONDS, MIN_WAIT_SECONDS
from services.rules.events.rooms import PLAYER_ID_PATTERN
from services.rules.table.commands import AnyCommand, Command, OpenTable
from services.rules.table.options import known_options
from services.rules.variants import VARIANTS
from services.tables.bounds import MAX_TEXT_CHARS

TEXT_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""Text a command may carry: no control character (``bounds``)."""
VARIANT_PATTERN = r"^[a-z0-9_-]{1,32}$"


def _json_integer(value: object) -> object:
    """A JSON integer: 3 or 3.0 (JSON Schema's "integer" is any number with no fraction), not
    ``true`` (a boolean is not a number: ``minimum_points: false`` was stored as 0) nor "3"."""
    if isinstance(value, bool | str | bytes):
        raise ValueError(f"an integer, not {type(value).__name__} {value!r}")
    return value


def _json_boolean(value: object) -> object:
    if not isinstance(value, bool):
        raise ValueError(f"true or false, not {value!r}")
    return value


JsonInt = Annotated[int, BeforeValidator(_json_integer)]
"""An integer as the document says one: what pydantic's lax mode takes, less a boolean or text."""
JsonBool = Annotated[bool, BeforeValidator(_json_boolean)]
PlayerName = Annotated[str, Field(pattern=PLAYER_ID_PATTERN, description="A player's id")]
Name = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS, pattern=TEXT_PATTERN)]
Seconds = Annotated[int, Field(ge=MIN_WAIT_SECONDS, le=MAX_WAIT_SECONDS),
                    BeforeValidator(_json_integer)]  # fmt: skip


def _named_keys(schema: dict[str, Any]) -> None:
    """A map's keys as JSON Schema says them of every key (``propertyNames``), not as
    ``patternProperties``, which leaves a key that fails the pattern unchecked."""
    patterns = schema.pop("patternProperties", {})
    for pattern, values in patterns.items():
        schema["additionalProperties"] = values
        schema["propertyNames"] = {**schema.get("propertyNames", {}), "pattern": pattern}


class TableOpening(OpenTable):
    """``OpenTable`` as the platform sends it: its ids and names as a store keeps them, its
    numbers integers (not ``true``), its options booleans."""

    table_id: str = Field(min_length=1, max_length=MAX_ID_CHARS, pattern=ID_PATTERN)
    variant: str = Field(pattern=VARIANT_PATTERN, examples=["harbin"],
                         json_schema_extra={"enum": sorted(VARIANTS)})  # another: 409, naming these
    players: tuple[PlayerName, PlayerName, PlayerName, PlayerName] = Field(
        json_schema_extra={"uniqueItems": True})  # four different players (decision 18)
    base_stake: JsonInt = Field(default=1, ge=1, le=MAX_BASE_STAKE)
    options: dict[Name, JsonBool] = Field(default_factory=dict, max_length=MAX_OPTIONS,
                                          json_schema_extra=_named_keys)  # fmt: skip
    timing: dict[Name, Seconds] = Field(default_factory=dict, max_length=MAX_OPTIONS,
                                        json_schema_extra=_named_keys)  # fmt: skip
    room: str = Field(default="", max_length=64, pattern=TEXT_PATTERN)


SEAT_COMMANDS = tuple(c for c in get_args(get_args(AnyCommand)[0]) if c.issued_by == "seat")
_SEAT_COMMAND: TypeAdapter[Command] = TypeAdapter(
    Annotated[Union[SEAT_COMMANDS], Field(discriminator="command")])  # type: ignore[valid-type]  # noqa: UP007
_ANY_COMMAND: TypeAdapter[Command] = TypeAdapter(AnyCommand)


def seat_command_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """A seat's command as the document declares it (one of the seat's commands, by
    ``command``), and the component schemas it refers to."""
    schema = _SEAT_COMMAND.json_schema(ref_template="#/components/schemas/{model}")
    defs = schema.get("$defs", {})
    for model in defs.values():  # the tag has a default in the model; a body must name it
        model["required"] = ["command", *[r for r in model.get("required", []) if r != "command"]]
    return {k: v for k, v in schema.items() if k != "$defs"}, defs


def _integral(value: Any) -> Any:
    """``value`` with each whole float an integer: JSON Schema's integer 1.0 is 1."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    return value


def strict_command(body: dict[str, Any]) -> str | None:
    """What the document's rules refuse in ``body`` (a ``true`` for a seat, a number for a
    tile), or None: read as JSON, strictly, as the document says."""
    try:
        _ANY_COMMAND.validate_json(json.dumps(_integral(body)), strict=True)
    except (ValidationError, ValueError) as error:
        first = error.errors()[0] if isinstance(error, ValidationError) else {"loc": (), "msg": str(error)}
        where = ".".join(str(p) for p in first["loc"][1:]) or "command"
        return f"{where}: {first['msg']}"
    return None


def room_settings_schema(settings: dict[str, Any]) -> dict[str, Any]:
    """A room's settings (``settings``, the model's schema) as the document declares them: one
    shape per registered variant, naming the options that variant has (another variant's
    option, or an unknown variant, is refused)."""
    shapes = []
    for variant in sorted(VARIANTS):
        known = known_options(variant)
        shape = json.loads(json.dumps(settings))  # a copy per variant
        shape["title"] = f"RoomSettings ({variant})"
        shape["properties"]["variant"] = {"type": "string", "const": variant, "title": "Variant"}
        shape["properties"]["options"] = {
            "type": "object", "title": "Options", "additionalProperties": False,
            "properties": {name: {"type": "boolean"} for name in sorted(known)}}  # fmt: skip
        shapes.append(shape)
    return {"oneOf": shapes, "description": settings.get("description", "")}
