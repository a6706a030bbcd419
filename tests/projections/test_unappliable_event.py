"""Issue 21, item 4: an event a read model cannot hold stops the projections that meet it, each
alone, saying where and why; the others go on and their reads answer.

The event comes as an operator importing an old table would bring it: written into the store
beside the API, a 上海 table at 底注 10^18 whose leaver's 66 × 底注 is past any 64-bit integer
(today's API refuses such a 底注: ``tests/security/test_bounded_numbers.py``).
"""

from __future__ import annotations

from typing import Any

import pytest
from projection_kit import play_series
from structlog.testing import capture_logs

from events.envelope import NewEvent
from events.store import open_store
from events.store.base import EventStore
from readmodels import catalog, points_queries, queries_boards, queries_tables
from readmodels.db import open_projection_db
from readmodels.operations import status
from readmodels.queries import ReadModelBehind
from readmodels.runner import Projector

STAKE = 10**18
HOLDING_AMOUNTS = {"points", "penalties", "leaderboards", "player_stats"}
UNTOUCHED = {p.name for p in catalog.ALL} - HOLDING_AMOUNTS


def _scaled(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The old table at 底注 10^18: its opening and its penalty as that stake makes them."""
    if event_type == "table_opened":
        return {**payload, "base_stake": STAKE}
    if event_type == "penalty_adjudicated":
        return {**payload, "amounts": [a * STAKE for a in payload["amounts"]]}
    return payload


def import_old_table(store: EventStore, scratch: EventStore, table_id: str) -> int:
    """Copy a 上海 series whose seat 0 left into ``store`` as ``table_id``, at 底注 10^18; the
    position of its penalty (the event no integer column can hold)."""
    play_series(scratch, "old", "shanghai", ("old-a", "old-b", "old-c", "old-d"), hands=0,
                leaver=0)  # fmt: skip
    poison = 0
    for event in scratch.read_stream("old"):
        (copied,) = store.append(table_id, event.version - 1, [NewEvent(
            event.type, _scaled(event.type, event.payload), event.actor, event.rules_version,
            event.schema_version)])  # fmt: skip
        if event.type == "penalty_adjudicated" and not poison:
            poison = copied.position
    assert poison, "the leaver was charged a penalty"
    return poison


def test_an_event_no_read_model_can_hold_stops_only_the_projections_it_reaches(
    url: str, tmp_path: Any
) -> None:
    store, scratch = open_store(url), open_store(f"sqlite:///{tmp_path}/scratch.sqlite3")
    db = open_projection_db(url)
    try:
        play_series(store, "before", "harbin", ("ann", "bo", "cy", "di"), hands=1)
        poison = import_old_table(store, scratch, "old-shanghai")
        play_series(store, "after", "harbin", ("eve", "fu", "gu", "hu"), hands=1, seed=2)
        head = store.last_position()  # type: ignore[attr-defined]
        with capture_logs() as logs:
            projector = Projector(store, db, catalog.ALL, batch=50)
            projector.attach()
            projector.catch_up()
            projector.close()
        builds = {p.name: db.active_build(p.name) for p in catalog.ALL}
        stopped = {name for name, b in builds.items() if b is not None and b.error}
        assert stopped == HOLDING_AMOUNTS
        for name in HOLDING_AMOUNTS:
            build = builds[name]
            assert build is not None and build.position == poison - 1, name
            assert f"position {poison} (penalty_adjudicated of old-shanghai" in (build.error or "")
        for name in UNTOUCHED:  # they went on past it, to the head
            build = builds[name]
            assert build is not None and build.position == head and build.error is None, name
        told = {e["projection"] for e in logs
                if e["event"] == "projection.stopped" and e["log_level"] == "error"}  # fmt: skip
        assert told == HOLDING_AMOUNTS  # the operator is told, one ERROR line each
        lines = {s.name: s.line() for s in status(db, store, catalog.ALL)}
        assert all(lines[name].startswith(f"{name}: stopped") for name in HOLDING_AMOUNTS)
        assert all(f"{name}: live" in lines[name] for name in UNTOUCHED)

        # the others' reads answer, as fresh as the head
        table = queries_tables.live_table(db, "after", min_position=head)
        assert table is not None and table.table_id == "after" and table.hand_number == 1
        assert queries_boards.levels_of(db, "eve", min_position=head)
        # a stopped one says where it stopped, rather than answering what it cannot know
        with pytest.raises(ReadModelBehind, match=f"stopped at position {poison}"):
            points_queries.balance(db, "eve", min_position=head)
    finally:
        db.close()
        scratch.close()
        store.close()
