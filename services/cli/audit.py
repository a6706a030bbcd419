"""The whole-store audit of ``paiju verify`` (and of ``paiju restore`` once it has restored).

Every table of the store is checked by ``services.tables.verify.verify_table`` (hash chain, seed
commitments, each command decided again); every other stream (a room's, a player's account) by
its hash chain. The store is gone through one stream at a time: the list of stream ids is read
page by page from the log (ids only), then each stream is read, checked and let go, so memory
holds one stream, not the store.

A hand still in play has its seed sealed in the store: the audit takes it from there, so that
the hand's deal is checked and decided again too (as ``paiju replay`` does for operators).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from events.envelope import RecordedEvent
from events.hashchain import find_break
from events.store.base import CorruptRowError, EventStore, SeedError
from services.tables.loader import revealed_seeds
from services.tables.verify import verify_table

PAGE = 1000


@dataclass(frozen=True)
class Failure:
    stream_id: str
    kind: str  # "table" or "stream"
    what: str

    def line(self) -> str:
        return f"FAILED {self.kind} {self.stream_id}: {self.what}"


@dataclass
class Audit:
    tables: int = 0
    other_streams: int = 0
    events: int = 0
    hands_in_play: int = 0
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        verdict = "all verified" if self.ok else f"{len(self.failures)} failed"
        return (
            f"{self.tables} tables, {self.other_streams} other streams, {self.events} events: "
            f"{verdict}"
        )


def stream_ids(store: EventStore) -> list[str]:
    """Every stream of the store, in the order each was first written (ids only)."""
    seen: dict[str, None] = {}
    position = 0
    while page := store.read_all(from_position=position, limit=PAGE):
        for event in page:
            seen.setdefault(event.stream_id, None)
        position = page[-1].position + 1
    return list(seen)


def audit_store(store: EventStore, on_failure: Callable[[Failure], None] | None = None) -> Audit:
    """Check every stream; ``on_failure`` hears each failure as it is found."""
    audit = Audit()
    for stream_id in stream_ids(store):
        failure = _check_stream(store, stream_id, audit)
        if failure is not None:
            audit.failures.append(failure)
            if on_failure is not None:
                on_failure(failure)
    return audit


def _check_stream(store: EventStore, stream_id: str, audit: Audit) -> Failure | None:
    try:
        events = store.read_stream(stream_id)
    except CorruptRowError as error:  # a row that is no event: the table cannot even be read
        audit.tables += 1
        return Failure(stream_id, "table", str(error))
    audit.events += len(events)
    if not events or events[0].type != "table_opened":
        audit.other_streams += 1
        broken = find_break(events)
        return None if broken is None else Failure(stream_id, "stream", f"hash chain: {broken}")
    audit.tables += 1
    sealed = _sealed_seeds(store, stream_id, events)
    audit.hands_in_play += len(sealed)
    report = verify_table(events, sealed)
    if report.ok:
        return None
    problems = [line for line in report.lines() if _is_problem(line)]
    return Failure(stream_id, "table", "; ".join(problems) or "; ".join(report.lines()))


def _is_problem(line: str) -> bool:
    return any(mark in line for mark in ("BROKEN", "UNREADABLE", "NOT RE-DECIDED", "DIVERGES")) or (
        line.startswith("seeds:") and "all match" not in line
    )


def _sealed_seeds(store: EventStore, stream_id: str, events: list[RecordedEvent]) -> dict[int, str]:
    """The store's sealed seeds of the hands this table has dealt and not revealed."""
    revealed = revealed_seeds(events)
    dealt = {e.payload.get("hand_number") for e in events if e.type == "hand_started"} - set(
        revealed
    )
    sealed: dict[int, str] = {}
    for hand in sorted(h for h in dealt if isinstance(h, int)):
        try:
            sealed[hand] = store.load_seed(stream_id, hand)
        except SeedError:  # never sealed here (an imported table): left unrevealed
            continue
    return sealed
