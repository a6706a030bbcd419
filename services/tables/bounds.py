"""What the table service accepts at its edge: ids and names bounded, every text encodable.

A command is checked once, as ``TableService.handle`` receives it and before anything reads
the store: ids as the store keeps them (``events.envelope.check_id``), player names short and
printable, every other text in the command short and free of NULs and lone surrogates, and an
``OpenTable`` only for the table it was sent to. A command that fails is refused with the field
named, and nothing is stored.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from events.envelope import InvalidIdError, check_id
from services.rules.table.commands import Command, OpenTable
from services.tables.partitions import is_home_stream

MAX_NAME_CHARS = 32
"""A player's name as a table shows it."""
MAX_TEXT_CHARS = 128
"""Any other text a command carries (an option's name, a chosen seed)."""


class InvalidInputError(ValueError):
    """A field of a command, or an id it came with, that the service does not accept."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


def _check_text(field: str, value: str, limit: int) -> None:
    if len(value) > limit:
        raise InvalidInputError(field, f"must be at most {limit} characters, not {len(value)}")
    for index, char in enumerate(value):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs"):
            what = "a control character" if category == "Cc" else "a lone surrogate"
            raise InvalidInputError(field, f"holds {what} ({ascii(char)}) at index {index}")


def _check_name(field: str, name: str) -> None:
    if not name.strip():
        raise InvalidInputError(field, "a player needs a name")
    _check_text(field, name, MAX_NAME_CHARS)


def _walk(field: str, value: Any) -> None:
    """Every text in a command's data, dict keys included, bounded and encodable."""
    if isinstance(value, str):
        _check_text(field, value, MAX_TEXT_CHARS)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(f"{field} key", str(key), MAX_TEXT_CHARS)
            _walk(f"{field}.{key}", item)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _walk(f"{field}[{index}]", item)


def check_command(table_id: str, command: Command, command_id: str) -> None:
    """Raise ``InvalidInputError`` (or ``InvalidIdError``) naming the first field refused."""
    check_id("table_id", table_id)
    check_id("command_id", command_id)
    if isinstance(command, OpenTable):
        if is_home_stream(table_id):  # a table "player:ann" would be written into ann's stream
            raise InvalidInputError("table_id", f"a table id may not begin with"
                                    f" {table_id.split(':')[0]!r}: those name rooms' and players' streams")  # fmt: skip
        if command.table_id != table_id:
            raise InvalidInputError(
                "table_id",
                f"the command opens table {command.table_id!r} but was sent to {table_id!r}",
            )
        for seat, name in enumerate(command.players):
            _check_name(f"players[{seat}]", name)
    for name, value in command.model_dump().items():
        _walk(name, value)


def refusal(table_id: str, command: Command, command_id: str) -> str | None:
    """Why the service does not take this command as given, or None."""
    try:
        check_command(table_id, command, command_id)
    except (InvalidInputError, InvalidIdError) as error:
        return str(error)
    return None
