"""The queues Paiju's tasks travel on; a worker serves some or all of them (``-Q``)."""

from __future__ import annotations

import re
import zlib
from enum import StrEnum


class QueueNames(StrEnum):
    commands = "commands"
    """A player's move, a timer's timeout: someone is waiting on it. Nothing slow goes here."""
    effects = "effects"
    """Outbound notifications to the platform (webhooks): at least once, may wait and retry."""
    maintenance = "maintenance"
    """Housekeeping no one waits on; the queue of any task that names no other."""


COMMAND_TASK = "paiju.commands.handle"
"""The commands task's name (``workers.tasks.commands``), which a client sends by name."""
DELIVER_TASK = "paiju.effects.deliver_webhook"
"""The effects task's name (``workers.tasks.effects``), which the reactor sends by name."""

ROUTES = {
    "paiju.commands.*": {"queue": QueueNames.commands.value},
    "paiju.effects.*": {"queue": QueueNames.effects.value},
    "paiju.maintenance.*": {"queue": QueueNames.maintenance.value},
}
"""A task's queue from its name: ``paiju.<queue>.<task>``."""


def rules_queues() -> list[str]:
    """The queues of every rules version this process has (``paiju worker`` serves them)."""
    from services.rules.variants.versions import known

    return [rules_queue(version) for version in known()]


def rules_queue(rules_version: str) -> str:
    """``commands.rules.paiju-rules-2``: the commands handed back for tables of that rules
    version (``workers.tasks.commands``), served only by workers that have it: a ``paiju
    worker`` serving ``commands`` also serves the queue of every version it knows."""
    return "commands.rules." + re.sub(r"[^A-Za-z0-9._-]", "-", rules_version)


SHARD_PREFIX = QueueNames.commands.value + ".shard."


def command_queue(table_id: str, shards: int) -> str:
    """The queue of ``table_id``'s commands: with ``shards`` > 1, ``commands.shard.<i>`` by a
    stable hash of the id (CRC-32: the same in every process and release), so one worker meets
    every command of a table and decides on the fold it kept (no stale fold, no second append);
    else ``commands``."""
    if shards <= 1:
        return QueueNames.commands.value
    return f"{SHARD_PREFIX}{zlib.crc32(table_id.encode()) % shards}"


def shard_queues(shards: int) -> list[str]:
    """Every shard's queue (none with one shard: ``commands`` is the queue)."""
    return [f"{SHARD_PREFIX}{i}" for i in range(shards)] if shards > 1 else []


def is_command_queue(name: str) -> bool:
    """``commands`` or one of its shards (a rules version's hand-back queue is not)."""
    return name == QueueNames.commands.value or name.startswith(SHARD_PREFIX)
