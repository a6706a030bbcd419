"""Penalties for support: every adjudicated 逃跑处罚 with its rule, seat, player, cause, amounts,
table, hand, position and time; found by player (charged, or also compensated) and by table."""

from __future__ import annotations

from boards_kit import NOON, given, hand, opened, project
from projection_kit import play_series, rows_of

from events.store import open_store
from readmodels.penalties import Penalties
from readmodels.queries_boards import penalties_at_table, penalties_of_player
from services.rules.events.presence import PenaltyAdjudicated

PLAYERS = ("ann", "bo", "cy", "di")


def penalty(seat: int, amounts: tuple[int, int, int, int]) -> PenaltyAdjudicated:
    return PenaltyAdjudicated(seat=seat, cause="dropped", rule="003 断线超过3分钟", amounts=amounts)


def test_a_shanghai_escape_is_kept_with_its_rule_and_the_compensation_to_each_other_seat(
    url: str,
) -> None:
    store = open_store(url)
    play_series(store, "t1", "shanghai", PLAYERS, hands=1, leaver=3)
    (event,) = [e for e in store.read_stream("t1") if e.type == "penalty_adjudicated"]
    db = project(url, Penalties())
    (row,) = rows_of(db, Penalties(), "penalties")
    assert row == {
        "position": event.position, "table_id": "t1", "version": event.version,
        "variant": "shanghai", "room": "", "hand_number": 2, "seat": 3, "player": "di",
        "cause": "left", "rule": event.payload["rule"], "charged": -66,
        "amounts": [20, 20, 20, -66],
        "players": list(PLAYERS), "recorded_at": event.recorded_at.isoformat(),
    }  # fmt: skip
    assert "主动逃跑" in row["rule"]
    parties = rows_of(db, Penalties(), "penalty_parties")
    assert [(p["player"], p["amount"], p["penalized"]) for p in parties] == [
        ("ann", 20, 0), ("bo", 20, 0), ("cy", 20, 0), ("di", -66, 1)]  # fmt: skip


def test_a_shandong_escape_charges_the_leaver_alone(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "shandong", PLAYERS, hands=0, leaver=0)
    db = project(url, Penalties())
    (row,) = rows_of(db, Penalties(), "penalties")
    assert (row["player"], row["hand_number"], row["amounts"][1:]) == ("ann", 1, [0, 0, 0])
    assert row["charged"] <= -50 and row["charged"] % 10 == 0  # (底 5 + 花) × 10
    assert [(p["player"], p["penalized"]) for p in rows_of(db, Penalties(), "penalty_parties")] == [
        ("ann", 1)]  # fmt: skip


def test_mudanjiang_and_harbin_keep_no_penalty_for_a_leaver(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "mudanjiang", PLAYERS, hands=0, leaver=1)
    play_series(store, "t2", "harbin", PLAYERS, hands=0, leaver=2)
    assert rows_of(project(url, Penalties()), Penalties(), "penalties") == []


def test_support_finds_a_players_penalties_newest_first_and_a_tables_in_order(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "shanghai", PLAYERS), hand(), penalty(1, (20, -60, 20, 20)),
          hand(2), penalty(2, (20, 20, -60, 20)), extra={"room": "silver"})  # fmt: skip
    given(store, "t2", opened("t2", "shanghai", ("bo", "eve", "fay", "gus")), hand(),
          penalty(0, (-60, 20, 20, 20)))  # fmt: skip
    db = project(url, Penalties())
    charged = penalties_of_player(db, "bo")
    assert [(r.table_id, r.hand_number) for r in charged.items] == [("t2", 1), ("t1", 1)]
    assert (
        charged.items[1].room == "silver" and charged.items[0].recorded_at == NOON.isoformat()
    )
    involved = penalties_of_player(db, "bo", involved=True)
    assert [(r.table_id, r.seat) for r in involved.items] == [("t2", 0), ("t1", 2), ("t1", 1)]
    assert penalties_of_player(db, "ann").items == []
    assert len(penalties_of_player(db, "ann", involved=True).items) == 2
    at_t1 = penalties_at_table(db, "t1", page=1, page_size=1)
    assert (at_t1.more, [r.player for r in at_t1.items]) == (True, ["bo"])
    last = penalties_at_table(db, "t1", page=2, page_size=1)
    assert (last.more, [r.player for r in last.items]) == (False, ["cy"])
