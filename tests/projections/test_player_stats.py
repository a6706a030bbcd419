"""Player statistics: given a table's events, each counter of each player and variant."""

from __future__ import annotations

import pytest
from given_kit import Table, caught_up, win
from projection_kit import play_series

from events.store import open_store
from readmodels.queries import QueryError
from readmodels.queries_stats import player_stats, variant_stats
from readmodels.stats import PlayerStats
from services.rules.events.hand import HandDrawn, HandWon
from services.rules.events.presence import (
    PenaltyAdjudicated,
    SeatAutoplayed,
    SeatLeft,
    TableDissolved,
    WaitTimedOut,
)


def stats_of(url: str, store: object, player: str) -> dict[str, dict[str, object]]:
    db = caught_up(store, url, PlayerStats())  # type: ignore[arg-type]
    return {r.variant: r.model_dump() for r in player_stats(db, player).items}


def test_a_won_hand_counts_hands_wins_zimo_fan_and_points(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin")
    t.dealt(1)
    t.given(HandWon(wins=(win(2, 4, (-4, -4, 12, -4)),)))
    t.settled((-4, -4, 12, -4))
    t.dealt(2)
    t.given(HandWon(wins=(win(2, 2, (0, -2, 2, 0), discarder=1),)))
    t.settled((0, -2, 2, 0))
    cy, bo = stats_of(url, store, "cy")["harbin"], stats_of(url, store, "bo")["harbin"]
    assert (cy["hands"], cy["wins"], cy["self_drawn_wins"], cy["dealt_in"]) == (2, 2, 1, 0)
    assert (cy["average_fan"], cy["best_fan"]) == (3, 4)
    assert (cy["average_points"], cy["best_points"]) == (7, 12)
    assert (bo["hands"], bo["wins"], bo["dealt_in"]) == (2, 0, 1)
    assert bo["best_fan"] is None and bo["average_points"] is None  # no win yet


def test_one_discard_two_winners_counts_both_wins_and_one_dealt_in(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("shandong")
    t.dealt(1)
    t.given(HandWon(wins=(win(1, 2, (-10, 10, 0, 0), discarder=0),
                          win(3, 3, (-15, 0, 0, 15), discarder=0))))  # fmt: skip
    t.settled((-25, 10, 0, 15))
    db = caught_up(store, url, PlayerStats())
    rows = {r.player: r.model_dump() for r in variant_stats(db, "shandong", order="wins").items}
    assert [rows[p]["wins"] for p in ("ann", "bo", "cy", "di")] == [0, 1, 0, 1]
    assert rows["ann"]["dealt_in"] == 1 and rows["ann"]["wins"] == 0
    assert rows["di"]["best_points"] == 15 and rows["bo"]["best_fan"] == 2


def test_a_drawn_hand_counts_for_every_seat_and_no_win(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("shandong")
    t.dealt(1)
    t.given(HandDrawn())
    t.settled()
    for player in ("ann", "bo", "cy", "di"):
        row = stats_of(url, store, player)["shandong"]
        assert (row["hands"], row["drawn"], row["wins"], row["dealt_in"]) == (1, 1, 0, 0)


def test_penalties_count_for_the_seat_named_with_what_they_charged_it(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("shanghai")
    t.dealt(1)
    t.given(SeatLeft(seat=1, mid_hand=True))
    t.given(PenaltyAdjudicated(seat=1, cause="left", rule="003 主动逃跑 66×底注",
                               amounts=(20, -66, 20, 20)))  # fmt: skip
    t.given(PenaltyAdjudicated(seat=1, cause="timeouts", rule="003 超时5次 60×底注",
                               amounts=(20, -60, 20, 20)))  # fmt: skip
    bo = stats_of(url, store, "bo")["shanghai"]
    assert (bo["penalties"], bo["penalty_total"], bo["escapes"]) == (2, -126, 1)
    assert stats_of(url, store, "ann") == {}  # compensated, not penalised: nothing counted


def test_timeouts_are_the_turns_and_claim_windows_the_player_let_run_out(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin")
    t.dealt(1)
    t.given(WaitTimedOut(wait="turn", seats=(2,)), SeatAutoplayed(seat=2, reason="timeout", turn=True))
    t.given(WaitTimedOut(wait="claim", seats=(0, 2)))
    t.given(WaitTimedOut(wait="autoplay_window", seats=(2,)),
            SeatAutoplayed(seat=2, reason="timeout", turn=True))  # fmt: skip
    t.given(WaitTimedOut(wait="reconnect_grace", seats=(3,)))
    t.given(SeatAutoplayed(seat=3, reason="dropped", turn=False))
    got = {p: stats_of(url, store, p)["harbin"] for p in ("ann", "cy", "di")}
    assert {p: (r["timeouts"], r["autoplay_moves"]) for p, r in got.items()} == {
        "ann": (1, 0), "cy": (2, 2), "di": (0, 1),
    }  # fmt: skip


def test_only_leaving_mid_hand_is_an_escape(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin")
    t.dealt(1)
    t.settled()
    t.given(SeatLeft(seat=0, mid_hand=False))
    assert stats_of(url, store, "ann")["harbin"]["escapes"] == 0


def test_a_hand_abandoned_by_the_operator_is_not_counted(url: str) -> None:
    store = open_store(url)
    t = Table(store)
    t.opened("harbin")
    t.dealt(1)
    t.given(TableDissolved(reason="网管解散", mid_hand=True))
    assert stats_of(url, store, "ann") == {}


def test_each_variant_is_counted_apart(url: str) -> None:
    store = open_store(url)
    for table_id, variant in (("t1", "harbin"), ("t2", "tanggu")):
        t = Table(store, table_id)
        t.opened(variant)
        t.dealt(1)
        t.given(HandDrawn())
        t.settled()
    got = stats_of(url, store, "ann")
    assert sorted(got) == ["harbin", "tanggu"] and got["tanggu"]["hands"] == 1


def test_series_played_through_the_service_count_every_settled_hand(url: str) -> None:
    store = open_store(url)
    state = play_series(store, "t1", "shanghai", ("ann", "bo", "cy", "di"), hands=2, leaver=1)
    db = caught_up(store, url, PlayerStats())
    rows = [r.model_dump() for r in variant_stats(db, "shanghai", size=10).items]
    assert [r["hands"] for r in rows] == [state.series.hands_played] * 4
    wins = [e for e in store.read_stream("t1") if e.type == "hand_won"]
    assert sum(r["wins"] for r in rows) == sum(len(e.payload["wins"]) for e in wins)
    assert {r["player"]: r["escapes"] for r in rows}["bo"] == 1
    assert sum(r["autoplay_moves"] for r in rows) == sum(
        1 for e in store.read_stream("t1") if e.type == "seat_autoplayed"
    )


def test_pages_are_bounded_and_stable(url: str) -> None:
    store = open_store(url)
    for n in range(3):
        t = Table(store, f"t{n}")
        t.opened("harbin", players=(f"p{n}a", f"p{n}b", f"p{n}c", f"p{n}d"))
        t.dealt(1)
        t.given(HandDrawn())
        t.settled()
    db = caught_up(store, url, PlayerStats())
    pages = [variant_stats(db, "harbin", page=n, size=5) for n in (1, 2, 3)]
    players = [r.player for p in pages for r in p.items]
    assert players == sorted(players) and len(players) == 12  # every one once, by player
    assert [p.more for p in pages] == [True, True, False]
    first = pages[0]
    assert first.position == store.last_position()  # type: ignore[attr-defined]
    with pytest.raises(QueryError, match="page size must be a whole number from 1 to 200"):
        variant_stats(db, "harbin", size=1000)
    with pytest.raises(QueryError, match="order must be one of"):
        variant_stats(db, "harbin", order="fan_total")
