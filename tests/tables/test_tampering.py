"""Tampering with a stored table is named, never a traceback; and the heads each seat was given
tell a cut tail or a chain rewritten from its start, which the chain alone cannot."""

from __future__ import annotations

import io
import json

import pytest
from games import Bots, execute, opened

from events.envelope import RecordedEvent
from events.hashchain import GENESIS_HASH, Head, event_hash
from events.store.base import EventStore
from services.cli.log_cmd import replay_main
from services.cli.main import build_parser
from services.rules.table.commands import StartHand
from services.tables import TableService
from services.tables.verify import Verification, verify_table


def two_hands(store: EventStore) -> list[Head]:
    """Two hands of 哈尔滨 on ``t1``; the heads seat 0 was given as each one settled."""
    service = TableService(store)
    bots = Bots(service)
    state = bots.play_hand(opened(service))
    bots.play(state, StartHand())
    bots.play_hand(service.load("t1"))
    page = service.stream_for("t1", 0)
    heads = [Head(e["anchor"]["hash"], e["anchor"]["version"]) for e in page if "anchor" in e]
    assert len(heads) == 2
    return heads


def replay(store_url: str, *extra: str) -> tuple[int, str]:
    out = io.StringIO()
    args = build_parser().parse_args(["replay", "t1", "--store", store_url, *extra])
    return replay_main(args, out), out.getvalue()


def named(report: Verification, version: int) -> None:
    assert not report.ok
    problems = [report.chain_break, report.unreadable, report.first_divergence]
    assert any(p and f"version {version}" in p for p in problems), report.lines()


def first_of(store: EventStore, kind: str, seat: int | None = None) -> RecordedEvent:
    return next(
        e
        for e in store.read_stream("t1")
        if e.type == kind and (seat is None or e.payload.get("seat") == seat)
    )


def test_a_flipped_seat_digit_is_named_by_its_version(store: EventStore, store_url: str) -> None:
    two_hands(store)
    victim = first_of(store, "tile_discarded", seat=1)
    payload = json.dumps({**victim.payload, "seat": 7})
    execute(store_url, "UPDATE events SET payload = %s WHERE version = %s", (payload, victim.version))
    report = verify_table(store.read_stream("t1"))
    named(report, victim.version)
    assert report.unreadable is not None and f"version {victim.version}" in report.unreadable
    status, out = replay(store_url)
    assert status == 1 and f"version {victim.version}" in out


def test_two_distant_events_swapped_are_named(store: EventStore, store_url: str) -> None:
    two_hands(store)
    early, late = 5, store.stream_version("t1") - 5
    execute(store_url, "UPDATE events SET version = 100000 WHERE stream_id = 't1' AND version = %s", (early,))
    execute(store_url, "UPDATE events SET version = %s WHERE stream_id = 't1' AND version = %s", (early, late))
    execute(store_url, "UPDATE events SET version = %s WHERE stream_id = 't1' AND version = 100000", (late,))
    named(verify_table(store.read_stream("t1")), early)
    status, out = replay(store_url)
    assert status == 1 and "reordered" in out


def test_an_extra_key_in_a_recorded_command_is_named(store: EventStore, store_url: str) -> None:
    two_hands(store)
    victim = first_of(store, "tile_discarded")
    assert victim.command is not None
    command = json.dumps({**victim.command, "sneaked_in": 1})
    execute(store_url, "UPDATE events SET command = %s WHERE version = %s", (command, victim.version))
    report = verify_table(store.read_stream("t1"))
    named(report, victim.version)
    assert report.first_divergence is not None and "sneaked_in" in report.first_divergence
    status, _ = replay(store_url)
    assert status == 1


def test_a_cut_tail_goes_unseen_by_the_chain_and_is_told_by_the_published_head(
    store: EventStore, store_url: str
) -> None:
    heads = two_hands(store)
    last = store.read_stream("t1")[-1]
    execute(store_url, "DELETE FROM events WHERE command_id = %s", (last.command_id,))
    cut = store.read_stream("t1")
    assert verify_table(cut).chain_break is None  # what a hash chain alone cannot tell
    report = verify_table(cut, head=heads[-1])
    assert report.chain_break is not None and "truncated" in report.chain_break
    assert verify_table(cut, head=heads[0]).chain_break is None  # the first hand is whole
    status, out = replay(store_url, "--head", f"{heads[-1].version}:{heads[-1].hash}")
    assert status == 1 and "truncated" in out
    assert replay(store_url, "--head", heads[0].hash)[0] == 0


def test_a_chain_rewritten_from_its_start_is_told_by_every_published_head(
    store: EventStore, store_url: str
) -> None:
    heads = two_hands(store)
    rewrite_players(store, store_url, ("mallory", "bo", "cy", "di"))
    rewritten = store.read_stream("t1")
    assert rewritten[0].payload["players"][0] == "mallory"
    assert verify_table(rewritten).ok  # re-hashed throughout: the chain holds together
    for head in heads:
        report = verify_table(rewritten, head=head)
        assert report.chain_break is not None and "rewritten" in report.chain_break
    status, out = replay(store_url, "--head", heads[0].hash)
    assert status == 1 and "rewritten" in out


def test_a_malformed_head_is_refused_before_the_store_is_opened(store_url: str) -> None:
    args = build_parser().parse_args(["replay", "t1", "--store", store_url, "--head", "12:xyz"])
    assert replay_main(args, io.StringIO()) == 2


def rewrite_players(store: EventStore, store_url: str, players: tuple[str, ...]) -> None:
    """Rename the players and re-hash every event, as someone rewriting the database would."""
    prev = GENESIS_HASH
    for e in store.read_stream("t1"):
        payload = {**e.payload, "players": list(players)} if e.type == "table_opened" else e.payload
        command = e.command
        if command is not None and command.get("command") == "open_table":
            command = {**command, "players": list(players)}
        digest = event_hash(
            stream_id=e.stream_id, version=e.version, event_id=e.event_id, type=e.type,
            schema_version=e.schema_version, payload=payload, recorded_at=e.recorded_at,
            actor=e.actor, command_id=e.command_id, command=command,
            rules_version=e.rules_version, prev_hash=prev,
        )
        execute(
            store_url,
            "UPDATE events SET payload = %s, command = %s, prev_hash = %s, hash = %s"
            " WHERE stream_id = 't1' AND version = %s",
            (json.dumps(payload), None if command is None else json.dumps(command), prev,
             digest, e.version),
        )
        prev = digest


@pytest.mark.parametrize("column", ["payload", "command"])
def test_a_row_that_is_not_json_is_named_by_replay(tmp_path: object, column: str) -> None:
    url = f"sqlite:///{tmp_path}/corrupt.sqlite3"
    from events.store import open_store

    store = open_store(url)
    try:
        service = TableService(store)
        opened(service)
    finally:
        store.close()
    execute(url, f"UPDATE events SET {column} = '{{oops' WHERE version = 2")
    status, _ = replay(url)
    assert status == 1


def test_an_event_renamed_to_an_unknown_type_is_named(store: EventStore, store_url: str) -> None:
    two_hands(store)
    victim = first_of(store, "tile_discarded")
    execute(store_url, "UPDATE events SET type = 'tile_vanished' WHERE version = %s", (victim.version,))
    report = verify_table(store.read_stream("t1"))
    named(report, victim.version)
    assert report.unreadable is not None and "tile_vanished" in report.unreadable
    status, out = replay(store_url)
    assert status == 1 and f"version {victim.version}" in out


def test_a_reveal_that_cannot_be_read_is_named(store: EventStore, store_url: str) -> None:
    two_hands(store)
    victim = first_of(store, "seed_revealed")
    payload = json.dumps({**victim.payload, "hand_number": "first"})
    execute(store_url, "UPDATE events SET payload = %s WHERE version = %s", (payload, victim.version))
    named(verify_table(store.read_stream("t1")), victim.version)
    status, out = replay(store_url)
    assert status == 1 and f"version {victim.version}" in out
