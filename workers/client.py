"""Sending commands to the workers and awaiting their outcomes (the API, the demo, tests).

``submit`` validates the ids, puts the command on the ``commands`` queue with the caller's
correlation id in a header, and returns at once; ``await_outcome`` waits (bounded) for the
outcome a worker records under the command id. A caller that times out may simply submit the
same command again with the same id: the first outcome is the answer either way
(``submit_and_wait(resend_every=...)`` does so itself).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping
from typing import Any

import structlog
from celery import Celery

from events.envelope import Actor, check_id
from events.outcomes import CommandOutcome, OutcomeTimeoutError
from events.store.base import EventStore
from services.rules.table.commands import Command
from services.tables.runner import outcome_store
from workers.logging import CORRELATION_HEADER
from workers.queues import COMMAND_TASK, command_queue

__all__ = ["OutcomeTimeoutError", "await_outcome", "submit", "submit_and_wait"]


def submit(
    app: Celery,
    table_id: str,
    command: Mapping[str, Any] | Command,
    *,
    command_id: str,
    actor: Actor | None = None,
    if_version: int | None = None,
    correlation_id: str | None = None,
) -> str:
    """Enqueue one command; its correlation id (given, else the one bound in the caller's
    log context, else a new one) is returned, and recorded in the outcome."""
    check_id("table_id", table_id)
    check_id("command_id", command_id)
    data = command.model_dump(mode="json") if isinstance(command, Command) else dict(command)
    correlation_id = (
        correlation_id
        or structlog.contextvars.get_contextvars().get("correlation_id")
        or uuid.uuid4().hex
    )
    app.send_task(
        COMMAND_TASK,
        kwargs={
            "table_id": table_id,
            "command": data,
            "command_id": command_id,
            "actor": None if actor is None else actor.to_dict(),
            "if_version": if_version,
        },
        headers={CORRELATION_HEADER: correlation_id},
        queue=command_queue(table_id, _shards(app)),
        # what monitors show of the message, given (else Celery writes a safe repr of every
        # argument on every send: a twentieth of the API's time on a POST)
        argsrepr="()", kwargsrepr=f"{{'table_id': {table_id!r}, 'command_id': {command_id!r}}}",
    )
    return str(correlation_id)


def await_outcome(store: EventStore, command_id: str, timeout: float = 10.0) -> CommandOutcome:
    """The outcome recorded for ``command_id``; ``OutcomeTimeoutError`` after ``timeout`` s."""
    outcome = outcome_store(store).wait_for_outcome(command_id, timeout)
    if outcome is None:
        raise OutcomeTimeoutError(command_id, timeout)
    return outcome


def _shards(app: Celery) -> int:
    """The command shards of ``app``'s settings (Paiju's app; any other: one queue)."""
    settings = getattr(app, "settings", None)
    return int(getattr(settings, "command_shards", 1))


def submit_and_wait(
    app: Celery,
    store: EventStore,
    table_id: str,
    command: Mapping[str, Any] | Command,
    *,
    command_id: str,
    actor: Actor | None = None,
    if_version: int | None = None,
    correlation_id: str | None = None,
    timeout: float = 10.0,
    resend_every: float | None = None,
) -> CommandOutcome:
    """Submit, then await the outcome; ``resend_every`` seconds without one, send the same
    command again under the same id (the first outcome answers both). A resend covers the
    one message a broker can lose: Redis hands a message to a worker as it pops it, and a
    worker killed before it has read the reply never records it as taken."""
    deadline = time.monotonic() + timeout
    correlation_id = submit(
        app, table_id, command, command_id=command_id, actor=actor, if_version=if_version,
        correlation_id=correlation_id,
    )
    while True:
        remaining = deadline - time.monotonic()
        wait = remaining if resend_every is None else min(remaining, resend_every)
        outcome = outcome_store(store).wait_for_outcome(command_id, max(0.0, wait))
        if outcome is not None:
            return outcome
        if time.monotonic() >= deadline:
            raise OutcomeTimeoutError(command_id, timeout)
        submit(
            app, table_id, command, command_id=command_id, actor=actor,
            if_version=if_version, correlation_id=correlation_id,
        )
