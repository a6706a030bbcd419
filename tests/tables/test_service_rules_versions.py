"""规则版本 through the service: a table of a rules version this process lacks is not decided
(not by a command, not by its timer), nothing is recorded for it, and a process that has the
version decides it later under those rules; a replay re-decides under the table's own version.

"Version A" is the engine's (``paiju-rules/1``); "B" the engine's with 上海 rolling four dice.
"""

from __future__ import annotations

import dataclasses
import time

import pytest
from games import PLAYERS
from timer_kit import rush

from events.store import open_store
from services.rules import RULES_VERSION
from services.rules.table.commands import OpenTable, StartHand
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv
from services.tables import TableService
from services.tables.runner import fire_timer, outcome_store, run_command
from services.tables.verify import verify_table
from workers.timekeeper import Timekeeper

SHANGHAI = VARIANTS["shanghai"]
B = rv.ENGINE.derived(
    "paiju-rules/2-test",
    "上海 rolls four dice",
    shanghai=dataclasses.replace(SHANGHAI, config=dataclasses.replace(SHANGHAI.config, dice_count=4)),
)
QUICK_TURN = {"turn": 1, "claim": 1}


def open_under(store_url: str, version: str, table_id: str, timing: dict[str, int] | None = None):
    """Open a 上海 table in a process (a service) that opens new tables under ``version``."""
    service = TableService(open_store(store_url), rules_version=version)
    command = OpenTable(table_id=table_id, variant="shanghai", players=PLAYERS, timing=timing or {})
    assert service.handle(table_id, command, command_id=f"{table_id}/open").events
    return service


def dice_of(store, table_id: str) -> list[int]:
    (deal,) = [e for e in store.read_stream(table_id) if e.type == "hand_started"]
    return list(deal.payload["dice"])


@pytest.fixture(autouse=True)
def both_versions():
    with rv.known_only(rv.ENGINE, B):
        yield


def test_a_command_for_a_table_of_a_version_this_process_lacks_is_raised_and_not_recorded(
    store_url: str,
) -> None:
    open_under(store_url, B.id, "t1")
    with rv.known_only(rv.ENGINE):
        old = TableService(open_store(store_url))
        with pytest.raises(rv.RulesVersionUnavailable, match=B.id):
            run_command(old, "t1", {"command": "start_hand"}, actor=None, command_id="t1/deal")
        assert outcome_store(old.store).load_outcome("t1/deal") is None
        assert old.store.stream_version("t1") == 1
    new = TableService(open_store(store_url))
    outcome = run_command(new, "t1", {"command": "start_hand"}, actor=None, command_id="t1/deal")
    assert outcome.accepted
    assert len(dice_of(new.store, "t1")) == 4


def test_a_process_that_knows_both_versions_decides_each_table_under_its_own(
    store_url: str,
) -> None:
    open_under(store_url, RULES_VERSION, "old")
    open_under(store_url, B.id, "new")
    service = TableService(open_store(store_url))
    for table_id in ("old", "new"):
        assert service.handle(table_id, StartHand(), command_id=f"{table_id}/deal").events
    assert len(dice_of(service.store, "old")) == 2
    assert len(dice_of(service.store, "new")) == 4
    stamps = {t: {e.rules_version for e in service.store.read_stream(t)} for t in ("old", "new")}
    assert stamps == {"old": {RULES_VERSION}, "new": {B.id}}


def test_a_service_cannot_open_tables_under_a_version_it_lacks(store_url: str) -> None:
    with pytest.raises(rv.RulesVersionUnavailable):
        TableService(open_store(store_url), rules_version="paiju-rules/9")


def test_a_timer_of_a_version_this_timekeeper_lacks_is_left_for_one_that_has_it(
    store_url: str,
) -> None:
    service = open_under(store_url, B.id, "t1", QUICK_TURN)
    assert service.handle("t1", StartHand(), command_id="t1/deal").events
    (timer,) = service.store.timers_of("t1")  # type: ignore[attr-defined]
    rush(service.store)
    head = service.store.stream_version("t1")
    with rv.known_only(rv.ENGINE):
        old = TableService(open_store(store_url))
        keeper = Timekeeper(old.store, lambda t: fire_timer(old, t), threads=1, lease=0.01)  # type: ignore[arg-type]
        assert keeper.tick() == 1
        assert (keeper.handed_back, keeper.fired, keeper.failed) == (1, 0, 0)
        assert [t.key for t in old.store.timers_of("t1")] == [timer.key]  # type: ignore[attr-defined]
        assert old.store.stream_version("t1") == head
    new = Timekeeper(service.store, lambda t: fire_timer(service, t), threads=1)  # type: ignore[arg-type]
    for _ in range(50):  # the old one's lease (10 ms) runs out at once; at most 5 s
        if new.tick():
            break
        time.sleep(0.1)
    assert (new.fired, new.handed_back) == (1, 0)
    assert [e.type for e in service.store.read_stream("t1")][head] == "wait_timed_out"


def test_a_replay_of_an_older_versions_table_re_decides_under_that_version(
    store_url: str,
) -> None:
    service = open_under(store_url, RULES_VERSION, "t1")
    assert service.handle("t1", StartHand(), command_id="t1/deal").events
    seed = service.store.load_seed("t1", 1)
    events = service.store.read_stream("t1")
    with rv.known_only(B, rv.ENGINE, current=B.id):  # a newer process, opening under B
        report = verify_table(events, {1: seed})
    assert report.ok, report.lines()
    assert report.rules_version == RULES_VERSION
    assert report.batches_replayed == 2
    # the same stream re-decided under other rules for that version id diverges at the deal
    changed = rv.ENGINE.derived(RULES_VERSION, shanghai=B.variant("shanghai"))
    with rv.known_only(changed):
        diverged = verify_table(events, {1: seed})
    assert diverged.first_divergence is not None and "hand_started" in diverged.first_divergence


def test_a_replay_where_the_tables_version_is_missing_says_so_and_re_decides_nothing(
    store_url: str,
) -> None:
    service = open_under(store_url, B.id, "t1")
    assert service.handle("t1", StartHand(), command_id="t1/deal").events
    events = service.store.read_stream("t1")
    with rv.known_only(rv.ENGINE):
        report = verify_table(events, {1: service.store.load_seed("t1", 1)})
    assert not report.ok
    assert report.batches_replayed == 0
    assert report.rules_unavailable is not None and B.id in report.rules_unavailable
    assert any(line.startswith("NOT RE-DECIDED") for line in report.lines())
