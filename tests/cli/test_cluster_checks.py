"""The cluster's end checks find what they look for: a lost acknowledged move, a move recorded
at another version than it was acknowledged at, a timer left overdue; and the figures' and the
profile's arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from events.store import open_store
from services.cluster.checks import count_log, lost_acknowledged, overdue_timers
from services.cluster.faults import Recovery, summary
from services.cluster.load import Figures
from services.cluster.profile import own_time
from services.rules.table.commands import OpenTable, StartHand
from services.tables import Accepted, TableService
from services.tables.command_ids import Sender, client_command_id

PLAYERS = ("ann", "bo", "cy", "di")


PLATFORM = Sender.api_key("0123abcd")


def _dealt(tmp_path: Path, table_id: str = "t-1") -> tuple[object, dict[str, tuple[str, int]]]:
    """A table opened and dealt under the platform's keys "open" and "deal", stored as the API
    stores them: in the platform credential's namespace."""
    store = open_store(f"sqlite:///{tmp_path}/c.sqlite3")
    service = TableService(store)
    opened = service.handle(table_id, OpenTable(table_id=table_id, variant="harbin", players=PLAYERS),
                            command_id=client_command_id(PLATFORM, "open"))  # fmt: skip
    dealt = service.handle(table_id, StartHand(), command_id=client_command_id(PLATFORM, "deal"))
    assert isinstance(opened, Accepted) and isinstance(dealt, Accepted)
    return store, {"open": (table_id, 1), "deal": (table_id, dealt.events[0].version)}


def test_every_acknowledged_move_in_the_store_at_its_version_is_not_lost(tmp_path: Path) -> None:
    store, acknowledged = _dealt(tmp_path)
    assert lost_acknowledged(store, acknowledged) == []  # type: ignore[arg-type]


def test_an_acknowledged_move_missing_from_the_store_is_lost(tmp_path: Path) -> None:
    store, acknowledged = _dealt(tmp_path)
    acknowledged["t-1/v9/s2"] = ("t-1", 9)
    assert lost_acknowledged(store, acknowledged) == ["t-1/v9/s2 (at t-1 v9)"]  # type: ignore[arg-type]


def test_a_move_recorded_at_another_version_than_acknowledged_counts_as_lost(
    tmp_path: Path,
) -> None:
    store, acknowledged = _dealt(tmp_path)
    acknowledged["deal"] = ("t-1", 1)
    assert lost_acknowledged(store, acknowledged) == ["deal (at t-1 v1)"]  # type: ignore[arg-type]


def test_a_dealt_table_replays_and_its_timer_is_overdue_only_past_the_slack(tmp_path: Path) -> None:
    store, _ = _dealt(tmp_path)
    count = count_log(store, ["t-1"])  # type: ignore[arg-type]
    assert (
        count.not_replaying == [] and count.version_gaps == [] and count.doubled_command_ids == []
    )
    (timer,) = store.timers_of("t-1")  # type: ignore[attr-defined]
    due_in = (timer.due_at - datetime.now(UTC)).total_seconds()
    assert due_in > 1  # the first turn's timer, not yet due: not missed
    assert overdue_timers(store, ["t-1"], slack=0) == []  # type: ignore[arg-type]
    # as seen from a clock past its due time by more than the slack: missed
    assert len(overdue_timers(store, ["t-1"], slack=-(due_in + 5))) == 1  # type: ignore[arg-type]


def test_percentiles_of_the_figures_are_nearest_rank() -> None:
    figures = Figures(tables=1, counted=10.0, moves=50, latencies_ms=[float(n) for n in range(1, 101)],
                      cpu={}, hands=0, refused=0)  # fmt: skip
    assert (figures.percentile(50), figures.percentile(99), figures.percentile(100)) == (
        50,
        99,
        100,
    )
    assert figures.per_second == 5.0 and figures.median == 50.5


def test_the_profile_counts_each_leaf_function_once_whatever_its_line() -> None:
    collapsed = "main (a.py:1);send (socket.py:10) 3\nmain (a.py:1);send (socket.py:12) 1\nmain (a.py:2) 4\n"
    assert sorted(own_time(collapsed, 5)) == [("main (a.py)", 0.5), ("send (socket.py)", 0.5)]


def test_a_fault_not_recovered_is_counted_as_failed() -> None:
    rows = summary([Recovery("kill -9 api-0", "api", 1.0, 1.5), Recovery("kill -9 api-1", "api", None, None),
                    Recovery("restart redis", "redis", 0.5, 2.0)])  # fmt: skip
    assert rows[0][:3] == ("api", 2, 1) and rows[1][:3] == ("redis", 1, 0)
    assert (rows[0].moving_median, rows[0].moving_worst) == (1.5, 1.5)
