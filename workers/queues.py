"""The queues Paiju's tasks travel on; a worker serves some or all of them (``-Q``)."""

from __future__ import annotations

import re
from enum import StrEnum


class QueueNames(StrEnum):
    commands = "commands"
    """A player's move, a timer's timeout: someone is waiting on it. Nothing slow goes here."""
    effects = "effects"
    """Outbound notifications to the platform (webhooks): at least once, may wait and retry."""
    maintenance = "maintenance"
    """Housekeeping no one waits on; the queue of any task that names no other."""


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
