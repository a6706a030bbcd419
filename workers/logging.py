"""Logs: structlog JSON lines from every process, Celery's own records through the same formatter.

``configure_logging`` installs one handler on the root logger whose formatter renders both
structlog's events and plain ``logging`` records (Celery's, psycopg's) as one JSON object a
line, with whatever is bound in ``structlog.contextvars``. Celery calls it through its
``setup_logging`` signal (a receiver connected means Celery configures nothing itself).

Around each task the context is cleared and bound again (``task_prerun``) with the task id,
the task's name, the table id, the command id and the caller's correlation id, and cleared
after (``task_postrun``): a prefork child or a pool thread runs many tasks one after another,
and one task's ids must never leak into the next one's lines. The correlation id travels from
the caller in a message header (``before_task_publish``), taken from the caller's own bound
context when the caller did not set it.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import IO, Any

import structlog
from celery import signals

CORRELATION_HEADER = "paiju_correlation_id"
"""The message header with the caller's correlation id (not Celery's own ``correlation_id``)."""


def _add_pid(_: Any, __: str, event: dict[str, Any]) -> dict[str, Any]:
    event.setdefault("pid", os.getpid())
    return event


def _shared() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        _add_pid,
    ]


def configure_logging(
    level: str | int = "INFO", fmt: str = "json", stream: IO[str] | None = None
) -> None:
    """One handler on the root logger, replacing the one an earlier call installed."""
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            *_shared(),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_shared(),
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            renderer,
        ],
    )
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    handler.paiju = True  # type: ignore[attr-defined]
    unconfigure_logging()
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level.upper() if isinstance(level, str) else level)
    logging.captureWarnings(True)  # Celery's warnings too, as JSON lines


def unconfigure_logging() -> None:
    """Remove the handler ``configure_logging`` installed (a test done with its stream)."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "paiju", False)]:
        root.removeHandler(old)
    logging.captureWarnings(False)


def get_logger(name: str = "paiju.worker") -> Any:
    return structlog.stdlib.get_logger(name)


# -- Celery's signals (process-wide: they serve every app in the process) -------------------
@signals.setup_logging.connect(weak=False, dispatch_uid="paiju.setup_logging")
def _setup_logging(loglevel: Any = None, **_: Any) -> None:
    from services.settings import load_settings

    settings = load_settings()
    configure_logging(loglevel or settings.log_level, settings.log_format)


@signals.before_task_publish.connect(weak=False, dispatch_uid="paiju.correlation_out")
def _carry_correlation(headers: dict[str, Any] | None = None, **_: Any) -> None:
    if headers is None or headers.get(CORRELATION_HEADER):
        return
    bound = structlog.contextvars.get_contextvars().get("correlation_id")
    if bound:
        headers[CORRELATION_HEADER] = bound


def correlation_of(request: Any) -> str | None:
    """The caller's correlation id a task's message carried, if any."""
    value = getattr(request, CORRELATION_HEADER, None)
    if value is None:
        value = (getattr(request, "headers", None) or {}).get(CORRELATION_HEADER)
    return None if value is None else str(value)


@signals.task_prerun.connect(weak=False, dispatch_uid="paiju.bind_task")
def _bind_task(task_id: str, task: Any, kwargs: dict[str, Any] | None = None, **_: Any) -> None:
    structlog.contextvars.clear_contextvars()
    kwargs = kwargs or {}
    bound: dict[str, Any] = {"task_id": task_id, "task": task.name}
    for key in ("table_id", "command_id"):
        if isinstance(kwargs.get(key), str):
            bound[key] = kwargs[key]
    correlation = correlation_of(task.request)
    if correlation is not None:
        bound["correlation_id"] = correlation
    structlog.contextvars.bind_contextvars(**bound)


@signals.task_postrun.connect(weak=False, dispatch_uid="paiju.unbind_task")
def _unbind_task(**_: Any) -> None:
    structlog.contextvars.clear_contextvars()
