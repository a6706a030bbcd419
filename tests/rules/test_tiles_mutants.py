"""Tiles in mpsz notation (``services/rules/tiles.py``): the rules its surviving mutants broke.

The kinds of each group, the bounds of a tile kind, one tile from a loose name, 幺九 and the size
of each variant's set.
"""

from __future__ import annotations

import pytest
from hands import meld

from services.rules.scoring.shanghai import concealed_honour_hua, meld_hua
from services.rules.tiles import (
    ALL_KINDS,
    DRAGONS,
    HONOURS,
    RED_DRAGON,
    SUITED_KINDS,
    WINDS,
    TileParseError,
    is_flower,
    is_terminal,
    name,
    names,
    parse_tiles,
    tile,
    tile_set,
    to_string,
)


# -- the groups of kinds -----------------------------------------------------------------------
def test_the_honours_are_1z_to_7z_and_nothing_else() -> None:
    """字牌: 东、南、西、北、中、发、白, 1z–7z in the notation of the rules README."""
    assert names(HONOURS) == ["1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_the_winds_are_1z_to_4z_and_the_dragons_5z_to_7z() -> None:
    """风牌：东、南、西、北 (1z–4z); 箭牌：中、发、白 (5z–7z, 红中 is 7z)."""
    assert names(WINDS) == ["1z", "2z", "3z", "4z"]
    assert names(DRAGONS) == ["5z", "6z", "7z"]


def test_a_pong_of_nine_bamboo_is_no_wind_pong_and_brings_no_hua() -> None:
    """上海敲麻 花: 风向碰 1花; a suited 碰 (三个九条) has none."""
    assert meld_hua(meld("pong", "999s")) == 0


def test_a_concealed_triplet_of_north_is_one_wind_triplet_not_also_a_dragon_set() -> None:
    """上海敲麻 花: 风暗刻 1花/个; 北风 is a 风 (1 花), not a 字牌 (中发白) as well."""
    assert concealed_honour_hua(parse_tiles("444z")) == 1
    assert concealed_honour_hua(parse_tiles("999s")) == 0


# -- ranks of each suit ------------------------------------------------------------------------
@pytest.mark.parametrize("suit", ["m", "p", "s"])
def test_a_refused_rank_says_the_ranks_of_a_suit_run_one_to_nine(suit: str) -> None:
    """万、饼、条: 一至九, so the message for 0 of a suit names the range 1–9."""
    with pytest.raises(TileParseError, match=f"ranks of {suit} run 1–9\\)"):
        parse_tiles(f"0{suit}")


# -- one tile ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [" 5m", "5m ", "5 m", " 7z "])
def test_one_tile_may_be_written_with_spaces_as_in_a_hand(text: str) -> None:
    """Spaces are ignored in a tile name as in a hand string."""
    assert tile(text) == tile(text.replace(" ", ""))


@pytest.mark.parametrize("text", ["", " ", "  "])
def test_an_empty_name_is_refused_as_no_tile(text: str) -> None:
    with pytest.raises(TileParseError, match="expected one tile, got 0"):
        tile(text)


def test_two_tiles_with_a_space_are_not_one_tile() -> None:
    with pytest.raises(TileParseError, match="expected one tile, got 2"):
        tile("1m 2m")


# -- the bounds of a tile kind -----------------------------------------------------------------
@pytest.mark.parametrize("kind", [-1, -9, 42, 43, 100])
def test_a_number_outside_the_42_kinds_has_no_name(kind: int) -> None:
    """Kinds run 0–41: 1m–9m, 1p–9p, 1s–9s, 1z–7z, 1f–8f (春夏秋冬梅兰竹菊); nothing else is a tile."""
    with pytest.raises(ValueError, match=f"{kind} is not a tile kind"):
        name(kind)
    with pytest.raises(ValueError, match="is not a tile kind"):
        to_string([0, kind])


def test_the_first_and_last_kinds_have_names() -> None:
    assert name(0) == "1m"
    assert name(41) == "8f"


# -- 幺九 --------------------------------------------------------------------------------------
def test_no_honour_or_flower_is_a_terminal() -> None:
    """幺九: 牌中必须带至少一个"幺"或"九"; 红中 only stands in for one, it is none itself, nor is
    any flower (春夏秋冬梅兰竹菊)."""
    assert [t for t in range(42) if is_terminal(t)] == [0, 8, 9, 17, 18, 26]
    assert not is_terminal(RED_DRAGON)
    assert not any(is_terminal(t) for t in range(27, 42))


# -- the tile sets -----------------------------------------------------------------------------
def test_a_tile_set_has_no_flowers_unless_asked() -> None:
    """哈尔滨: 万、饼、条各36张再加4个红中，一共112张牌; 塘沽: 5类34种图案，136张 (no flowers);
    山东 and 上海: 144张 with the 8 花牌."""
    harbin = tile_set(SUITED_KINDS + (RED_DRAGON,))
    assert len(harbin) == 112
    assert not any(is_flower(t) for t in harbin)
    tanggu = tile_set(ALL_KINDS)
    assert len(tanggu) == 136
    assert not any(is_flower(t) for t in tanggu)
    shandong = tile_set(ALL_KINDS, flowers=True)
    assert len(shandong) == 144
    assert sorted(t for t in shandong if is_flower(t)) == list(range(34, 42))
