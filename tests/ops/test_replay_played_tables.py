"""Frames of tables the bots played from sealed seeds, with seats away (托管): every hand folds,
every seed is checked against its commitment, and who acted is told apart from the table's own
steps."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from events.envelope import RecordedEvent
from events.store import open_store
from services.cli.simulate_store import run_variant_on_store
from services.tables.frames import hand_frames, hands_of
from services.tables.verify import verify_table

HANDS = 3


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[RecordedEvent]:
    url = f"sqlite:///{tmp_path_factory.mktemp('played') / 'store.sqlite3'}"
    with closing(open_store(url)) as store:
        run = run_variant_on_store("mudanjiang", HANDS, "replay-tests", "winning", store, url, away=0.5)
        assert run.failure is None and run.table_id is not None, run.failure
        return store.read_stream(run.table_id)


@pytest.fixture(scope="module")
def frames(played: list[RecordedEvent]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for hand in hands_of(played):
        replay = hand_frames(played, hand["hand"])
        assert replay.stopped is None, replay.stopped
        assert [f["version"] for f in replay.frames][0] == hand["from_version"]
        assert replay.frames[-1]["version"] == hand["to_version"]
        found += replay.frames
    return found


def test_every_hand_dealt_from_a_sealed_seed_folds_whole_and_its_seed_matches(
    played: list[RecordedEvent], frames: list[dict[str, Any]]
) -> None:
    report = verify_table(played)
    assert report.ok and report.seeds_checked == HANDS
    assert len(frames) == sum(h["to_version"] - h["from_version"] + 1 for h in hands_of(played))


def test_a_move_the_system_made_for_an_away_seat_says_tuoguan_for_that_seat(
    frames: list[dict[str, Any]],
) -> None:
    moves = [f for f in frames if f["actor"]["autoplay_seat"] is not None
             and f["type"] == "tile_discarded" and not f["payload"]["automatic"]]  # fmt: skip
    assert moves, "the bots left no seat away"
    thrown = [f for f in frames if f["type"] == "tile_discarded" and f["payload"]["automatic"]]
    assert all(f["actor"]["label"].endswith("(thrown automatically: last draws)") for f in thrown)
    for move in moves:
        seat = move["payload"]["seat"]
        assert move["actor"]["autoplay_seat"] == seat
        assert move["actor"]["label"].startswith(f"托管 for {move['table']['seats'][seat]['player']} (seat {seat})")


def test_the_tables_own_steps_say_whose_command_they_follow(frames: list[dict[str, Any]]) -> None:
    draws = [f for f in frames if f["type"] == "tile_drawn" and f["command"]
             and f["command"].get("seat") not in (None, f["payload"]["seat"])]  # fmt: skip
    assert draws
    assert all(f["actor"]["label"].startswith("the table, after ") for f in draws)


def test_the_claim_taken_on_every_window_is_the_one_the_table_recorded(frames: list[dict[str, Any]]) -> None:
    closed = [f for f in frames if f["closed"]]
    assert closed
    for frame in closed:
        taken = frame["closed"]["taken"]
        if frame["type"] == "tile_claimed":
            assert [t["seat"] for t in taken] == [frame["payload"]["seat"]]
        elif frame["type"] == "hand_won":
            assert [t["seat"] for t in taken] == [w["seat"] for w in frame["payload"]["wins"]]
        else:
            assert taken == [] and frame["closed"]["why"].startswith("every seat asked passed")


def test_frames_are_the_same_read_twice(played: list[RecordedEvent], tmp_path: Path) -> None:
    assert hand_frames(played, 2).to_dict() == hand_frames(played, 2).to_dict()


@pytest.mark.parametrize("variant", ["harbin", "shandong", "shanghai", "tanggu"])
def test_a_hand_of_every_variant_folds_and_its_wins_name_each_patterns_rule(
    variant: str, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    with closing(open_store(url)) as store:
        run = run_variant_on_store(variant, 2, "replay-variants", "winning", store, url)
        assert run.failure is None and run.table_id is not None, run.failure
        played = store.read_stream(run.table_id)
    for hand in hands_of(played):
        replay = hand_frames(played, hand["hand"])
        assert replay.stopped is None, replay.stopped
        assert replay.frames[-1]["table"]["seats"], "every frame of a hand shows its seats"
        for frame in replay.frames:
            for win in (frame["settlement"] or {}).get("wins", []):
                assert sum(win["payments"]) == 0  # a 上海 win may hold no named pattern
                assert all(p["rule"].startswith(p["name"] + ":") and p["worth"] is not None
                           for p in win["patterns"])  # fmt: skip
    if variant == "tanggu":
        assert replay.frames[-1]["table"]["indicator"] and replay.frames[-1]["table"]["wildcards"]


def test_a_hand_whose_seed_is_still_sealed_stops_at_its_deal_and_says_so(
    played: list[RecordedEvent],
) -> None:
    """Without the stream's reveal (nor a seed brought to the dispute), the deal cannot be
    dealt again: the frames stop there, naming the hand."""
    unrevealed = [e for e in played if e.type != "seed_revealed"]
    replay = hand_frames(unrevealed, 1)
    deal = next(e for e in unrevealed if e.type == "hand_started")
    assert replay.stopped == (f"version {deal.version} (hand_started): hand 1's seed is sealed"
                              " and was not given")  # fmt: skip
