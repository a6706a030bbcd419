"""The health of the parts, as the ops dashboard shows it: one ``Figure`` each, with a state
(ok, warn, red, unknown) by the thresholds below and what is wrong in words.

- the parts: the store, the broker and each part's heartbeats as ``paiju health`` judges them
  (``ops.health.assess``);
- queue depth: Redis's lists as ``/metrics`` reads them (``workers.queue_depth``),
  or the in-process memory transport of the embedded default;
- projector lag: each projection's live build behind the store's head, as ``paiju projections
  status`` gives it (``readmodels.operations.status``);
- read from the store's database, because they are service-wide there (the metrics count per
  process): commands per second (command outcomes recorded between two looks), timers due and
  how late the oldest is, webhook deliveries set aside or retrying. Short reads, each on an
  index.
docs/operations.md ("Dashboard") says what each means and what to do when it is red.
"""

from __future__ import annotations

import collections
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from events.store import parse_store_url
from events.store.base import EventStore
from events.store.pool_checks import still_serving
from ops import health, metrics_serve
from readmodels import catalog, operations
from readmodels.db import ProjectionDB
from services.settings import Settings
from workers.queue_depth import queue_depth
from workers.queues import QueueNames, is_command_queue

State = Literal["ok", "warn", "red", "unknown"]
QUEUE_WARN, QUEUE_RED = 100, 1000  # commands waiting for a worker
TIMER_LATE_WARN, TIMER_LATE_RED = 1.0, 5.0  # seconds the oldest due timer is late
LAG_WARN, LAG_RED = 100, 1000  # positions a projection's live build is behind the head
RATE_WINDOW = 10.0  # seconds over which commands per second are counted
PARTS_SECONDS = 2.0  # how often the parts' heartbeats are read again (each a few reads)


class Figure(BaseModel):
    """One figure of the health panel: its value as shown, its state, and why."""

    key: str
    label: str
    value: str
    state: State
    detail: str = ""


class StoreLook:
    """Short reads on the store's database: SQLite on a read-only connection for each read;
    PostgreSQL on one connection of its own (2 s statement timeout), made again after an
    error, so a snapshot a second does not open a connection for each of its reads."""

    def __init__(self, url: str) -> None:
        self.where = parse_store_url(url)
        self.sqlite = self.where.backend == "sqlite"
        self._pg: Any = None
        self._lock = threading.Lock()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.sqlite:
            conn = sqlite3.connect(f"file:{self.where.path}?mode=ro", uri=True, timeout=2)
            try:
                return conn.execute(sql, tuple(params)).fetchall()
            finally:
                conn.close()
        with self._lock:
            try:
                return list(self._connection().execute(sql.replace("?", "%s"),
                                                       tuple(params)).fetchall())  # fmt: skip
            except Exception:
                self.close()  # a connection that failed once is not trusted again
                raise

    def _connection(self) -> Any:
        if self._pg is not None and not still_serving(self._pg):
            self.close()  # the server restarted under it
        if self._pg is None or self._pg.closed:
            import psycopg

            quoted = '"' + self.where.schema.replace('"', '""') + '"'
            self._pg = psycopg.connect(
                self.where.conninfo, autocommit=True, connect_timeout=2,
                options=f"-c search_path={quoted} -c statement_timeout=2000")  # fmt: skip
        return self._pg

    def close(self) -> None:
        if self._pg is not None:
            with contextlib.suppress(Exception):
                self._pg.close()
            self._pg = None


class CommandRate:
    """Commands per second from the outcomes' ``sequence`` at successive looks (an index read,
    never a count of the table), over the last ``RATE_WINDOW`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.samples: collections.deque[tuple[float, int]] = collections.deque(maxlen=64)

    def figure(self, look: StoreLook) -> Figure:
        ((last,),) = look.rows("SELECT max(sequence) FROM command_outcomes")
        now, last = self.clock(), int(last or 0)
        self.samples.append((now, last))
        while len(self.samples) > 2 and now - self.samples[1][0] >= RATE_WINDOW:
            self.samples.popleft()
        first_at, first = self.samples[0]
        if now - first_at <= 0:
            return Figure(key="commands", label="commands per second", value="…", state="unknown",
                          detail="measured from the second look on")  # fmt: skip
        counts = dict(look.rows("SELECT status, count(*) FROM command_outcomes WHERE sequence > ?"
                                " GROUP BY status", (first,)))  # fmt: skip
        rate = (last - first) / (now - first_at)
        refused = int(counts.get("refused", 0))
        detail = f"{refused} of {last - first} refused in the last {now - first_at:.0f} s"
        return Figure(key="commands", label="commands per second", value=f"{rate:.1f}",
                      state="ok", detail=detail)  # fmt: skip


def queue_depths(settings: Settings, redis_gauge: metrics_serve.Gauges | None = None
                 ) -> dict[str, int] | None:  # fmt: skip
    """Messages waiting in each queue: Redis's lists (as ``/metrics`` reads them), or this
    process's memory transport. None: a memory:// broker in another process, which no one else
    can see. A broker that does not answer is a ``BrokerDown``."""
    if settings.embedded:
        from kombu.transport import memory

        queues: dict[str, Any] = memory.Channel.queues
        return {q.value: sum(v.qsize() for k, v in list(queues.items()) if k == q.value)
                for q in QueueNames}  # fmt: skip
    found = {name: samples for name, _, _, samples in
             (redis_gauge or queue_depth(settings)).read()}  # fmt: skip
    if found.get("paiju_broker_up", [([], 0)])[0][1] != 1:
        raise BrokerDown(health.broker_problem(settings) or "broker unreachable")
    return {labels[0]: int(n) for labels, n in found.get("paiju_queue_depth", [])}


class BrokerDown(Exception):
    """The broker did not answer: no queue depth."""


def queue_figure(settings: Settings, redis_gauge: metrics_serve.Gauges | None = None) -> Figure:
    try:
        depths = queue_depths(settings, redis_gauge)
    except BrokerDown as down:
        return Figure(key="queue", label="queue depth", value="?", state="red", detail=str(down))
    return depth_figure(depths)


def depth_figure(depths: dict[str, int] | None) -> Figure:
    if depths is None:
        return Figure(key="queue", label="queue depth", value="–", state="unknown",
                      detail="the memory:// broker of another process")  # fmt: skip
    waiting = sum(n for name, n in depths.items() if is_command_queue(name))  # and its shards
    state: State = "red" if waiting >= QUEUE_RED else "warn" if waiting >= QUEUE_WARN else "ok"
    detail = ", ".join(f"{name} {n}" for name, n in depths.items())
    return Figure(key="queue", label="queue depth", value=str(waiting), state=state, detail=detail)


def timer_figure(look: StoreLook, now: float | None = None) -> Figure:
    """Timers past their due time (a timekeeper fires each within milliseconds) and how late
    the oldest of them is."""
    if look.sqlite:
        moment = time.time() if now is None else now
        ((due, late),) = look.rows("SELECT count(*), ? - min(due_at) FROM timers WHERE due_at <= ?",
                                   (moment, moment))  # fmt: skip
    else:
        ((due, late),) = look.rows("SELECT count(*), EXTRACT(EPOCH FROM now() - min(due_at))"
                                   " FROM timers WHERE due_at <= now()")  # fmt: skip
    late = float(late or 0.0)
    state: State = ("red" if late >= TIMER_LATE_RED else "warn" if late >= TIMER_LATE_WARN
                    else "ok")  # fmt: skip
    detail = f"{due} due, the oldest {late:.1f} s late" if due else "none due"
    return Figure(key="timers", label="timer lateness", value=f"{late:.1f} s", state=state,
                  detail=detail)  # fmt: skip


def lag_figure(db: ProjectionDB, store: EventStore,
               logs: Mapping[int, EventStore] | None = None) -> Figure:  # fmt: skip
    """The most any projection's live build is behind the heads (of every partition's log,
    ``logs``, where tables have stores of their own); stopped ones named."""
    found = operations.status(db, store, catalog.ALL, logs)
    stopped = [s.name for s in found if s.state in ("stopped", "not built")]
    lags = [s.lag for s in found if s.lag is not None]
    worst = max(lags, default=0)
    state: State = "red" if stopped or worst >= LAG_RED else "warn" if worst >= LAG_WARN else "ok"
    behind = [f"{s.name} {s.lag}" + _by_partition(s) for s in found if s.lag]
    detail = "; ".join(([f"stopped or not built: {', '.join(stopped)}"] if stopped else [])
                       + ([f"behind: {', '.join(behind)}"] if behind else [])) or "all caught up"  # fmt: skip
    return Figure(key="lag", label="projector lag", value=str(worst), state=state, detail=detail)


def _by_partition(status: operations.Status) -> str:
    """`` (store 1: 12, store 2: 3)``: where a lagging build is behind, with table stores."""
    if len(status.heads) < 2 or status.live is None:
        return ""
    lags = [f"store {p['partition']}: {p['lag']}" for p in status.by_partition(status.live) if p["lag"]]
    return f" ({', '.join(lags)})"


def webhook_figure(look: StoreLook) -> Figure:
    """Deliveries set aside (failed for the last time: ``paiju webhooks``) and retrying (on
    the outbox's partial indexes)."""
    ((aside,),) = look.rows("SELECT count(*) FROM webhook_deliveries WHERE status = 'set_aside'")
    ((retrying,),) = look.rows("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'"
                               " AND attempts > 0")  # fmt: skip
    last = look.rows("SELECT event_type, last_status, last_error FROM webhook_deliveries"
                     " WHERE status = 'set_aside' ORDER BY position DESC LIMIT 1")  # fmt: skip
    state: State = "red" if aside else "warn" if retrying else "ok"
    detail = f"{aside} set aside, {retrying} retrying"
    if last:
        kind, status, error = last[0]
        detail += f"; last set aside: {kind} ({status or 'no answer'}: {error or ''})"
    return Figure(key="webhooks", label="webhook failures", value=str(aside), state=state,
                  detail=detail)  # fmt: skip


def parts_figure(report: health.Report) -> Figure:
    """The store, the broker and each part that writes a heartbeat (``paiju health``)."""
    wrong = [f"store: {report.store}"] if report.store else []
    wrong += [f"broker: {report.broker}"] if report.broker else []
    wrong += [f"{p.part}: {'; '.join(p.problems)}" for p in report.parts if not p.healthy]
    well = sum(1 for p in report.parts if p.healthy)
    value = f"{well} of {len(report.parts)}" if report.parts else "–"
    named = ", ".join(f"{p.part} {'ok' if p.healthy else 'down'}" for p in report.parts)
    detail = "; ".join(wrong) or (f"store and broker ok; {named}" if named else
                                  "store and broker ok; no part has written a heartbeat here")  # fmt: skip
    return Figure(key="parts", label="parts healthy", value=value,
                  state="red" if wrong else "ok", detail=detail)  # fmt: skip
