"""The queues Paiju's tasks travel on; a worker serves some or all of them (``-Q``)."""

from __future__ import annotations

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
