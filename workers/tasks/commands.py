"""The command task: one seat's (or the system's) command, run and its outcome recorded.

A worker killed in the middle loses nothing: the message is acknowledged only after the task
(``acks_late``) and given back when the worker is lost under it (``reject_on_worker_lost``),
so it runs again; the command id makes the second run answer with the first one's events.
A table that stays busy, or a store that cannot be reached, is tried again later (bounded);
every other end is an outcome in the store, which is where callers look (no result backend).
"""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
from celery import shared_task

from events.envelope import Actor
from services.tables import TableBusyError
from services.tables.runner import CommandOutcome, record_refusal, run_command
from workers import metrics
from workers.logging import correlation_of, get_logger
from workers.task import PaijuTask

COMMAND_TASK = "paiju.commands.handle"
BUSY_RETRIES = 5
STORE_RETRIES = 10
UNREACHABLE = (psycopg.OperationalError, sqlite3.OperationalError)

log = get_logger("paiju.worker")


@shared_task(
    name=COMMAND_TASK,
    base=PaijuTask,
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def handle_command(
    self: PaijuTask,
    table_id: str,
    command: dict[str, Any],
    command_id: str,
    actor: dict[str, Any] | None = None,
    if_version: int | None = None,
) -> None:
    correlation_id = correlation_of(self.request)
    service = self.service
    try:
        sender = None if actor is None else Actor.from_dict(actor)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        outcome = record_refusal(
            service, table_id, command_id, f"actor: {error}", "invalid_command",
            correlation_id=correlation_id,
        )
        _logged(outcome)
        return
    try:
        outcome = run_command(
            service,
            table_id,
            command,
            actor=sender,
            command_id=command_id,
            if_version=if_version,
            correlation_id=correlation_id,
            default_timing=self.settings.default_timing(),
        )
    except TableBusyError as error:
        if self.request.retries < BUSY_RETRIES:
            log.warning("command.busy", retries=self.request.retries)
            raise self.retry(exc=error, countdown=0.05 * 2**self.request.retries) from error
        outcome = record_refusal(
            service, table_id, command_id,
            f"{error}; nothing was applied: send it again with a new command id",
            "table_busy", actor=sender, correlation_id=correlation_id,
        )
    except UNREACHABLE as error:
        log.warning("command.store_unreachable", error=str(error), retries=self.request.retries)
        raise self.retry(
            exc=error, countdown=min(30.0, 0.5 * 2**self.request.retries),
            max_retries=STORE_RETRIES,
        ) from error
    _logged(outcome)


def _logged(outcome: CommandOutcome) -> None:
    metrics.command_outcome(outcome)  # counted with the task's seconds when the task ends
    if outcome.accepted:
        log.info(
            "command.accepted",
            first_version=outcome.first_version,
            last_version=outcome.last_version,
        )
    else:
        log.info("command.refused", code=outcome.code, reason=outcome.reason)
