"""The cluster's bots in processes of their own (``paiju cluster --bot-processes N``): each plays
its share of the tables over HTTP, and the harness adds their news up into one tally, with the
times the figures need, while the bots' CPU is counted in their own processes."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from embedded_kit import embedded_service

from events.store import open_store
from services.cluster.bot_procs import BotProcesses, shares
from services.cluster.procs import cpu_seconds
from services.demo.http_demo import Plan
from services.serve import Embedded


def test_the_tables_are_shared_out_with_rooms_and_players_of_each_process_own() -> None:
    plan = Plan(tables=7, prefix="cl", run="ab")
    parts = shares(plan, 3)
    assert [p.tables for p in parts] == [3, 2, 2]
    assert len({p.room(0).room for p in parts}) == 3 and len({p.players(0) for p in parts}) == 3
    assert [p.tables for p in shares(Plan(tables=2), 4)] == [1, 1]  # no process without a table


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Embedded]:
    with embedded_service(tmp_path, "bots") as embedded:
        yield embedded


def test_bots_in_two_processes_play_their_tables_and_the_harness_adds_up_their_news(
    service: Embedded,
) -> None:
    assert service.api is not None
    key = service.api.ctx.keys.create(["tables", "tokens"], "the bots' test").token
    plan = Plan(tables=2, prefix="bp", timing={"turn": 60, "claim": 30}, pace=0.0, idle_seat=None,
                measure=True)  # fmt: skip
    bots = BotProcesses([service.api.address], key, plan, processes=2)
    stop = threading.Event()
    playing = threading.Thread(target=bots.run, args=(stop,))
    playing.start()
    try:
        deadline = time.monotonic() + 120
        while (len(bots.tables) < 2 or bots.tally.accepted < 40) and time.monotonic() < deadline:
            assert playing.is_alive(), bots.failure
            time.sleep(0.2)
        pids = bots.pids
        assert len(pids) == 2 and all(cpu_seconds(pid) > 0 for pid in pids)  # theirs, not ours
    finally:
        stop.set()
        playing.join(120)
    tally = bots.tally
    assert len(bots.tables) == 2 and tally.accepted >= 40, (bots.tables, tally.accepted)
    assert len(tally.accepted_at) == tally.accepted == sum(map(len, tally.by_api.values()))
    assert tally.acknowledged and tally.posted_at and tally.seen_at
    store = open_store(service.settings.store_url)
    try:  # every move a bot process was told was accepted is in its table's stream
        for command_id, (table_id, first) in tally.acknowledged.items():
            assert store.read_event(table_id, first).command_id.endswith(command_id)  # type: ignore[union-attr]
    finally:
        store.close()


def test_the_cluster_plays_its_bots_in_one_process_per_25_tables_unless_told() -> None:
    from services.cli.cluster_cmd import bot_processes

    assert [bot_processes(None, n) for n in (1, 25, 26, 100, 200, 1000)] == [1, 1, 2, 4, 8, 32]
    assert bot_processes(0, 200) == 0 and bot_processes(3, 200) == 3  # as asked
