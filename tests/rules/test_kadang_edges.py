"""卡当 and 对倒 away from the few tiles the first tests used (issue 28).

``000``: 卡当胡：玩家要胡的牌是顺子中间的夹牌，则为卡当胡。 ``001``: 必须只能胡一个牌而且是夹牌的，
才算卡当. ``001``: 如果无刻牌，但有两个对子也可听牌，听牌后可以胡对倒（即手里有两个对子随便出现哪个都能胡）.
"""

from __future__ import annotations

import pytest

from services.rules.kadang import (
    duidao_waits,
    is_bao_zhong_bao,
    is_duidao,
    is_kadang,
    kadang_waits,
    mid_run_on_some_reading,
)
from services.rules.tiles import names, parse_tiles, tile
from services.rules.variants import get_variant

MUDANJIANG = get_variant("mudanjiang")
HARBIN = get_variant("harbin")
SHANDONG = get_variant("shandong")

# a closed wait on each tile, the rest of the hand in the other two suits
CLOSED_WAITS = [
    ("13p222m345s789s11s", "2p"),
    ("13s222m456p789p11m", "2s"),
    ("24s222m456p789p11m", "3s"),
    ("79p222m345s789s11s", "8p"),
    ("68s222m456p789p11m", "7s"),
    ("46m222p345s789s11s", "5m"),
]


@pytest.mark.parametrize(("hand", "win_tile"), CLOSED_WAITS)
def test_a_closed_wait_in_any_suit_and_rank_is_kadang_in_both_variants(
    hand: str, win_tile: str
) -> None:
    """卡当: the tile waited on is the middle of a run (夹牌), and the only wait (哈尔滨)."""
    concealed = parse_tiles(hand)
    assert is_kadang(MUDANJIANG, concealed, tile(win_tile))
    assert is_kadang(HARBIN, concealed, tile(win_tile))
    assert names(kadang_waits(HARBIN, concealed)) == [win_tile]
    assert names(kadang_waits(MUDANJIANG, concealed)) == [win_tile]


@pytest.mark.parametrize(("hand", "win_tile"), CLOSED_WAITS)
def test_the_closed_wait_drawn_as_the_bao_is_bao_zhong_bao(hand: str, win_tile: str) -> None:
    """宝中宝: 已经听牌的玩家要和的那张牌正好是宝牌 on a 卡当 wait."""
    assert is_bao_zhong_bao(HARBIN, parse_tiles(hand), tile(win_tile))


@pytest.mark.parametrize(
    ("hand", "win_tile"),
    [
        ("12p222m345s789s11s", "3p"),  # 边张 at the low end
        ("89p222m345s789s11s", "7p"),  # 边张 at the high end
        ("23s222m456p789p11m", "1s"),  # 两面 waits on 1s and 4s: 1s ends the run
        ("23s222m456p789p11m", "4s"),
    ],
)
def test_an_edge_or_open_wait_is_no_kadang(hand: str, win_tile: str) -> None:
    """卡当 is the 夹牌 alone: a tile at a run's end is none, on any reading."""
    concealed = parse_tiles(hand)
    assert not is_kadang(MUDANJIANG, concealed, tile(win_tile))
    assert not is_kadang(HARBIN, concealed, tile(win_tile))


def test_no_run_crosses_a_suit_so_9m_1p_around_a_win_is_no_kadang() -> None:
    """A run is three consecutive tiles of one suit: 9m and 2p do not put 1p in a middle."""
    concealed = parse_tiles("9m2p222m345s789s11s5z")
    assert not mid_run_on_some_reading(concealed, tile("1p"))
    assert not mid_run_on_some_reading(parse_tiles("8m1p222p345s789s11s"), tile("9m"))


def test_honours_are_never_in_a_run_so_never_kadang() -> None:
    """Runs are of number tiles only: 东 between 北 and 南 sits in no run."""
    concealed = parse_tiles("24z222m456p789p11m")
    assert not mid_run_on_some_reading(concealed, tile("3z"))
    assert kadang_waits(MUDANJIANG, parse_tiles("2z222m456p789p11m5m")) == []


def test_a_two_sided_hand_whose_middle_reading_wins_is_kadang_only_in_mudanjiang() -> None:
    """000: 只要有卡当的条件，即算卡当; 001 needs the single wait: 34445p waits on 4p and 1s."""
    concealed = parse_tiles("34445p222m789s11s")
    assert names(kadang_waits(MUDANJIANG, concealed)) == ["4p"]
    assert is_kadang(MUDANJIANG, concealed, tile("4p"))
    assert kadang_waits(HARBIN, concealed) == []
    assert not is_kadang(HARBIN, concealed, tile("4p"))


def test_a_variant_without_kadang_lists_no_kadang_wait() -> None:
    assert SHANDONG.kadang == "none"
    assert kadang_waits(SHANDONG, parse_tiles(CLOSED_WAITS[0][0])) == []
    assert not is_kadang(SHANDONG, parse_tiles(CLOSED_WAITS[0][0]), tile("2p"))


def test_duidao_is_never_reported_on_a_tile_held_once() -> None:
    """对倒 turns one of two *pairs* into a 刻: a 单钓 on a single tile is none."""
    single = parse_tiles("123m456p789s11s5z")  # waits on 5z alone, held once
    assert duidao_waits(single) == []
    assert not is_duidao(single, tile("5z"))
    assert not is_duidao(single, tile("1s"))


def test_duidao_waits_on_two_pairs_of_any_suit() -> None:
    for hand, pairs in [
        ("99p22s345s789m456m", ["9p", "2s"]),
        ("11z77z345s789m456p", ["1z", "7z"]),
        ("55m88s123p789p456s", ["5m", "8s"]),
    ]:
        concealed = parse_tiles(hand)
        assert names(duidao_waits(concealed)) == pairs
        assert all(is_duidao(concealed, tile(p)) for p in pairs)


def test_a_triplet_and_a_pair_is_no_duidao_on_the_triplet() -> None:
    """A 刻 held already and a pair: the fourth copy makes no second 刻 of a pair."""
    concealed = parse_tiles("111m22p345s789s456s")
    assert not is_duidao(concealed, tile("1m"))


def test_duidao_is_never_reported_on_a_tile_held_once_beside_pairs_and_a_triplet() -> None:
    """1112334455m: 2m is held once; winning on it makes no 刻 of a pair, so it is no 对倒."""
    concealed = parse_tiles("1112334455m123s")
    assert tile("2m") not in duidao_waits(concealed)
    assert not is_duidao(concealed, tile("2m"))


def test_a_kind_held_four_times_is_no_duidao_wait() -> None:
    """A fifth copy of a kind does not exist, so four held are never a pair waiting for a 刻."""
    assert duidao_waits(parse_tiles("1111m234p567p789s")) == []


def test_a_win_on_a_red_dragon_beside_a_green_dragon_is_in_no_run() -> None:
    """Runs are of number tiles only: 发 and 中 side by side make no run for 中."""
    assert not mid_run_on_some_reading(parse_tiles("66z123m456p789s11s"), tile("7z"))
