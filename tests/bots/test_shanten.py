"""向听 as the winning bot counts it."""

from __future__ import annotations

import pytest

from services.bots.shanten import counts_of, shanten
from services.rules.tiles import parse_tiles


def steps(hand: str, melds: int = 0, seven_pairs: bool = False) -> int:
    counts, wild = counts_of(parse_tiles(hand))
    return shanten(counts, melds, seven_pairs, wild)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("11s88m789m222p345s1s", -1),
        ("11s88m789m222p345s", 0),
        ("123456789m1234p", 0),
        ("13579m13579p135s", 4),
        ("19m19p19s1234567z", 8),
    ],
)
def test_shanten_counts_steps_from_ready_with_complete_as_minus_one(
    hand: str, expected: int
) -> None:
    assert steps(hand) == expected


def test_seven_pairs_count_only_where_the_variant_allows_them() -> None:
    assert steps("1122m3344p5566s7z", seven_pairs=True) == 0
    assert steps("1122m3344p5566s7z", seven_pairs=False) > 0


def test_melds_laid_down_count_as_sets() -> None:
    assert steps("123m456p7z", melds=2) == 0
    assert steps("123m456p7z7z", melds=2) == -1


def test_each_wildcard_brings_the_hand_a_step_closer() -> None:
    counts, _ = counts_of(parse_tiles("13579m13579p13s"))
    assert shanten(counts, 0, False, 2) == shanten(counts, 0, False, 0) - 2
