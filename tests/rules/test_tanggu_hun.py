"""塘沽 混 from the indicator (seeds/004, README decision 9)."""

from __future__ import annotations

import pytest

from services.rules.tiles import name, parse_tiles, tile
from services.rules.variants.tanggu_hun import (
    hun_kinds,
    hun_tiles,
    indicator_index,
    indicator_place,
    next_tile,
    second_roller,
)


@pytest.mark.parametrize(
    ("indicator", "following"),
    [
        ("1m", "2m"),
        ("8m", "9m"),
        ("9m", "1m"),  # suits wrap 9→1
        ("9p", "1p"),
        ("9s", "1s"),
        ("7z", "6z"),  # 中→发
        ("6z", "5z"),  # 发→白
        ("5z", "7z"),  # 白→中
        ("1z", "2z"),  # 东→南
        ("3z", "4z"),  # 西→北
        ("4z", "1z"),  # 北→东
    ],
)
def test_the_tile_after_the_indicator_wraps_within_its_family(
    indicator: str, following: str
) -> None:
    assert name(next_tile(tile(indicator))) == following


def test_an_indicator_of_one_wan_makes_one_wan_and_two_wan_the_hun() -> None:
    assert hun_kinds(tile("1m")) == frozenset(parse_tiles("12m"))


def test_the_seven_hun_are_three_more_indicators_and_four_of_the_next_tile() -> None:
    assert sorted(hun_tiles(tile("9m"))) == sorted(parse_tiles("1111999m"))
    assert len(hun_tiles(tile("5z"))) == 7


def test_a_flower_is_no_indicator() -> None:
    with pytest.raises(ValueError):
        next_tile(tile("1f"))


def test_the_dealers_roll_names_the_second_roller_counting_the_dealer_as_one() -> None:
    assert second_roller(dealer=2, first_roll=1) == 2
    assert second_roller(dealer=2, first_roll=2) == 3
    assert second_roller(dealer=2, first_roll=5) == 2
    assert second_roller(dealer=0, first_roll=12) == 3


def test_the_indicator_lies_at_the_sum_of_both_rolls_counted_back_from_the_end() -> None:
    assert indicator_place(3, 4) == 7
    assert indicator_index(136, 1, 1) == 134  # place 2: the last tile but one
    assert indicator_index(136, 12, 12) == 112


def test_a_place_beyond_the_wall_is_refused() -> None:
    with pytest.raises(ValueError):
        indicator_index(10, 6, 6)
