"""Tables over several stores: each table's events, seeds, snapshots, requests and outcomes in
its own partition's store, the command path unchanged, the home store keeping where."""

from __future__ import annotations

import sys
from pathlib import Path

from partition_kit import Deploy

from events.outcomes import CommandOutcome, CommandRequest, receipt_of
from services.tables import Accepted, Rejected
from services.tables.command_ids import Sender, client_command_id
from services.tables.partitions import merged_position, partition_for, split_position
from services.tables.routed_store import RoutedStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tables"))
from games import PLAYERS, Bots, opened  # noqa: E402


def tables_in(partition: int, count: int, of: tuple[int, ...] = (1, 2)) -> list[str]:
    """Table ids a new table of which goes to ``partition``."""
    found = (f"table-{n}" for n in range(10_000) if partition_for(f"table-{n}", of) == partition)
    return [next(found) for _ in range(count)]


def test_each_table_plays_in_its_own_partition_and_the_home_store_keeps_where(
    deploy: Deploy,
) -> None:
    parts = deploy(2)
    service, partitions = parts.table_service(), parts.partitions()
    tables = {1: tables_in(1, 2), 2: tables_in(2, 2)}
    for table in [*tables[1], *tables[2]]:
        Bots(service, table).play_hand(opened(service, table))
    for number, ids in tables.items():
        other = partitions.tables[3 - number]
        for table in ids:
            assert partitions.placed(table) == number
            assert partitions.home.placement_of(table) == number  # type: ignore[attr-defined]
            assert len(partitions.tables[number].read_stream(table)) > 10
            assert other.read_stream(table) == [] and partitions.home.read_stream(table) == []
    assert partitions.home.read_all() == []  # the home store holds no table's events
    assert partitions.home.placements() == {1: 2, 2: 2}  # type: ignore[attr-defined]


def test_a_table_read_back_through_the_command_path_carries_merged_positions(
    deploy: Deploy,
) -> None:
    parts = deploy(2)
    service, store = parts.table_service(), parts.store()
    (table,) = tables_in(2, 1)
    opened(service, table)
    own = parts.partitions().tables[2].read_stream(table)
    merged = store.read_stream(table)
    assert [e.position for e in merged] == [merged_position(2, e.position) for e in own]
    assert [e.hash for e in merged] == [e.hash for e in own]  # a position is no part of the hash
    assert split_position(merged[-1].position) == (2, own[-1].position)


def test_a_replayed_table_of_a_partition_is_the_live_table(deploy: Deploy) -> None:
    parts = deploy(2)
    service = parts.table_service()
    (table,) = tables_in(1, 1)
    live = Bots(service, table).play_hand(opened(service, table))
    again = type(service)(parts.store(), snapshot_key=b"k" * 32).load(table)  # folded afresh
    assert again == live


def test_a_platform_key_reused_for_a_table_in_another_partition_is_told_apart(
    deploy: Deploy,
) -> None:
    parts = deploy(2)
    store = parts.store()
    assert isinstance(store, RoutedStore)
    command_id = client_command_id(Sender.api_key("0123456789abcdef"), "open-42")
    (first_table,), (other_table,) = tables_in(1, 1), tables_in(2, 1)
    first = store.claim_request(CommandRequest(command_id=command_id, table_id=first_table,
                                               fingerprint="open first", body="{}"))  # fmt: skip
    again = store.claim_request(CommandRequest(command_id=command_id, table_id=other_table,
                                               fingerprint="open other", body="{}"))  # fmt: skip
    assert first.first and not again.first
    assert again.request.fingerprint == "open first"  # the API answers: a key used already
    retry = store.claim_request(CommandRequest(command_id=command_id, table_id=first_table,
                                               fingerprint="open first", body="{}"))  # fmt: skip
    assert not retry.first and retry.request.fingerprint == "open first"
    assert parts.partitions().tables[2].find_request(command_id) is None  # type: ignore[attr-defined]


def test_a_table_may_not_take_the_name_of_a_players_or_a_rooms_stream(deploy: Deploy) -> None:
    service = deploy(2).table_service()
    for table in ("player:ann", "room:east"):
        refused = service.open_table(table, "harbin", PLAYERS, command_id=f"open-{table}")
        assert isinstance(refused, Rejected), refused
        assert "may not begin with" in refused.reason


def test_a_command_sent_twice_to_a_partitioned_table_is_answered_with_its_first_result(
    deploy: Deploy,
) -> None:
    parts = deploy(2)
    service = parts.table_service()
    (table,) = tables_in(2, 1)
    state = opened(service, table)
    bots = Bots(service, table)
    command = bots.next_command(state)
    first = service.handle(table, command, command_id="same-id")
    again = service.handle(table, command, command_id="same-id")
    assert isinstance(first, Accepted) and isinstance(again, Accepted)
    assert [e.event_id for e in again.events] == [e.event_id for e in first.events]


def test_an_outcome_recorded_apart_from_its_events_names_merged_positions_once(
    deploy: Deploy,
) -> None:
    parts = deploy(2)
    service, store = parts.table_service(), parts.store()
    (table,) = tables_in(2, 1)
    state = opened(service, table)
    done = service.handle(table, Bots(service, table).next_command(state), command_id="apart")
    assert isinstance(done, Accepted)
    outcome = receipt_of(CommandOutcome(command_id="apart-2", table_id=table, status="accepted",
                                        actor_kind="system"), done.events)  # fmt: skip
    recorded = store.record_outcome(outcome)  # type: ignore[attr-defined]
    assert (
        recorded.last_position
        == done.events[-1].position
        == store.load_outcome("apart-2").last_position
    )  # type: ignore[attr-defined]
    own = parts.partitions().tables[2].load_outcome("apart-2")  # type: ignore[attr-defined]
    assert own.last_position == split_position(done.events[-1].position)[1]
