"""What the service counts, in Prometheus's terms: the calls the shell makes as things happen.

Every process records into prometheus_client's default registry; a Celery prefork worker's
children write theirs to files (multiprocess mode, ``ops.metrics_serve``), which the
worker's main process adds up when scraped. The metrics are made on first use, not at import:
multiprocess mode must be switched on (``PROMETHEUS_MULTIPROC_DIR``) before the first metric
exists, and ``paiju worker`` does that only once it knows its settings.

The recording calls never raise: a metric that cannot be written must not fail a command.

    command_outcome(outcome)                             # workers.tasks.commands
    command_handed_back()                                # workers.tasks.commands
    timer_fired(lateness=0.03, fired=True)               # workers.timekeeper
    webhook_result("retry")                              # workers.effects.delivery
    http_response(503)                                   # services.api.response_counts

Rate-limit refusals are counted where they are decided (``services.api.limits.COUNTS``) and
read from there when the API is scraped (``services.api.routes_ops``).
"""

from __future__ import annotations

import functools
import threading
import time
from typing import TYPE_CHECKING, Any, TypeVar

import structlog
from celery import signals

from services.rules.table.commands import AnyCommand

if TYPE_CHECKING:
    from events.outcomes import CommandOutcome

COMMAND_TASK = "paiju.commands.handle"  # workers.queues.COMMAND_TASK (ops stands below the workers)

log = structlog.get_logger("paiju.metrics")

R = TypeVar("R", bound=str)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LATENESS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


@functools.cache
def command_names() -> frozenset[str]:
    """The commands the engine knows: a label is one of them, never what a sender typed (an
    unbounded label would grow a series per typo)."""
    from typing import get_args

    union = get_args(AnyCommand)[0] if get_args(AnyCommand) else AnyCommand
    names = set()
    for model in get_args(union):
        field = model.model_fields.get("command")
        if field is not None and isinstance(field.default, str):
            names.add(field.default)
    return frozenset(names)


def command_label(command: object) -> str:
    """``discard_tile`` for a known command's data; ``invalid`` for anything else."""
    name = command.get("command") if isinstance(command, dict) else getattr(command, "command", None)
    return name if isinstance(name, str) and name in command_names() else "invalid"


class Metrics:
    """The metrics of one process (made once, on first use)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Histogram

        self.commands = Counter(
            "paiju_commands", "Commands run by the workers, by command and outcome (accepted,"
            " duplicate, a refusal's code, or retried: table_busy_retry, store_unreachable,"
            " rules_version_handed_back: to a worker with the table's rules version)",
            ["command", "outcome"],
        )
        self.command_seconds = Histogram(
            "paiju_command_duration_seconds", "Seconds from a command task's start to its outcome",
            ["command", "outcome"], buckets=LATENCY_BUCKETS,
        )
        self.timers = Counter(
            "paiju_timers_fired", "Due timers a timekeeper fired (fired) or failed to fire"
            " (failed: its lease runs out and it is fired again; handed_back: its table's rules"
            " version is not this process's, left for a timekeeper that has it)", ["result"],
        )
        self.lateness = Histogram(
            "paiju_timer_lateness_seconds", "Fire time minus due time of each timer fired",
            buckets=LATENESS_BUCKETS,
        )
        self.http_responses = Counter(
            "paiju_http_responses", "Responses the API sent, by status class (2xx, 3xx, 4xx,"
            " 5xx; 5xx also for a request that ended in an exception before any answer)",
            ["status"],
        )
        self.webhooks = Counter(
            "paiju_webhook_deliveries", "Webhook delivery attempts by result: delivered, retry"
            " (failed, tried again later), set_aside (failed for the last time), stale", ["result"],
        )


_made: Metrics | None = None


def metrics() -> Metrics:
    global _made
    if _made is None:
        _made = Metrics()
    return _made


def _quietly(record: Any) -> None:
    try:
        record()
    except Exception:  # a full disk under the multiprocess directory, say
        log.warning("metrics.not_recorded", exc_info=True)


def command_handled(command: str, outcome: str, seconds: float) -> None:
    def record() -> None:
        made = metrics()
        made.commands.labels(command, outcome).inc()
        made.command_seconds.labels(command, outcome).observe(seconds)

    _quietly(record)


_running = threading.local()  # the command task this thread runs: its start, its outcome


def command_handed_back(gave_up: bool = False) -> None:
    """The running command task handed its command back (its table's rules version is not
    this worker's), or, past its last hand-back, dropped it with no outcome."""
    _running.outcome = "rules_version_gave_up" if gave_up else "rules_version_handed_back"


def command_outcome(outcome: CommandOutcome) -> None:
    """The outcome the running command task ended with (``workers.tasks.commands``): counted,
    with the task's seconds, when the task ends. An outcome recorded before the task began
    answered a command sent again: ``duplicate``."""
    started = getattr(_running, "wall", None)
    if started is not None and outcome.recorded_at.timestamp() < started:
        _running.outcome = "duplicate"
    else:
        _running.outcome = "accepted" if outcome.accepted else (outcome.code or "refused")


@signals.task_prerun.connect(weak=False, dispatch_uid="paiju.metrics.prerun")
def _task_started(task: Any = None, **_: Any) -> None:
    if getattr(task, "name", None) == COMMAND_TASK:
        _running.wall, _running.started, _running.outcome = time.time(), time.perf_counter(), None


@signals.task_postrun.connect(weak=False, dispatch_uid="paiju.metrics.postrun")
def _task_ended(task: Any = None, args: Any = (), kwargs: Any = None, state: str | None = None,
                **_: Any) -> None:  # fmt: skip
    if getattr(task, "name", None) != COMMAND_TASK or getattr(_running, "started", None) is None:
        return
    kwargs = kwargs or {}
    command = kwargs.get("command", args[1] if len(args) > 1 else None)
    outcome = _running.outcome or ("retried" if state == "RETRY" else "error")
    command_handled(command_label(command), outcome, time.perf_counter() - _running.started)
    _running.started = _running.wall = _running.outcome = None


def timer_fired(lateness: float, fired: bool) -> None:
    def record() -> None:
        made = metrics()
        made.timers.labels("fired" if fired else "failed").inc()
        if fired:
            made.lateness.observe(max(0.0, lateness))

    _quietly(record)


def timer_handed_back() -> None:
    """A due timer left unfired: its table's rules version is not this process's."""
    _quietly(lambda: metrics().timers.labels("handed_back").inc())


def http_response(status: int) -> None:
    """One answer of the API, counted by its status class (``services.api.response_counts``)."""
    label = f"{status // 100}xx" if 100 <= status <= 599 else "5xx"
    _quietly(lambda: metrics().http_responses.labels(label).inc())


def webhook_result(result: R) -> R:
    """Counts one delivery attempt's result and gives it back (``return webhook_result(...)``)."""
    _quietly(lambda: metrics().webhooks.labels(result).inc())
    return result
