"""上海敲麻 荒番 count, dice 荒番, level score and titles (seeds/003, README decision 12)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.rules.levels import level_deltas, level_grade, level_title, next_level_title
from services.rules.variants.shanghai_counters import (
    HuangfanCounter,
    count_after_hand,
    dice_huangfan,
)


@pytest.mark.parametrize("throw", [(1, 1), (4, 4)])
def test_a_throw_of_two_ones_or_two_fours_adds_two(throw: tuple[int, int]) -> None:
    assert dice_huangfan(*throw) == 2


@pytest.mark.parametrize(
    "throw",
    [(1, n) for n in range(2, 7)]
    + [(4, n) for n in (1, 2, 3, 5, 6)]
    + [(2, 2), (3, 3), (5, 5), (6, 6)],
)
def test_a_throw_holding_a_one_or_a_four_or_any_other_double_adds_one(
    throw: tuple[int, int],
) -> None:
    assert dice_huangfan(*throw) == 1
    assert dice_huangfan(throw[1], throw[0]) == 1


@pytest.mark.parametrize("throw", [(2, 3), (2, 5), (3, 6), (5, 6), (6, 2)])
def test_other_throws_add_nothing(throw: tuple[int, int]) -> None:
    assert dice_huangfan(*throw) == 0


def test_a_dice_huangfan_of_four_four_makes_the_current_hand_a_huangfan_hand() -> None:
    counter = HuangfanCounter(0).after_dice(4, 4)
    assert counter.count == 2
    assert counter.is_huangfan_hand


def test_a_drawn_hand_makes_the_next_hand_a_huangfan_hand() -> None:
    assert not HuangfanCounter(0).is_huangfan_hand
    assert HuangfanCounter(0).after_hand(won=False).is_huangfan_hand


def test_two_drawn_hands_make_the_next_two_hands_huangfan_hands() -> None:
    counter = HuangfanCounter(0).after_hand(won=False).after_hand(won=False)
    third = counter
    fourth = third.after_hand(won=True)
    fifth = fourth.after_hand(won=True)
    assert (third.is_huangfan_hand, fourth.is_huangfan_hand, fifth.is_huangfan_hand) == (
        True,
        True,
        False,
    )


def test_a_won_hand_never_takes_the_count_below_zero() -> None:
    assert count_after_hand(0, won=True) == 0
    assert HuangfanCounter(0).after_hand(won=True).count == 0


@given(st.lists(st.booleans(), max_size=40))
def test_the_huangfan_count_is_never_negative(outcomes: list[bool]) -> None:
    counter = HuangfanCounter()
    for won in outcomes:
        counter = counter.after_hand(won)
        assert counter.count >= 0


def test_a_negative_count_is_refused() -> None:
    with pytest.raises(ValueError):
        HuangfanCounter(-1)


def test_the_winner_gains_three_level_points_and_each_loser_loses_one() -> None:
    assert level_deltas(winners=[2]) == (-1, -1, 3, -1)


def test_a_drawn_hand_changes_no_level_score() -> None:
    assert level_deltas() == (0, 0, 0, 0)


def test_a_leaver_loses_three_and_nobody_else_scores() -> None:
    assert level_deltas(winners=[1], leaver=3) == (0, 0, 0, -3)


def test_several_winners_on_one_discard_each_gain_three() -> None:
    assert level_deltas(winners=[0, 2]) == (3, -1, 3, -1)


@pytest.mark.parametrize(
    ("score", "title", "grade"),
    [
        (-1, "白丁", 0),
        (-500, "白丁", 0),
        (0, "书童", 1),
        (10, "书童", 1),
        (11, "书生", 2),
        (150, "书生", 2),
        (151, "秀才", 3),
        (925, "秀才", 3),
        (926, "举人", 4),
        (2270, "举人", 4),
        (2271, "贡士", 5),
        (3990, "贡士", 5),
        (3991, "进士", 6),
        (6530, "进士", 6),
        (6531, "探花", 7),
        (10320, "探花", 7),
        (10321, "榜眼", 8),
        (15610, "榜眼", 8),
        (15611, "状元", 9),
        (22650, "状元", 9),
        (22651, "大学士", 10),
        (10**7, "大学士", 10),
    ],
)
def test_level_titles_bound_their_ranges_inclusively(score: int, title: str, grade: int) -> None:
    assert level_title(score) == title
    assert level_grade(score) == grade


@pytest.mark.parametrize(
    ("score", "following"),
    [
        (-7, ("书童", 0)),
        (0, ("书生", 11)),
        (10, ("书生", 11)),
        (11, ("秀才", 151)),
        (15610, ("状元", 15611)),
        (15611, ("大学士", 22651)),
        (22650, ("大学士", 22651)),
    ],
)
def test_the_next_title_is_the_one_just_above_with_the_score_that_reaches_it(
    score: int, following: tuple[str, int]
) -> None:
    assert next_level_title(score) == following
    assert level_title(following[1]) == following[0] != level_title(following[1] - 1)


def test_a_大学士_has_no_next_title() -> None:
    assert next_level_title(22651) is None and next_level_title(10**7) is None
