"""排行榜: points per variant and room, for each day, ISO week and all time, ranked with ties
broken stably (points, then who reached the total first, then the player id), paged."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from boards_kit import NOON, given, hand, opened, project, settled
from projection_kit import play_series, rows_of

from events.envelope import Actor, NewEvent
from events.store import open_store
from readmodels.leaderboards import Leaderboards, period_keys
from readmodels.points import Points
from readmodels.queries import QueryError
from readmodels.queries_boards import board_entry, leaderboard, leaderboard_key
from services.rules import RULES_VERSION
from services.rules.events.presence import PenaltyAdjudicated

PLAYERS = ("ann", "bo", "cy", "di")


def board(
    url: str, period: str, key: str, variant: str = "harbin", room: str | None = ""
) -> list[tuple[str, int]]:
    page = leaderboard(project(url, Leaderboards()), variant, room, period, key, 1, 100)
    return [(item.player, item.points) for item in page.items]


def test_a_day_a_week_and_all_time_each_sum_their_own_hands(url: str) -> None:
    store, next_day, next_week = open_store(url), NOON + timedelta(days=1), NOON + timedelta(days=7)
    given(store, "t1", opened("t1", "harbin", PLAYERS), hand(), settled((6, -2, -2, -2)))
    given(store, "t1", hand(2), settled((-2, 6, -2, -2)), at=next_day)
    given(store, "t1", hand(3), settled((-4, -4, 12, -4)), at=next_week)
    assert board(url, "day", "2026-12-02") == [("ann", 6), ("bo", -2), ("cy", -2), ("di", -2)]
    assert board(url, "day", "2026-12-03") == [("bo", 6), ("ann", -2), ("cy", -2), ("di", -2)]
    assert board(url, "week", "2026-W49") == [("ann", 4), ("bo", 4), ("cy", -4), ("di", -4)]
    assert board(url, "week", "2026-W50") == [("cy", 12), ("ann", -4), ("bo", -4), ("di", -4)]
    assert board(url, "all", "all") == [("cy", 8), ("ann", 0), ("bo", 0), ("di", -8)]


def test_each_variant_and_room_has_its_own_board(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "harbin", PLAYERS), hand(), settled((6, -2, -2, -2)),
          extra={"room": "gold"})  # fmt: skip
    given(store, "t2", opened("t2", "harbin", PLAYERS), hand(), settled((-2, 6, -2, -2)))
    given(store, "t3", opened("t3", "tanggu", PLAYERS), hand(), settled((-1, -1, -1, 3)),
          extra={"room": "gold"})  # fmt: skip
    assert board(url, "all", "all", "harbin", "gold") == [
        ("ann", 6),
        ("bo", -2),
        ("cy", -2),
        ("di", -2),
    ]
    assert board(url, "all", "all", "harbin", "") == [
        ("bo", 6),
        ("ann", -2),
        ("cy", -2),
        ("di", -2),
    ]
    assert board(url, "all", "all", "tanggu", "gold") == [
        ("di", 3),
        ("ann", -1),
        ("bo", -1),
        ("cy", -1),
    ]


def test_a_variants_board_across_rooms_sums_every_room_and_the_tables_in_none(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "harbin", PLAYERS), hand(), settled((6, -2, -2, -2)),
          extra={"room": "gold"})  # fmt: skip
    given(store, "t2", opened("t2", "harbin", ("ann", "bo", "ed", "flo")), hand(),
          settled((-2, 6, -2, -2)), extra={"room": "silver"})  # fmt: skip
    given(store, "t3", opened("t3", "harbin", ("gus", "bo", "hal", "ivy")), hand(),
          settled((3, 3, -3, -3)))  # fmt: skip
    given(store, "t4", opened("t4", "tanggu", PLAYERS), hand(), settled((9, -3, -3, -3)),
          extra={"room": "gold"})  # fmt: skip
    across = board(url, "all", "all", "harbin", None)
    assert across[:3] == [("bo", 7), ("ann", 4), ("gus", 3)]
    assert len(across) == 9 and "ann" not in dict(board(url, "all", "all", "harbin", ""))
    db = project(url, Leaderboards())
    mine = board_entry(db, "harbin", None, "all", "all", "bo")
    assert mine is not None and (mine.rank, mine.points, mine.hands) == (1, 7, 3)


def test_a_tie_goes_to_who_reached_the_total_first_then_to_the_player_id(url: str) -> None:
    """bo reaches 4 in the first hand and stays there; ann gets to 4 in the third: bo ranks
    first. Zed and amy reach −4 in the same event: by code point, Z (90) before a (97), on
    both databases whatever their collation."""
    store = open_store(url)
    given(store, "t1", opened("t1", "harbin", ("ann", "bo", "Zed", "amy")), hand(),
          settled((-2, 4, -1, -1)), hand(2), settled((2, 0, -1, -1)), hand(3),
          settled((4, 0, -2, -2)))  # fmt: skip
    assert board(url, "all", "all") == [("bo", 4), ("ann", 4), ("Zed", -4), ("amy", -4)]
    rows = {r["player"]: r for r in rows_of(project(url, Leaderboards()), Leaderboards(), "boards",
                                            period="all")}  # fmt: skip
    assert rows["bo"]["reached_position"] < rows["ann"]["reached_position"]
    assert rows["bo"]["hands"] == 3 and rows["bo"]["reached_at"] == NOON.isoformat()


def test_a_total_that_does_not_move_keeps_the_time_it_was_reached(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "harbin", PLAYERS), hand(), settled((3, 1, -2, -2)))
    given(store, "t1", hand(2), settled((0, 0, 0, 0)), at=NOON + timedelta(hours=1))
    given(store, "t1", hand(3), settled((-2, 0, 1, 1)), at=NOON + timedelta(hours=2))
    rows = {r["player"]: r for r in rows_of(project(url, Leaderboards()), Leaderboards(), "boards",
                                            period="day")}  # fmt: skip
    assert rows["bo"]["reached_at"] == NOON.isoformat() and rows["bo"]["hands"] == 3
    assert rows["ann"]["reached_at"] == (NOON + timedelta(hours=2)).isoformat()
    assert board(url, "day", "2026-12-02") == [("bo", 1), ("ann", 1), ("cy", -1), ("di", -1)]


def test_penalties_count_on_the_boards_for_the_seats_they_moved(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "shanghai", PLAYERS), hand(),
          PenaltyAdjudicated(seat=1, cause="left", rule="003 主动逃跑", amounts=(20, -66, 20, 20)),
          settled((4, -4, 0, 0)))  # fmt: skip
    given(store, "t2", opened("t2", "shandong", ("eve", "fay", "gus", "hal")), hand(),
          PenaltyAdjudicated(seat=0, cause="left", rule="002 逃跑", amounts=(-60, 0, 0, 0)),
    )  # fmt: skip
    assert board(url, "all", "all", "shanghai") == [
        ("ann", 24),
        ("cy", 20),
        ("di", 20),
        ("bo", -70),
    ]
    assert board(url, "all", "all", "shandong") == [("eve", -60)]  # no hand settled there


def test_periods_are_utc_days_and_iso_weeks_of_the_recorded_time() -> None:
    evening_in_new_york = datetime(2026, 12, 2, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert period_keys(evening_in_new_york) == {
        "day": "2026-12-03",
        "week": "2026-W49",
        "all": "all",
    }
    assert period_keys(datetime(2027, 1, 1, tzinfo=UTC))["week"] == "2026-W53"
    assert period_keys(datetime(2026, 12, 28, tzinfo=UTC))["week"] == "2026-W53"
    assert period_keys(datetime(2026, 12, 27, 23, 59, tzinfo=UTC))["week"] == "2026-W52"
    assert leaderboard_key("week", datetime(2027, 1, 4, tzinfo=UTC)) == "2027-W01"


def test_a_board_is_paged_with_ranks_running_on(url: str) -> None:
    store = open_store(url)
    for n in range(3):
        players = (f"p{n}a", f"p{n}b", f"p{n}c", f"p{n}d")
        given(store, f"t{n}", opened(f"t{n}", "harbin", players), hand(),
              settled((9 - n, n, -5, -4)))  # fmt: skip
    db = project(url, Leaderboards())
    first = leaderboard(db, "harbin", "", "all", "all", page=1, page_size=5)
    second = leaderboard(db, "harbin", "", "all", "all", page=2, page_size=5)
    third = leaderboard(db, "harbin", "", "all", "all", page=3, page_size=5)
    assert [len(p.items) for p in (first, second, third)] == [5, 5, 2]
    assert (first.more, second.more, third.more) == (True, True, False)
    ranked = first.items + second.items + third.items
    assert [i.rank for i in ranked] == list(range(1, 13))
    assert len({i.player for i in ranked}) == 12
    assert [i.points for i in ranked] == sorted((i.points for i in ranked), reverse=True)
    assert leaderboard(db, "harbin", "", "all", "all", page=4, page_size=5).items == []
    assert leaderboard(db, "tanggu", "", "all", "all").items == []


@pytest.mark.parametrize(
    ("period", "key", "page", "page_size", "complaint"),
    [
        ("month", "2026-12", 1, 20, "period is one of day, week, all"),
        ("week", "2026-49", 1, 20, "a week key looks like '2026-W49'"),
        ("day", "02.12.2026", 1, 20, "a day key looks like '2026-12-02'"),
        ("all", "all", 0, 20, "page must be a whole number from 1"),
        ("all", "all", 1, 201, "page size must be a whole number from 1 to 200"),
    ],
)
def test_a_bad_board_question_is_refused_by_name(
    url: str, period: str, key: str, page: int, page_size: int, complaint: str
) -> None:
    with pytest.raises(QueryError, match=complaint):
        leaderboard(project(url, Leaderboards()), "harbin", "", period, key, page, page_size)


def test_the_all_time_board_of_played_series_is_the_players_points(url: str) -> None:
    store = open_store(url)
    play_series(store, "t1", "shanghai", PLAYERS, hands=2, leaver=1)
    play_series(store, "t2", "shanghai", ("ann", "bo", "eve", "fay"), hands=2, seed=3)
    db = project(url, Leaderboards(), Points())
    points = {r["player"]: r["points"] for r in rows_of(db, Points(), "points_balances")}
    assert dict(board(url, "all", "all", "shanghai")) == points and any(points.values())


def test_an_older_settlement_counts_its_局分_as_it_was_then_written(url: str) -> None:
    """hand_settled v1 held 塘沽's kong payments as ``kong_payments``: read in today's shape."""
    store = open_store(url)
    given(store, "t1", opened("t1", "tanggu", PLAYERS), hand())
    old = NewEvent("hand_settled", {"payments": [6, -2, -2, -2], "kong_payments": [-2, 6, -2, -2],
                                    "level_scores": [3, -1, -1, -1]},
                   Actor.system(), RULES_VERSION, schema_version=1, recorded_at=NOON)  # fmt: skip
    store.append("t1", store.stream_version("t1"), [old])
    assert board(url, "all", "all", "tanggu") == [("ann", 4), ("bo", 4), ("cy", -4), ("di", -4)]
    db = project(url, Points())  # 积分 reads it in today's shape too
    balances = {r["player"]: r["points"] for r in rows_of(db, Points(), "points_balances")}
    assert balances == {"ann": 4, "bo": 4, "cy": -4, "di": -4}


def test_a_players_own_line_carries_the_rank_the_board_gives_it(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "harbin", ("ann", "bo", "Zed", "amy")), hand(),
          settled((-2, 4, -1, -1)), hand(2), settled((2, 0, -1, -1)), hand(3),
          settled((4, 0, -2, -2)))  # fmt: skip
    db = project(url, Leaderboards())
    ranked = leaderboard(db, "harbin", "", "week", "2026-W49", 1, 10).items
    for entry in ranked:
        assert board_entry(db, "harbin", "", "week", "2026-W49", entry.player) == entry
    assert board_entry(db, "harbin", "", "week", "2026-W50", "ann") is None
