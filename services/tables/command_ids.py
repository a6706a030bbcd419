"""Command ids in two namespaces that cannot meet: a client's and the service's own.

A client names its command with an ``Idempotency-Key``; that key names a command only within
what sent it (``Sender``): a platform API key (by its id), one seat of one table (a seat
token), or an operator of one table (an operator token). ``client_command_id`` makes the stored id from the two, always under ``c:``, so one
sender can neither reach another's command nor an id the service gives itself, and the same
key sent by two senders is two commands. The service's own commands (turn timers, a room's
opening and first deal, presence changes) take ``service_command_id``, always under ``p:``,
which no client id can begin with.

The forms are unambiguous: the seat's table is written with its length, so table ``a:b``
seat 0 and table ``a`` seat 0 with a key beginning ``b:`` make different ids. An id past the
store's ``MAX_ID_CHARS`` is written as a SHA-256 of its full form instead (``c:h:`` or
``p:h:``), which keeps the namespace.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from events.envelope import MAX_ID_CHARS, check_id

CLIENT = "c:"
SERVICE = "p:"
_KEY_ID = re.compile(r"^[0-9a-f]{8,32}$")


@dataclass(frozen=True, slots=True)
class Sender:
    """Whose command ids a key names: a platform API key, a seat of a table, or an operator of
    a table (``operator``: every operator token of the table names the same commands)."""

    key_id: str | None = None
    table_id: str | None = None
    seat: int | None = None
    operator: bool = False

    def __post_init__(self) -> None:
        if self.key_id is not None:
            if self.table_id is not None or self.seat is not None or self.operator:
                raise ValueError("a sender is an API key, a seat or a table's operator, not two")
            if not _KEY_ID.match(self.key_id):
                raise ValueError(f"an API key's id is 8-32 hex digits, not {self.key_id!r}")
        elif self.operator:
            if self.table_id is None or self.seat is not None:
                raise ValueError("a table's operator names a table and no seat")
        elif self.table_id is None or self.seat not in (0, 1, 2, 3):
            raise ValueError("a seat sender names a table and a seat 0-3")

    @classmethod
    def api_key(cls, key_id: str) -> Sender:
        return cls(key_id=key_id)

    @classmethod
    def of_seat(cls, table_id: str, seat: int) -> Sender:
        return cls(table_id=table_id, seat=seat)

    @classmethod
    def operator_of(cls, table_id: str) -> Sender:
        return cls(table_id=table_id, operator=True)

    @property
    def namespace(self) -> str:
        """``k:<key id>``, ``s<seat>:<length>:<table>`` or ``o:<length>:<table>``."""
        if self.key_id is not None:
            return f"k:{self.key_id}"
        assert self.table_id is not None
        who = "o" if self.operator else f"s{self.seat}"
        return f"{who}:{len(self.table_id)}:{self.table_id}"


def _bounded(prefix: str, full: str) -> str:
    if len(full) <= MAX_ID_CHARS:
        return full
    return f"{prefix}h:{hashlib.sha256(full.encode()).hexdigest()}"


def client_command_id(sender: Sender, key: str) -> str:
    """The stored id of the command ``sender`` names ``key`` (an ``Idempotency-Key``)."""
    check_id("Idempotency-Key", key)
    return _bounded(CLIENT, f"{CLIENT}{sender.namespace}:{key}")


def service_command_id(kind: str, table_id: str, detail: str = "") -> str:
    """The id of a command the service gives itself: ``p:<kind>:<table>[:<detail>]``."""
    check_id("table_id", table_id)
    tail = f":{detail}" if detail else ""
    return _bounded(SERVICE, f"{SERVICE}{kind}:{len(table_id)}:{table_id}{tail}")


def is_client_id(command_id: str) -> bool:
    return command_id.startswith(CLIENT)


def key_of(sender: Sender, command_id: str) -> str:
    """The Idempotency-Key ``sender`` sent ``command_id`` under (the stored id when it was
    too long to keep readable, ``c:h:...``)."""
    mine = f"{CLIENT}{sender.namespace}:"
    return command_id[len(mine) :] if command_id.startswith(mine) else command_id


def client_key(command_id: str) -> str | None:
    """The Idempotency-Key in a stored client id, whoever sent it (None for the service's own
    ids and for hashed ones): for audits that hold a client's keys, not its credentials."""
    if command_id.startswith(f"{CLIENT}k:"):
        _, _, rest = command_id[len(CLIENT) + 2 :].partition(":")
        return rest or None
    seat = re.match(r"^c:(?:s[0-3]|o):(\d+):", command_id)
    if seat is None:
        return None
    start = seat.end() + int(seat.group(1))
    return command_id[start + 1 :] if command_id[start : start + 1] == ":" else None
