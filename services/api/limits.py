"""Rate limits (限流) per platform API key, per seat, per address, with the ``limits`` library.

Every route depends on ``rate_limited``: it names the caller (a live API key by its id; a
table token by its table and seat, or a watcher's subject; else the client's address) and
what it asks (a command: any POST; a read: any GET; a connection to a seat's live stream,
counted apart so reconnecting cannot starve the seat's moves), and takes one hit from the
limit that applies (``PAIJU_API_RATE_LIMIT_*``). Over it: 429, a problem document naming
the limit, with ``Retry-After``. Counts live in ``memory://`` when embedded, else in the
broker's Redis, so every API process of a deployment counts together. A storage that is
away lets requests through (logged and counted): the limits protect the service, and a
Redis outage already stops commands on its own.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Literal

import structlog
from fastapi import Request
from fastapi.sse import EventSourceResponse
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter
from starlette.concurrency import run_in_threadpool

from services.api.context import ApiContext
from services.api.keys import PREFIX
from services.api.problems import Problem
from services.api.tokens import TokenProblem
from services.settings import Settings

log = structlog.get_logger("paiju.api.limits")
LimitName = Literal["key", "commands", "reads", "stream_connects", "anonymous"]
Action = Literal["commands", "reads", "stream_connects"]
_KEY_MEMORY_SECONDS = 10.0
"""How long a verified API key is known by its hash here, before it is looked up again (the
route itself checks the key on every request: this only names whose budget to charge)."""


class Counts:
    """Refusals by limit and storage faults, in this process, for a metrics exporter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._refused: Counter[str] = Counter()
        self._storage_faults = 0

    def refused(self, limit: str) -> None:
        with self._lock:
            self._refused[limit] += 1

    def storage_fault(self) -> None:
        with self._lock:
            self._storage_faults += 1

    def snapshot(self) -> dict[str, dict[str, int] | int]:
        """``{"refused": {limit: count}, "storage_faults": count}`` since the process began."""
        with self._lock:
            return {"refused": dict(self._refused), "storage_faults": self._storage_faults}


COUNTS = Counts()
"""The one place refusals are counted (``COUNTS.snapshot()``)."""


@dataclass(frozen=True)
class Caller:
    limit_owner: str
    """Whose budget, in words, for the refusal: ``seat 2 of table 't-1'``."""
    bucket: str
    """The storage key of that budget."""
    kind: Literal["key", "table", "anonymous"]


class RateLimits:
    """The limits of one API process, on the storage the settings name."""

    def __init__(self, settings: Settings) -> None:
        url = settings.rate_limit_storage()
        options: dict[str, float | str | bool] = {}
        if url.startswith(("redis://", "rediss://")):
            options["key_prefix"] = f"{settings.key_prefix}limits"
        self.storage_url = url
        storage = storage_from_string(url, **options)
        chosen = settings.api_rate_limit_strategy
        self.limiter = (
            MovingWindowRateLimiter(storage)
            if chosen == "moving-window"
            else SlidingWindowCounterRateLimiter(storage)
        )
        self.in_memory = url.startswith("memory://")
        self.limits: dict[LimitName, list[RateLimitItem]] = {
            "key": _parsed(settings.api_rate_limit_key),
            "commands": _parsed(settings.api_rate_limit_commands),
            "reads": _parsed(settings.api_rate_limit_reads),
            "stream_connects": _parsed(settings.api_rate_limit_stream_connects),
            "anonymous": _parsed(settings.api_rate_limit_anonymous),
        }
        self._known_keys: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def _first_exhausted(self, name: LimitName, bucket: str) -> RateLimitItem | None:
        """One hit from each item of the limit, in order (the shortest window first), up to
        the first with nothing left, returned (else None). One storage call per item, none
        to test first: a hit on a full moving window spends nothing, and a refusal by a
        later item leaves only the earlier, shorter windows one hit lower (half the calls
        per request: they were 8-12 % of the API's time)."""
        for item in self.limits[name]:
            if not self.limiter.hit(item, name, bucket):
                return item
        return None

    async def take(self, name: LimitName, caller: Caller) -> None:
        """One request of ``caller`` against limit ``name``; a 429 problem when it is used up."""
        if not self.limits[name]:
            return
        try:
            if self.in_memory:
                exhausted = self._first_exhausted(name, caller.bucket)
            else:
                exhausted = await run_in_threadpool(self._first_exhausted, name, caller.bucket)
            if exhausted is None:
                return
            stats = self.limiter.get_window_stats(exhausted, name, caller.bucket)
        except Exception as error:  # the storage is away: let it through, said and counted
            COUNTS.storage_fault()
            log.warning("api.rate_limit_storage_fault", storage=self.storage_url, error=repr(error))
            return
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        COUNTS.refused(name)
        raise Problem(
            429, "Too many requests",
            f"the {name} limit of {caller.limit_owner} ({exhausted}) is used up; retry in {retry} s",
            {"Retry-After": str(retry)}, {"limit": name, "retry_after": retry},
        )  # fmt: skip

    def remember_key(self, raw: str, key_id: str) -> None:
        with self._lock:
            if len(self._known_keys) > 10_000:  # bounded: forget all, look them up again
                self._known_keys.clear()
            self._known_keys[_digest(raw)] = (key_id, time.monotonic() + _KEY_MEMORY_SECONDS)

    def known_key(self, raw: str) -> str | None:
        with self._lock:
            found = self._known_keys.get(_digest(raw))
        return found[0] if found is not None and found[1] > time.monotonic() else None


def _parsed(text: str) -> list[RateLimitItem]:
    return list(parse_many(text)) if text.strip() else []


def _digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogateescape")).hexdigest()


def action_of(request: Request) -> Action:
    route = request.scope.get("route")
    if getattr(route, "response_class", None) is EventSourceResponse:
        return "stream_connects"
    return "reads" if request.method in ("GET", "HEAD", "OPTIONS") else "commands"


def _presented(request: Request, action: Action) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.query_params.get("access_token") if action == "stream_connects" else None


async def caller_of(request: Request, ctx: ApiContext, limits: RateLimits, action: Action) -> Caller:
    """Who asks: checked as the routes check it, so nobody spends another's budget."""
    raw = _presented(request, action)
    address = request.client.host if request.client else "unknown"
    anonymous = Caller(f"address {address}", f"address:{address}", "anonymous")
    if raw is None or len(raw) > 4096:
        return anonymous
    if raw.startswith(PREFIX):
        key_id = limits.known_key(raw)
        if key_id is None:
            key = await run_in_threadpool(ctx.keys.verify, raw)
            if key is None:
                return anonymous
            key_id = key.key_id
            limits.remember_key(raw, key_id)
        return Caller(f"API key {key_id}", f"key:{key_id}", "key")
    try:
        token = ctx.signer.read(raw)
    except TokenProblem:
        return anonymous
    if token.seat is not None:
        return Caller(f"seat {token.seat} of table {token.table_id!r}",
                      f"seat:{token.table_id}:{token.seat}", "table")  # fmt: skip
    return Caller(f"the {token.role} {token.subject!r} of table {token.table_id!r}",
                  f"{token.role}:{token.table_id}:{_digest(token.subject)[:16]}", "table")  # fmt: skip


# Probes and scrapers (Kubernetes, Prometheus) poll these from one address: a 429 would make a
# healthy process look down. They read nothing of a player's and cost one small query at most.
UNLIMITED_PATHS = frozenset({"/metrics", "/healthz", "/readyz"})


async def rate_limited(request: Request) -> None:
    """The dependency on every route: one hit from the limit of this caller and action
    (none for the operations probes, ``UNLIMITED_PATHS``)."""
    if getattr(request.scope.get("route"), "path", None) in UNLIMITED_PATHS:
        return
    limits: RateLimits = request.app.state.rate_limits
    ctx: ApiContext = request.app.state.context
    action = action_of(request)
    caller = await caller_of(request, ctx, limits, action)
    if caller.kind == "key":
        await limits.take("key", caller)
    elif caller.kind == "table":
        await limits.take(action, caller)
    else:
        await limits.take("anonymous", caller)
