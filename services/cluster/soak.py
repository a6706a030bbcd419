"""A soak: the cluster under a steady load for a long run, one part killed at random every
``every`` seconds, Redis and PostgreSQL restarted in the middle, and every part's memory read
once a minute, so that a leak shows as growth of a kind past its warm-up.

Memory is read per part (its process tree's resident set); a part killed starts again small,
so a kind's figure at a sample is the largest part of that kind that has lived at least
``settled`` seconds, and growth is that figure in the last quarter of the run against the
first quarter after the warm-up.
"""

from __future__ import annotations

import csv
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from services.cluster.faults import Recovery, recovered
from services.cluster.load import Load
from services.cluster.procs import rss_mib
from services.cluster.run import Cluster

SAMPLE_EVERY = 60.0  # seconds between memory samples


@dataclass(frozen=True)
class SoakPlan:
    seconds: float = 3600.0
    every: float = 60.0  # seconds between kills
    seed: int = 22
    settled: float = 120.0  # seconds a part has lived before its memory counts


@dataclass(frozen=True)
class MemorySample:
    at: float  # seconds into the soak
    part: str
    kind: str
    age: float  # seconds since the part's current run started
    rss_mib: float


@dataclass
class Soak:
    recoveries: list[Recovery] = field(default_factory=list)
    memory: list[MemorySample] = field(default_factory=list)

    def write_memory(self, path: Path) -> None:
        with path.open("w", newline="") as out:
            rows = csv.writer(out)
            rows.writerow(["at_s", "part", "kind", "age_s", "rss_mib"])
            for m in self.memory:
                rows.writerow([f"{m.at:.0f}", m.part, m.kind, f"{m.age:.0f}", f"{m.rss_mib:.1f}"])

    def by_kind(self, settled: float) -> dict[str, list[tuple[float, float]]]:
        """Per kind, (seconds into the soak, largest settled part's MiB) at each sample."""
        found: dict[str, dict[float, float]] = {}
        for m in self.memory:
            if m.age >= settled:
                at = found.setdefault(m.kind, {})
                at[m.at] = max(at.get(m.at, 0.0), m.rss_mib)
        return {kind: sorted(at.items()) for kind, at in found.items()}

    def growth_lines(self, settled: float) -> list[str]:
        """A line per kind: its memory early and late in the run, and the growth between."""
        lines = []
        for kind, series in self.by_kind(settled).items():
            if len(series) < 4:
                lines.append(f"{kind}: {len(series)} settled samples, too few to say")
                continue
            quarter = max(1, len(series) // 4)
            early = statistics.median(mib for _, mib in series[:quarter])
            late = statistics.median(mib for _, mib in series[-quarter:])
            peak = max(mib for _, mib in series)
            lines.append(f"{kind}: {early:.0f} MiB early, {late:.0f} MiB late"
                         f" ({late / early - 1:+.1%}), peak {peak:.0f} MiB, {len(series)} samples"
                         + self._within_one_run(kind, settled))  # fmt: skip
        return lines

    def _within_one_run(self, kind: str, settled: float) -> str:
        """The longest-lived run of a part of ``kind``: its memory once settled and at its last
        sample. A part restarted late starts bigger if its start-up reads grow with what the
        store holds; only growth within a run is a leak."""
        runs: dict[tuple[str, int], list[MemorySample]] = {}
        for m in self.memory:
            if m.kind == kind and m.age >= settled:
                runs.setdefault((m.part, round((m.at - m.age) / 10)), []).append(m)
        if not runs:
            return ""
        longest = max(runs.values(), key=lambda r: r[-1].age - r[0].age)
        first, last = longest[0], longest[-1]
        minutes = (last.age - first.age) / 60
        return (f"; within one run ({first.part}, {minutes:.0f} min): {first.rss_mib:.0f} ->"
                f" {last.rss_mib:.0f} MiB ({last.rss_mib / first.rss_mib - 1:+.1%})")


def soak(cluster: Cluster, load: Load, plan: SoakPlan,
         say: Callable[[str], None] = lambda _: None) -> Soak:  # fmt: skip
    """Kill a random part every ``plan.every`` seconds until ``plan.seconds`` have passed,
    the servers restarted once half of it has; memory sampled every minute throughout."""
    chosen = random.Random(plan.seed)
    found = Soak()
    began = time.monotonic()
    next_kill, next_sample, servers_done = plan.every, 0.0, False
    while not load.stop.is_set():
        now = time.monotonic() - began
        if now >= plan.seconds:
            break
        if now >= next_sample:
            found.memory.extend(_sample(cluster, now))
            next_sample += SAMPLE_EVERY
        if not servers_done and now >= plan.seconds / 2:
            servers_done = True
            for name, restart in (("redis", cluster.redis.restart), ("postgres", cluster.postgres.restart)):
                at = time.perf_counter()
                restart()
                found.recoveries.append(recovered(cluster, load, f"restart {name}", name, cluster.parts, at))
                say(f"  {now / 60:5.1f} min: {_said(found.recoveries[-1])}")
        elif now >= next_kill:
            part = chosen.choice(cluster.parts)
            at = cluster.kill(part)
            found.recoveries.append(recovered(cluster, load, f"kill -9 {part.name}", part.kind, [part], at))
            say(f"  {now / 60:5.1f} min: {_said(found.recoveries[-1])}")
            next_kill += plan.every
        load.stop.wait(1.0)
    return found


def _sample(cluster: Cluster, at: float) -> list[MemorySample]:
    return [MemorySample(at, p.name, p.kind, time.monotonic() - p.started, rss_mib(p.pid))
            for p in cluster.parts if p.alive()]  # fmt: skip


def _said(r: Recovery) -> str:
    def s(v: float | None) -> str:
        return "not back" if v is None else f"{v:.2f} s"

    return f"{r.fault}: back {s(r.back_s)}, moves again {s(r.moving_s)}"

