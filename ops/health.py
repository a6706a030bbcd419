"""Health: is each part of the service up, and if not, what is wrong with it.

Each long-running part (``paiju worker``, ``timekeeper``, ``reactor``, ``projector``) writes a
heartbeat every ``PAIJU_HEARTBEAT_SECONDS``: a Redis key with a TTL on the broker (kept a
while after it stops being written, so a dead part's last word can be shown), or, embedded,
an entry in this process. A heartbeat carries the part's own problems ("store unreachable:
…", "timekeeper loop stuck for 31 s") and what it is doing. ``assess`` reads them, looks at
the store and the broker itself (a fresh connection each, bounded in time) and says, part by
part, what is wrong: ``paiju health`` prints it, the API's ``/readyz`` answers it.

A part is healthy when at least one of its instances wrote a heartbeat within
``PAIJU_HEARTBEAT_STALE_SECONDS`` and none of its fresh heartbeats reports a problem; an
instance that stopped writing (killed, scaled down) is shown, not counted against it.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from events.store import parse_store_url
from services.settings import Settings
from services.tables.partitions import split_position

PARTS = ("worker", "timekeeper", "projector", "reactor")
KEPT_SECONDS = 900  # a heartbeat no one writes any more is forgotten after this
PROBE_TIMEOUT = 2.0


def _error(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


# --- the store and the broker, looked at directly ---------------------------------------------


class StoreLook:
    """Short reads of the store on a connection of their own (opened, read, closed), so a
    health check neither waits on the service's pools nor holds what they hold."""

    def __init__(self, url: str) -> None:
        self.where = parse_store_url(url)

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self.where.backend == "sqlite":
            uri = f"file:{self.where.path}?mode=ro"
            conn = sqlite3.connect(uri, uri=True, timeout=PROBE_TIMEOUT)
            try:
                return conn.execute(sql, params).fetchall()
            finally:
                conn.close()
        import psycopg

        quoted = '"' + self.where.schema.replace('"', '""') + '"'
        with psycopg.connect(
            self.where.conninfo, autocommit=True, connect_timeout=int(PROBE_TIMEOUT),
            options=f"-c search_path={quoted} -c statement_timeout={int(PROBE_TIMEOUT * 1000)}",
        ) as conn:  # fmt: skip
            return list(conn.execute(sql.replace("?", "%s"), params).fetchall())  # type: ignore[arg-type]

    def head(self) -> int:
        """The store's last position (0: empty)."""
        rows = self._query("SELECT max(position) FROM events")
        return int(rows[0][0] or 0) if rows else 0

    def projections(self) -> dict[str, tuple[int, str | None]]:
        """Each projection's live build: its position and the error it stopped at, if any."""
        try:
            rows = self._query("SELECT name, position, error FROM projection_builds WHERE active")
        except Exception as error:  # no projector ever ran here: no table yet
            if "projection_builds" in str(error):
                return {}
            raise
        return {str(name): (int(position), error) for name, position, error in rows}

    def partition_positions(self) -> dict[str, dict[int, int]]:
        """Each projection's live build's checkpoint in each table store (store positions)."""
        try:
            rows = self._query("SELECT p.name, p.partition, p.position FROM projection_positions p"
                               " JOIN projection_builds b ON b.name = p.name AND b.build = p.build"
                               " WHERE b.active")  # fmt: skip
        except Exception as error:  # no projector ever ran here: no table yet
            if "projection_" in str(error):
                return {}
            raise
        found: dict[str, dict[int, int]] = {}
        for name, partition, position in rows:
            found.setdefault(str(name), {})[int(partition)] = split_position(int(position))[1]
        return found

    def timers_due(self) -> int:
        """Timers whose due time has passed (claimed or not): a timekeeper keeps this near 0."""
        if self.where.backend == "sqlite":
            rows = self._query("SELECT count(*) FROM timers WHERE due_at <= ?", (time.time(),))
        else:
            rows = self._query("SELECT count(*) FROM timers WHERE due_at <= now()")
        return int(rows[0][0]) if rows else 0

    def problem(self) -> str | None:
        try:
            self.head()
        except Exception as error:
            return f"store unreachable: {_error(error)}"
        return None


class DeploymentLook:
    """``StoreLook``s of the home store and of every table store (partition) of ``settings``:
    heads, timers and each projection's lag added up over all of them."""

    def __init__(self, settings: Settings) -> None:
        self.home = StoreLook(settings.store_url)
        self.tables = {n: StoreLook(url) for n, url in settings.table_store_urls().items()}

    def head(self) -> int:
        """Events in every store (the home store's last position when it is the only one)."""
        return self.home.head() + sum(_unmade_is_empty(look.head) for look in self.tables.values())

    def lags(self) -> dict[str, tuple[int, str | None]]:
        """Each projection's live build: how far behind every store's head it is in all, and
        the error it stopped at, if any."""
        builds = self.home.projections()
        if not self.tables:
            head = self.home.head()
            return {name: (head - position, error) for name, (position, error) in builds.items()}
        heads = {n: _unmade_is_empty(look.head) for n, look in self.tables.items()}
        home, positions = self.home.head(), self.home.partition_positions()
        return {name: (home - position + sum(max(0, h - positions.get(name, {}).get(n, 0))
                                             for n, h in heads.items()), error)
                for name, (position, error) in builds.items()}  # fmt: skip

    def timers_due(self) -> int:
        return self.home.timers_due() + sum(_unmade_is_empty(look.timers_due)
                                            for look in self.tables.values())  # fmt: skip


def _unmade_is_empty(read: Callable[[], int]) -> int:
    """A table store no process has opened yet (opened when a table is first placed there)
    holds nothing: 0. Any other failure is the store's problem, raised."""
    try:
        return read()
    except Exception as error:
        text = str(error)
        unmade = ("unable to open database file", 'relation "events" does not exist',
                  'relation "timers" does not exist', "no such table")  # a schema not yet made
        if any(words in text for words in unmade):  # (a database that does not exist is a fault)
            return 0
        raise


def broker_problem(settings: Settings) -> str | None:
    """What is wrong with the broker (None: Redis answered, or the in-process ``memory://``)."""
    if settings.embedded:
        return None
    import redis

    try:
        client = redis.Redis.from_url(settings.broker_url, socket_timeout=PROBE_TIMEOUT,
                                      socket_connect_timeout=PROBE_TIMEOUT)  # fmt: skip
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError as error:
        return f"broker unreachable: {_error(error)}"
    return None


# --- heartbeats --------------------------------------------------------------------------------


@dataclass
class Heartbeat:
    part: str
    instance: str
    at: float  # time.time() when written
    problems: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        return f"{self.part}:{self.instance}"


class HeartbeatBoard(Protocol):
    def write(self, beat: Heartbeat) -> None: ...
    def remove(self, beat: Heartbeat) -> None: ...
    def read(self) -> list[Heartbeat]: ...


class RedisBoard:
    """Heartbeats as Redis keys ``{prefix}health:{part}:{instance}`` (JSON, a TTL)."""

    def __init__(self, settings: Settings) -> None:
        import redis

        self.prefix = f"{settings.key_prefix}health:"
        self.client = redis.Redis.from_url(settings.broker_url, socket_timeout=PROBE_TIMEOUT,
                                           socket_connect_timeout=PROBE_TIMEOUT)  # fmt: skip

    def write(self, beat: Heartbeat) -> None:
        self.client.set(self.prefix + beat.key(), json.dumps(asdict(beat)), ex=KEPT_SECONDS)

    def remove(self, beat: Heartbeat) -> None:
        self.client.delete(self.prefix + beat.key())

    def read(self) -> list[Heartbeat]:
        keys = list(self.client.scan_iter(match=self.prefix + "*", count=200))[:10_000]
        found = []
        for raw in self.client.mget(keys) if keys else []:
            if raw is not None:
                found.append(Heartbeat(**json.loads(raw)))
        return found


class LocalBoard:
    """Heartbeats of this process's threads (embedded: every part is a thread of one process)."""

    beats: dict[str, Heartbeat] = {}
    lock = threading.Lock()

    def write(self, beat: Heartbeat) -> None:
        with self.lock:
            self.beats[beat.key()] = beat

    def remove(self, beat: Heartbeat) -> None:
        with self.lock:
            self.beats.pop(beat.key(), None)

    def read(self) -> list[Heartbeat]:
        with self.lock:
            return [b for b in self.beats.values() if time.time() - b.at < KEPT_SECONDS]


def board_for(settings: Settings) -> HeartbeatBoard:
    return LocalBoard() if settings.embedded else RedisBoard(settings)


def instance_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


# --- assessing ---------------------------------------------------------------------------------


@dataclass
class PartHealth:
    part: str
    healthy: bool
    problems: list[str]
    instances: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Report:
    store: str | None  # the problem, None: fine
    broker: str | None
    parts: list[PartHealth]

    @property
    def ready(self) -> bool:
        """What the API needs to serve: the store and the broker."""
        return self.store is None and self.broker is None

    @property
    def healthy(self) -> bool:
        return self.ready and all(p.healthy for p in self.parts)

    def as_json(self) -> dict[str, Any]:
        return {
            "healthy": self.healthy,
            "ready": self.ready,
            "store": {"healthy": self.store is None, "problems": [self.store] if self.store else []},
            "broker": {"healthy": self.broker is None,
                       "problems": [self.broker] if self.broker else []},  # fmt: skip
            "parts": {p.part: {"healthy": p.healthy, "problems": p.problems,
                               "instances": p.instances} for p in self.parts},  # fmt: skip
        }

    def lines(self) -> list[str]:
        """One line a part: ``ok`` or what is wrong."""
        found = [f"store: {self.store or 'ok'}", f"broker: {self.broker or 'ok'}"]
        for part in self.parts:
            alive = sum(1 for i in part.instances if i["fresh"])
            state = "ok" if part.healthy else "; ".join(part.problems)
            found.append(f"{part.part}: {state} ({alive} alive)")
        return found


def expected_parts(settings: Settings) -> list[str]:
    """The parts a deployment runs: the reactor only when notifications are configured."""
    return [p for p in PARTS if p != "reactor" or settings.webhook_url]


def assess(settings: Settings, parts: Iterable[str] | None = None, now: float | None = None,
           partition: int | None = None) -> Report:  # fmt: skip
    """Each part's health from its heartbeats; ``partition``: only the readers of that store
    (a table store's timekeeper pod's readiness is its own partition's, not the home store's)."""
    now = time.time() if now is None else now
    look = StoreLook(settings.store_url)
    store, broker = look.problem(), broker_problem(settings)
    beats: list[Heartbeat] = []
    if broker is None:
        try:
            beats = board_for(settings).read()
        except Exception as error:  # the broker went away between the two looks
            broker = f"broker unreachable: {_error(error)}"
    report = Report(store, broker, [])
    if parts is None:  # embedded, the parts are threads here: only those that beat are shown
        parts = expected_parts(settings)
        if settings.embedded:
            parts = [p for p in parts if any(b.part == p for b in beats)]
    if partition is not None:
        beats = [b for b in beats if int(b.detail.get("partition", 0)) == partition]
    for part in parts:
        mine = sorted((b for b in beats if b.part == part), key=lambda b: -b.at)
        report.parts.append(_part_health(part, mine, settings, now, broker))
    projector = next((p for p in report.parts if p.part == "projector"), None)
    if projector is not None and store is None:
        _projections_from_store(projector, DeploymentLook(settings), settings)
    return report


def _part_health(part: str, beats: list[Heartbeat], settings: Settings, now: float,
                 broker: str | None) -> PartHealth:  # fmt: skip
    stale = settings.heartbeat_stale_seconds
    instances = [{"instance": b.instance, "age_seconds": round(now - b.at, 1),
                  "fresh": now - b.at <= stale, "problems": b.problems, **b.detail}
                 for b in beats]  # fmt: skip
    fresh = [b for b in beats if now - b.at <= stale]
    problems = [f"{b.instance}: {p}" if len(fresh) > 1 else p for b in fresh for p in b.problems]
    if broker is not None:
        problems.append(f"no {part} heartbeat can be read ({broker})")
    elif not fresh and beats:
        problems.append(f"no {part} heartbeat for {now - beats[0].at:.0f} s")
    elif not fresh:
        problems.append(f"no {part} heartbeat: none is running, or none has written one yet")
    return PartHealth(part, not problems, problems, instances)


def _projections_from_store(health: PartHealth, look: DeploymentLook, settings: Settings) -> None:
    """A stopped or far-behind projection is a problem whether or not a projector runs (behind
    the heads of every store, where tables have stores of their own)."""
    try:
        head, builds = look.home.head(), look.lags()
    except Exception as error:
        health.problems.append(f"projections unreadable: {_error(error)}")
    else:
        for name, (lag, error) in sorted(builds.items()):
            if error:
                health.problems.append(f"projector {name} {error}")
            elif lag > settings.health_max_projector_lag:
                where = f" (at position {head - lag} of {head})" if not look.tables else (
                    " (every store's events counted)")  # fmt: skip
                health.problems.append(
                    f"projector {name} is {lag} positions behind the store head{where}"
                )
    health.problems = list(dict.fromkeys(health.problems))
    health.healthy = not health.problems
