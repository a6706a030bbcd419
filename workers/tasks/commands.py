"""The command task: one seat's (or the system's) command, run and its outcome recorded.

A worker killed in the middle loses nothing: the message is acknowledged only after the task
(``acks_late``) and given back when the worker is lost under it (``reject_on_worker_lost``),
so it runs again; the command id makes the second run answer with the first one's events.
A table that stays busy, or a store that cannot be reached, is tried again later (bounded);
every other end is an outcome in the store, which is where callers look (no result backend).

A table whose rules version this worker does not have (a rolling upgrade: the table opened on
a newer worker) is handed back, never decided here and never given an outcome: ``self.retry``
sends it to that version's queue (``workers.queues.rules_queue``), which only workers that have
the version serve, and there it waits (in Redis, durable as the broker is) until one takes it.
Not ``Reject(requeue=True)``: on Redis that puts it back on the same queue at once, with no
count, so old workers would pass it round for ever and the upgraded ones might get it late;
nor a retry with a delay on the same queue: a message with a countdown is taken at once by a
worker that holds it in memory (service-notes §1.1), so the old worker that handed it back
kept taking it again (measured here: one command handed back 28 times over 40 s). Past
``HAND_BACK_RETRIES`` (a worker of a version's queue lacking it: a misconfiguration) it is
logged as an error and dropped with no outcome: the same command id can be sent again.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg
from celery import shared_task
from kombu import Queue

from events.envelope import Actor
from ops import metrics
from services.rules.variants.versions import RulesVersionUnavailable
from services.tables import TableBusyError
from services.tables.runner import CommandOutcome, record_refusal, run_command
from workers.logging import correlation_of, get_logger
from workers.queues import COMMAND_TASK, rules_queue
from workers.task import PaijuTask

BUSY_RETRIES = 5
STORE_RETRIES = 10
HAND_BACK_RETRIES = 20
UNREACHABLE = (psycopg.OperationalError, sqlite3.OperationalError)
UNRECORDABLE = "invalid_id"
"""The code of a refusal the runner answers but cannot record (its table or command id is
not an id: too long, a control character)."""

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
    handed_back: int = 0,
) -> None:
    correlation_id = correlation_of(self.request)
    retried = self.request.retries - handed_back  # retries for a busy table or store
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
    except RulesVersionUnavailable as error:
        _hand_back(self, error, handed_back)
        return
    except TableBusyError as error:
        if retried < BUSY_RETRIES:
            log.warning("command.busy", retries=retried)
            raise self.retry(
                exc=error, countdown=0.05 * 2**retried, max_retries=BUSY_RETRIES + handed_back
            ) from error
        outcome = record_refusal(
            service, table_id, command_id,
            f"{error}; nothing was applied: send it again with a new command id",
            "table_busy", actor=sender, correlation_id=correlation_id,
        )
    except UNREACHABLE as error:
        log.warning("command.store_unreachable", error=str(error), retries=retried)
        raise self.retry(
            exc=error, countdown=min(30.0, 0.5 * 2**retried),
            max_retries=STORE_RETRIES + handed_back,
        ) from error
    _logged(outcome)


def _hand_back(task: PaijuTask, error: RulesVersionUnavailable, handed_back: int) -> None:
    """Send the command back to the queue for a worker that has the table's rules version."""
    metrics.command_handed_back(gave_up=handed_back >= HAND_BACK_RETRIES)
    if handed_back >= HAND_BACK_RETRIES:
        log.error(
            "command.rules_version_missing", rules_version=error.version, known=error.known,
            handed_back=handed_back,
            reason="no worker with the table's rules version took it; no outcome is recorded,"
            " so the same command id can be sent again",
        )
        return
    queue = Queue(rules_queue(error.version), routing_key=rules_queue(error.version))
    log.warning(
        "command.handed_back", rules_version=error.version, known=error.known,
        handed_back=handed_back + 1, queue=rules_queue(error.version),
    )
    raise task.retry(
        kwargs={**(task.request.kwargs or {}), "handed_back": handed_back + 1},
        queue=queue,
        declare=[queue],  # a version this worker's app does not name among its queues
        countdown=0,  # now (None would be Celery's default delay of three minutes)
        max_retries=task.request.retries + 1,
    ) from error


def _logged(outcome: CommandOutcome) -> None:
    metrics.command_outcome(outcome)  # counted with the task's seconds when the task ends
    if outcome.code == UNRECORDABLE:
        # No outcome can be stored under an id that is not one, so no caller will ever read
        # this refusal: the message came from past the API (which checks ids), and an
        # operator is told, with the task id to find the message by.
        log.warning("command.unusable_arguments", code=outcome.code, reason=outcome.reason)
    elif outcome.accepted:
        log.info(
            "command.accepted",
            first_version=outcome.first_version,
            last_version=outcome.last_version,
        )
    else:
        log.info("command.refused", code=outcome.code, reason=outcome.reason)
