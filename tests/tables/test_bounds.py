"""The service checks every id and name once, at its edge: a refusal names the field, nothing is
stored, and no driver error (PostgreSQL's NUL, an encoder's surrogate) ever comes through."""

from __future__ import annotations

import pytest
from games import PLAYERS, opened

from events.store.base import EventStore
from services.rules.table.commands import OpenTable, PassClaim
from services.tables import Accepted, Rejected, TableService

BAD_IDS = {
    "a mebibyte": "x" * (1 << 20),
    "a NUL": "t\x00",
    "a lone surrogate": "t\udc80",
    "a space": "t 1",
}


def refused(outcome: Accepted | Rejected, field: str) -> str:
    assert isinstance(outcome, Rejected), outcome
    assert outcome.reason.startswith(f"{field}: "), outcome.reason
    return outcome.reason


def test_a_ten_mebibyte_player_name_is_refused_and_nothing_is_stored(store: EventStore) -> None:
    players = ("x" * (10 << 20), "bo", "cy", "di")
    reason = refused(
        TableService(store).open_table("t1", "harbin", players, command_id="open"), "players[0]"
    )
    assert "at most 32 characters" in reason and len(reason) < 200
    assert store.read_stream("t1") == []


@pytest.mark.parametrize("name", ["\x00", "di\udc80", "tab\tbed", "   "])
def test_a_name_with_a_nul_a_surrogate_a_control_or_nothing_is_refused(
    store: EventStore, name: str
) -> None:
    players = ("ann", "bo", "cy", name)
    refused(TableService(store).open_table("t1", "harbin", players, command_id="o"), "players[3]")
    assert store.read_stream("t1") == []


def test_a_name_at_the_bound_is_accepted(store: EventStore) -> None:
    players = ("张" * 32, "bo", "cy", "di")
    outcome = TableService(store).open_table("t1", "harbin", players, command_id="open")
    assert isinstance(outcome, Accepted)
    assert store.read_stream("t1")[0].payload["players"][0] == "张" * 32


@pytest.mark.parametrize("bad", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_an_unkeepable_table_id_is_refused_naming_it(store: EventStore, bad: str) -> None:
    outcome = TableService(store).handle(bad, PassClaim(seat=0), command_id="c1")
    refused(outcome, "table_id")
    assert store.read_all() == []


@pytest.mark.parametrize("bad", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_an_unkeepable_command_id_is_refused_naming_it(store: EventStore, bad: str) -> None:
    service = TableService(store)
    opened(service)
    before = store.stream_version("t1")
    refused(service.handle("t1", PassClaim(seat=0), command_id=bad), "command_id")
    assert store.stream_version("t1") == before


def test_an_open_table_for_another_table_is_refused(store: EventStore) -> None:
    command = OpenTable(table_id="B", variant="harbin", players=PLAYERS)
    reason = refused(TableService(store).handle("A", command, command_id="c1"), "table_id")
    assert "'B'" in reason and "'A'" in reason
    assert store.read_stream("A") == [] and store.read_stream("B") == []


def test_an_option_name_past_the_bound_is_refused(store: EventStore) -> None:
    options = {"x" * 1000: True}
    outcome = TableService(store).open_table("t1", "harbin", PLAYERS, 1, options, command_id="o")
    refused(outcome, "options key")
    assert store.read_stream("t1") == []
