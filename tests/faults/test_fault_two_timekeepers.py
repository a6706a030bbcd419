"""Two ``paiju timekeeper`` processes at once on one store: every timeout fires once.

Twenty tables whose seats never move are dealt with one-second waits, so the timers play
them (a timeout, 超时托管, the seat's later turns in its one-second 托管 window) for as long as
the test runs; two timekeepers claim from the same timer rows (leases of 1 s, so a slow
firing may be claimed by the other). Each timeout's command id is in the streams once.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fault_kit import Part, count_log

from events.store import open_store
from services.rules.table.commands import OpenTable, StartHand
from services.tables import Accepted, TableService

TABLES = 20
SECONDS = 8
QUICK = {"turn": 1, "claim": 1, "autoplay_window": 1, "reconnect_grace": 1}
PLAYERS = ("ann", "bo", "cy", "di")


@pytest.mark.parametrize("store_kind", ["postgresql", "sqlite"])
def test_two_timekeepers_at_once_fire_every_timeout_once(
    store_kind: str, faults_pg_url: str, tmp_path: Path
) -> None:
    store_url = faults_pg_url if store_kind == "postgresql" else f"sqlite:///{tmp_path}/t.sqlite3"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAIJU_")},
           "PAIJU_STORE_URL": store_url, "PAIJU_LOG_FORMAT": "json"}
    store = open_store(store_url)
    service = TableService(store)
    tables = [f"tk2-{uuid.uuid4().hex[:6]}-{n}" for n in range(TABLES)]
    keepers = [Part(f"timekeeper-{n}", ["timekeeper", "--lease", "1"], env, tmp_path)
               for n in range(2)]  # fmt: skip
    for keeper in keepers:
        keeper.start()
    for table_id in tables:
        opened = OpenTable(table_id=table_id, variant="harbin", players=PLAYERS, timing=QUICK)
        assert isinstance(service.handle(table_id, opened, command_id=f"{table_id}/o"), Accepted)
        assert isinstance(service.handle(table_id, StartHand(), command_id=f"{table_id}/d"),
                          Accepted)  # fmt: skip
    time.sleep(SECONDS)
    overdue = [t.key for table_id in tables for t in store.timers_of(table_id)  # type: ignore[attr-defined]
               if (datetime.now(UTC) - t.due_at).total_seconds() > 5]  # fmt: skip
    alive = [keeper.alive() for keeper in keepers]
    for keeper in keepers:
        keeper.stop()
    fired = [_fired(keeper.log_text()) for keeper in keepers]
    timeouts = Counter(
        e.command_id for t in tables for e in store.read_stream(t) if e.type == "wait_timed_out"
    )
    count = count_log(store, tables)
    store.close()
    print(
        f"\ntwo timekeepers ({store_kind}), {TABLES} tables for {SECONDS} s: timers fired"
        f" {fired[0]} and {fired[1]}; timeouts {len(timeouts)}, twice"
        f" {sum(1 for n in timeouts.values() if n > 1)}; overdue {len(overdue)}; events"
        f" {count.events}, doubled command ids {len(count.doubled_command_ids)}"
    )
    assert alive == [True, True]
    assert all(n > 0 for n in fired)  # both took part
    assert len(timeouts) >= 2 * TABLES and set(timeouts.values()) == {1}
    assert overdue == []
    assert count.doubled_command_ids == [] and count.version_gaps == []
    assert count.not_replaying == []


def _fired(log: str) -> int:
    found = re.search(r"stopped; (\d+) timers fired", log)
    assert found, log
    return int(found.group(1))
