"""Tiles in mpsz notation: names, parsing, round trips, and errors that name the problem."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.rules.tiles import (
    NUM_KINDS_WITH_FLOWERS,
    RED_DRAGON,
    TileParseError,
    counts_of,
    is_terminal,
    name,
    parse_tiles,
    tile,
    to_string,
)

any_tiles = st.lists(st.integers(0, NUM_KINDS_WITH_FLOWERS - 1), max_size=20)


def test_kinds_run_man_pin_sou_honours_flowers_in_order() -> None:
    assert [name(t) for t in (0, 8, 9, 18, 26, 27, 33, 34, 41)] == [
        "1m",
        "9m",
        "1p",
        "1s",
        "9s",
        "1z",
        "7z",
        "1f",
        "8f",
    ]


def test_red_dragon_is_7z() -> None:
    assert tile("7z") == RED_DRAGON


def test_a_hand_string_groups_digits_before_their_suit() -> None:
    assert parse_tiles("11s88m") == [18, 18, 7, 7]


def test_to_string_sorts_and_groups_by_suit() -> None:
    assert to_string(parse_tiles("345s11s888m7z")) == "888m11345s7z"


def test_spaces_are_ignored() -> None:
    assert parse_tiles("123m 456p") == parse_tiles("123m456p")


def test_terminals_are_the_ones_and_nines_of_the_suits() -> None:
    assert [name(t) for t in range(34) if is_terminal(t)] == ["1m", "9m", "1p", "9p", "1s", "9s"]


@given(any_tiles)
def test_to_string_then_parse_gives_the_tiles_back_sorted(tiles: list[int]) -> None:
    assert parse_tiles(to_string(tiles)) == sorted(tiles)


@given(any_tiles)
def test_names_parse_back_one_by_one(tiles: list[int]) -> None:
    assert [tile(name(t)) for t in tiles] == tiles


@given(any_tiles)
def test_counts_add_up_to_the_number_of_tiles(tiles: list[int]) -> None:
    assert sum(counts_of(tiles)) == len(tiles)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("12x", "'x'"),  # an unknown character is quoted
        ("m123", "suit letter 'm'"),  # a suit with no digits before it
        ("0m", "0m is not a tile"),
        ("8z", "8z is not a tile"),
        ("9f", "9f is not a tile"),
        ("123", "'123'"),  # digits with no suit letter
        ("1²m", "unknown character '²'"),  # a digit to str.isdigit, none to int()
    ],
)
def test_malformed_strings_name_the_problem(text: str, named: str) -> None:
    with pytest.raises(TileParseError, match=named):
        parse_tiles(text)


def test_a_hand_that_is_not_a_string_is_refused() -> None:
    with pytest.raises(TileParseError, match="string"):
        parse_tiles(123)  # type: ignore[arg-type]


def test_tile_wants_exactly_one_tile() -> None:
    with pytest.raises(TileParseError, match="expected one tile"):
        tile("12m")


@given(st.text(alphabet="0123456789mpszfx ", max_size=12))
def test_parsing_never_fails_other_than_with_a_tile_parse_error(text: str) -> None:
    try:
        parse_tiles(text)
    except TileParseError as error:
        assert str(error)
