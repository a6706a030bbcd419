"""What a cluster run must end with, read back from the store: every acknowledged command at
the version it was acknowledged at, no command's events twice, no version gap, every table
replaying and verifying, and no turn timer left overdue while timekeepers ran.

The fault tests count with the same functions (``tests/faults/fault_kit.py``)."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from events.store.base import EventStore
from services.tables.command_ids import client_key
from services.tables.verify import verify_table


@dataclass
class LogCount:
    """What the store holds, counted: the assertions of every fault test."""

    tables: int = 0
    events: int = 0
    doubled_command_ids: list[str] = field(default_factory=list)
    version_gaps: list[str] = field(default_factory=list)
    not_replaying: list[str] = field(default_factory=list)
    batches_replayed: int = 0  # batches ``verify_table`` decided again and found the same
    command_ids: set[str] = field(default_factory=set)
    by_type: Counter[str] = field(default_factory=Counter)


def count_log(store: EventStore, table_ids: list[str]) -> LogCount:
    """Each table's stream read back: a command id's events in one batch only (a second run of
    a command appends nothing), versions 1..n with no gap, and the stream replays
    (``verify_table``: hash chain, seeds, every batch re-decided)."""
    count = LogCount(tables=len(table_ids))
    for table_id in table_ids:
        events = store.read_stream(table_id)
        count.events += len(events)
        count.by_type.update(e.type for e in events)
        if [e.version for e in events] != list(range(1, len(events) + 1)):
            count.version_gaps.append(table_id)
        batches: list[str] = []
        for event in events:
            if event.command_id is not None and (not batches or batches[-1] != event.command_id):
                batches.append(event.command_id)
        count.command_ids.update(batches)
        count.doubled_command_ids += [c for c, n in Counter(batches).items() if n > 1]
        report = verify_table(events, sealed=sealed_seeds(store, table_id, events))
        count.batches_replayed += report.batches_replayed
        if not report.ok:
            count.not_replaying.append(f"{table_id}: {report.lines()}")
    return count


def sealed_seeds(store: EventStore, table_id: str, events: list[object]) -> dict[int, str]:
    """The seed of a hand still in play (not revealed yet), so its batches replay too."""
    hands = sum(1 for e in events if getattr(e, "type", "") == "hand_started")
    seeds = {}
    for hand in range(1, hands + 1):
        with contextlib.suppress(Exception):  # revealed ones come from the stream itself
            seeds[hand] = store.load_seed(table_id, hand)
    return seeds


def lost_acknowledged(store: EventStore, acknowledged: Mapping[str, tuple[str, int]]) -> list[str]:
    """The acknowledged command ids (id -> table, first version) whose events are not in the
    store at that version: a move a player was told was taken, and that was lost. The ids
    are the clients' Idempotency-Keys; the store holds them in their senders' namespaces."""
    found: dict[str, dict[str, int]] = {}
    for table_id in {table for table, _ in acknowledged.values()}:
        firsts: dict[str, int] = {}
        for event in store.read_stream(table_id):
            key = client_key(event.command_id) if event.command_id is not None else None
            if key is not None:
                firsts.setdefault(key, event.version)
        found[table_id] = firsts
    return sorted(
        f"{command_id} (at {table_id} v{version})"
        for command_id, (table_id, version) in acknowledged.items()
        if found[table_id].get(command_id) != version
    )


def overdue_timers(store: EventStore, table_ids: Iterable[str], slack: float) -> list[str]:
    """Timers due more than ``slack`` seconds ago and still not fired: a timeout missed."""
    now = datetime.now(UTC)
    return [
        f"{table_id}: {timer.key} due {timer.due_at.isoformat()}"
        for table_id in table_ids
        for timer in store.timers_of(table_id)  # type: ignore[attr-defined]
        if (now - timer.due_at).total_seconds() > slack
    ]
