"""Faults under load: kill -9 each kind of part in turn (its whole session: a worker's pool
too), then restart Redis (SIGKILL, back on its append-only file) and PostgreSQL (an immediate
stop: a power cut to the data), timing each recovery.

A recovery is counted from the fault to two moments: ``back``, when every process hurt answers
its probe again (an API's /healthz, another part's /metrics; after a server's restart, every
part, and every API's /readyz), and ``moving``, when the bots then have a move accepted again
(after an API's kill, a move of a table that API serves).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import httpx

from services.cluster.load import Load
from services.cluster.procs import ClusterPart
from services.cluster.run import KINDS, Cluster, api_base

BACK_TIMEOUT = 120.0  # a part not answering after this long is a failed recovery


@dataclass(frozen=True)
class FaultPlan:
    kills: int = 20  # of each kind
    kinds: tuple[str, ...] = KINDS
    pause: float = 1.0  # seconds of play between a recovery and the next fault
    redis: bool = True
    postgres: bool = True


@dataclass
class Recovery:
    fault: str  # "kill -9 api-0", "restart redis", ...
    kind: str
    back_s: float | None  # None: not back within BACK_TIMEOUT
    moving_s: float | None
    streams_s: float | None = None  # an API's kill: when 90 % of its seats' streams were open again


def hurt(cluster: Cluster, load: Load, plan: FaultPlan,
         say: Callable[[str], None] = lambda _: None) -> list[Recovery]:  # fmt: skip
    """Run the plan against the cluster while ``load`` plays; each fault's recovery."""
    found = []
    for kind in plan.kinds:
        parts = cluster.of(kind)
        for n in range(plan.kills if parts else 0):
            part = parts[n % len(parts)]
            at = cluster.kill(part)
            found.append(recovered(cluster, load, f"kill -9 {part.name}", kind, [part], at))
            say(_line(found[-1]))
            load.stop.wait(plan.pause)
            if load.stop.is_set():
                return found
    servers = [("redis", cluster.redis.restart)] if plan.redis else []
    servers += [("postgres", cluster.postgres.restart)] if plan.postgres else []
    for name, restart in servers:
        at = time.perf_counter()
        restart()
        found.append(recovered(cluster, load, f"restart {name}", name, cluster.parts, at))
        say(_line(found[-1]))
        load.stop.wait(plan.pause * 5)
    return found


def recovered(cluster: Cluster, load: Load, fault: str, kind: str,
              parts: list[ClusterPart], at: float) -> Recovery:  # fmt: skip
    """How long from the fault at ``at`` until ``parts`` answer again and then move."""
    deadline = at + BACK_TIMEOUT
    back = None
    while time.perf_counter() < deadline:
        if all(p.answering() for p in parts) and (kind not in ("redis", "postgres") or _ready(cluster)):
            back = time.perf_counter()
            break
        time.sleep(0.05)
    moving = None
    while back is not None and time.perf_counter() < deadline:
        accepted = _moves_showing(load, kind, parts)
        if accepted and accepted[-1] > back:
            moving = accepted[-1]
            break
        time.sleep(0.05)
    streams = _streams_reopened(load, parts[0], at, deadline) if kind == "api" and back else None
    return Recovery(fault, kind, None if back is None else back - at,
                    None if moving is None else moving - at, streams)  # fmt: skip


def _streams_reopened(load: Load, api: ClusterPart, at: float, deadline: float) -> float | None:
    """Seconds from the kill until 90 % of the streams of the API's tables' seats were open
    again (its tables' moves wait on them), or None if not by the deadline."""
    base = api_base(api)
    wanted = 0.9 * 4 * sum(1 for t in load.demo.tables if t.base == base)
    while time.perf_counter() < deadline:
        since = [t for t in load.tally.reopened.get(base, []) if t > at]
        if since and len(since) >= wanted:
            return sorted(since)[math.ceil(wanted) - 1] - at
        time.sleep(0.05)
    return None


def _moves_showing(load: Load, kind: str, parts: list[ClusterPart]) -> list[float]:
    """The accepted moves that show the hurt part serves again: for an API, the moves of the
    tables it serves (the other API's go on moving while it is down); else any."""
    if kind == "api":
        return load.tally.by_api.get(api_base(parts[0]), [])
    return load.tally.accepted_at


def _ready(cluster: Cluster) -> bool:
    """Every API's /readyz says the store and the broker answer."""
    try:
        return all(httpx.get(f"{b}/readyz", timeout=2).status_code == 200 for b in cluster.api_bases)
    except httpx.HTTPError:
        return False


def _line(r: Recovery) -> str:
    def s(v: float | None) -> str:
        return "not back" if v is None else f"{v:.2f} s"

    streams = "" if r.streams_s is None else f", 90 % of its streams open again {s(r.streams_s)}"
    return f"{r.fault}: back {s(r.back_s)}, moves again {s(r.moving_s)}{streams}"


class KindRecovery(NamedTuple):
    """A kind's faults, the failed recoveries among them, and its 'back' and 'moving' times (s)."""

    kind: str
    faults: int
    failed: int
    back_median: float
    back_worst: float
    moving_median: float
    moving_worst: float


def summary(recoveries: list[Recovery]) -> list[KindRecovery]:
    """Per kind, in the order the faults came."""
    rows = []
    nan = float("nan")
    for kind in dict.fromkeys(r.kind for r in recoveries):
        of = [r for r in recoveries if r.kind == kind]
        back = [r.back_s for r in of if r.back_s is not None]
        moving = [r.moving_s for r in of if r.moving_s is not None]
        failed = sum(1 for r in of if r.back_s is None or r.moving_s is None)
        rows.append(KindRecovery(kind, len(of), failed, statistics.median(back) if back else nan,
                                 max(back, default=nan), statistics.median(moving) if moving else nan,
                                 max(moving, default=nan)))  # fmt: skip
    return rows
