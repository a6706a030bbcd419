"""等级分 and 称号: hand_settled's level scores summed per player and variant, with the title
of 003's ladder and the score still needed for the next one (decisions 12, 17)."""

from __future__ import annotations

import pytest
from boards_kit import given, hand, opened, project, settled
from projection_kit import play_series, rows_of

from events.store import open_store
from readmodels.levels import Levels
from readmodels.queries_boards import level, levels_of

PLAYERS = ("ann", "bo", "cy", "di")
VARIANTS = ("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")


def scores(url: str) -> dict[tuple[str, str], int]:
    db = project(url, Levels())
    return {(r["player"], r["variant"]): r["level_score"] for r in rows_of(db, Levels(), "levels")}


def test_a_drawn_hand_scores_nothing_and_leaves_everyone_a_书童(url: str) -> None:
    given(open_store(url), "t1", opened("t1", "harbin", PLAYERS), hand(), settled())
    db = project(url, Levels())
    row = level(db, "ann", "harbin")
    assert (row.level_score, row.hands) == (0, 1)
    assert (row.title, row.grade, row.next_title, row.to_next) == ("书童", 1, "书生", 11)


def test_a_win_gives_the_winner_three_and_each_other_seat_minus_one(url: str) -> None:
    given(open_store(url), "t1", opened("t1", "shanghai", PLAYERS), hand(),
          settled((12, -4, -4, -4), (-1, 3, -1, -1)))  # fmt: skip
    assert scores(url) == {("ann", "shanghai"): -1, ("bo", "shanghai"): 3,
                           ("cy", "shanghai"): -1, ("di", "shanghai"): -1}  # fmt: skip
    assert level(project(url, Levels()), "ann", "shanghai").title == "白丁"


def test_two_winners_on_one_discard_each_gain_three(url: str) -> None:
    """一炮多响 (山东): both winners +3, the discarder and the fourth seat −1 once."""
    given(open_store(url), "t1", opened("t1", "shandong", PLAYERS), hand(),
          settled((6, -12, 6, 0), (3, -1, 3, -1)))  # fmt: skip
    assert scores(url) == {("ann", "shandong"): 3, ("bo", "shandong"): -1,
                           ("cy", "shandong"): 3, ("di", "shandong"): -1}  # fmt: skip


def test_a_seat_that_leaves_loses_three_and_nobody_else_scores(url: str) -> None:
    play_series(open_store(url), "t1", "shanghai", PLAYERS, hands=0, leaver=2)
    assert scores(url) == {("ann", "shanghai"): 0, ("bo", "shanghai"): 0,
                           ("cy", "shanghai"): -3, ("di", "shanghai"): 0}  # fmt: skip
    row = level(project(url, Levels()), "cy", "shanghai")
    assert (row.title, row.next_title, row.to_next) == ("白丁", "书童", 3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_level_scores_are_the_tables_own_on_every_variant(url: str, variant: str) -> None:
    state = play_series(open_store(url), "t1", variant, PLAYERS, hands=3, seed=7)
    expected = {(p, variant): state.series.level_scores[s] for s, p in enumerate(PLAYERS)}
    assert scores(url) == expected


def test_a_player_has_a_level_score_per_variant(url: str) -> None:
    store = open_store(url)
    given(store, "t1", opened("t1", "harbin", PLAYERS), hand(), settled(levels=(3, -1, -1, -1)))
    given(store, "t2", opened("t2", "tanggu", ("eve", "ann", "fay", "gus")), hand(),
          settled(levels=(-1, -1, 3, -1)), hand(2), settled(levels=(-1, 3, -1, -1)))  # fmt: skip
    found = levels_of(project(url, Levels()), "ann")
    assert [(r.variant, r.level_score, r.hands) for r in found] == [
        ("harbin", 3, 1), ("tanggu", 2, 2)]  # fmt: skip


@pytest.mark.parametrize(
    ("score", "title", "next_title", "to_next"),
    [
        (-1, "白丁", "书童", 1),
        (0, "书童", "书生", 11),
        (10, "书童", "书生", 1),
        (11, "书生", "秀才", 140),
        (150, "书生", "秀才", 1),
        (151, "秀才", "举人", 775),
        (15610, "榜眼", "状元", 1),
        (15611, "状元", "大学士", 7040),
        (22650, "状元", "大学士", 1),
        (22651, "大学士", None, None),
    ],
)
def test_each_title_starts_where_the_ladder_says(
    url: str, score: int, title: str, next_title: str | None, to_next: int | None
) -> None:
    given(open_store(url), "t1", opened("t1", "shanghai", PLAYERS), hand(),
          settled(levels=(score - 5, 0, 0, 0)), hand(2), settled(levels=(5, 0, 0, 0)))  # fmt: skip
    row = level(project(url, Levels()), "ann", "shanghai")
    assert row.level_score == score
    assert (row.title, row.next_title, row.to_next) == (title, next_title, to_next)


def test_a_player_with_no_hand_in_a_variant_is_a_书童_at_zero(url: str) -> None:
    given(open_store(url), "t1", opened("t1", "harbin", PLAYERS), hand(), settled())
    row = level(project(url, Levels()), "zoe", "tanggu")
    assert (row.level_score, row.hands, row.title, row.to_next, row.last_position) == (
        0, 0, "书童", 11, None)  # fmt: skip
