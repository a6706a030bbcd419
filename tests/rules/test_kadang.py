"""卡当 per variant, 对倒, 卡当宝 and 宝中宝 (decisions 5 and 7)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.kadang import (
    duidao_waits,
    is_bao_zhong_bao,
    is_duidao,
    is_kadang,
    is_kadang_bao,
    kadang_waits,
    wins_on_drawn_bao,
)
from services.rules.ready import hand_waits
from services.rules.tiles import names, parse_tiles, tile
from services.rules.variants import get_variant

MUDANJIANG = get_variant("mudanjiang")
HARBIN = get_variant("harbin")
EXAMPLE_000 = parse_tiles("11s88m789m222p345s")  # waits on 1s and 8m
EXAMPLE_001 = parse_tiles("67789m222p345s11s")  # 67789m waits on 5m and 8m
CLOSED_WAIT = parse_tiles("13m222p345s789s11s")  # waits on 2m alone


def test_mudanjiang_kadang_on_8m_in_the_000_example() -> None:
    assert is_kadang(MUDANJIANG, EXAMPLE_000, tile("8m"))


def test_mudanjiang_no_kadang_on_1s_in_the_000_example() -> None:
    assert not is_kadang(MUDANJIANG, EXAMPLE_000, tile("1s"))


def test_harbin_kadang_needs_a_single_wait() -> None:
    assert not is_kadang(HARBIN, EXAMPLE_000, tile("8m"))


def test_harbin_8m_is_not_kadang_when_67789m_also_waits_on_5m() -> None:
    assert not is_kadang(HARBIN, EXAMPLE_001, tile("8m"))


def test_mudanjiang_8m_is_kadang_in_67789m_on_the_789_reading() -> None:
    assert is_kadang(MUDANJIANG, EXAMPLE_001, tile("8m"))


def test_harbin_78889m_is_not_kadang() -> None:
    hand = parse_tiles("78889m222p345s11s")
    assert names(kadang_waits(HARBIN, hand)) == []
    assert not is_kadang(HARBIN, hand, tile("8m"))


def test_harbin_kadang_on_a_single_middle_wait() -> None:
    assert is_kadang(HARBIN, CLOSED_WAIT, tile("2m"))


def test_an_edge_wait_is_not_kadang() -> None:
    hand = parse_tiles("12m222p345s789s11s")  # waits on 3m alone, at the end of 123m
    assert not is_kadang(MUDANJIANG, hand, tile("3m"))
    assert not is_kadang(HARBIN, hand, tile("3m"))


def test_variants_without_kadang_never_count_it() -> None:
    assert not is_kadang(get_variant("shandong"), CLOSED_WAIT, tile("2m"))


def test_kadang_waits_list_the_kadang_tiles_of_a_hand() -> None:
    assert kadang_waits(MUDANJIANG, EXAMPLE_000) == [tile("8m")]
    assert kadang_waits(HARBIN, CLOSED_WAIT) == [tile("2m")]


def test_duidao_waits_on_either_pair() -> None:
    hand = parse_tiles("78889m222p345s11s")
    assert names(duidao_waits(hand)) == ["8m", "1s"]
    assert is_duidao(hand, tile("1s"))


def test_a_single_wait_is_not_duidao() -> None:
    assert not is_duidao(CLOSED_WAIT, tile("2m"))


def test_kadang_bao_when_a_drawn_bao_can_read_as_a_kadang_tile() -> None:
    assert is_kadang_bao(MUDANJIANG, EXAMPLE_000)
    assert not is_kadang_bao(HARBIN, EXAMPLE_000)
    assert is_kadang_bao(HARBIN, CLOSED_WAIT)


def test_bao_zhong_bao_when_the_bao_is_the_kadang_wait() -> None:
    assert is_bao_zhong_bao(HARBIN, CLOSED_WAIT, tile("2m"))
    assert not is_bao_zhong_bao(HARBIN, CLOSED_WAIT, tile("5p"))
    assert is_bao_zhong_bao(MUDANJIANG, EXAMPLE_000, tile("8m"))
    assert not is_bao_zhong_bao(MUDANJIANG, EXAMPLE_000, tile("1s"))


def test_a_drawn_bao_reads_as_a_red_dragon_too() -> None:
    assert wins_on_drawn_bao(HARBIN, parse_tiles("123m456p789s111s7z"))


def test_a_drawn_bao_completes_an_eight_nine_edge() -> None:
    assert wins_on_drawn_bao(HARBIN, parse_tiles("89m456p789s111s22s"))


def test_a_drawn_bao_does_not_win_a_hand_that_is_not_ready() -> None:
    assert not wins_on_drawn_bao(HARBIN, parse_tiles("1357m2468p13579s"))


@st.composite
def won_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A winning hand of suits and 红中 (four sets and a pair), split into 13 tiles and the winner."""
    tiles: list[int] = []
    for _ in range(4):
        start = draw(st.integers(0, 26))
        if start % 9 <= 6 and draw(st.booleans()):
            tiles += [start, start + 1, start + 2]
        else:
            tiles += [start] * 3
    tiles += [draw(st.sampled_from([*range(27), 33]))] * 2
    tiles = draw(st.permutations(tiles))
    return sorted(tiles[1:]), tiles[0]


@settings(max_examples=300, deadline=None)
@given(won_hands())
def test_harbin_kadang_is_always_mudanjiang_kadang(won: tuple[list[int], int]) -> None:
    hand, win_tile = won
    if is_kadang(HARBIN, hand, win_tile):
        assert is_kadang(MUDANJIANG, hand, win_tile)
        assert hand_waits(HARBIN, hand) == [win_tile]


@settings(max_examples=300, deadline=None)
@given(won_hands())
def test_kadang_needs_the_winning_tile_between_its_neighbours(won: tuple[list[int], int]) -> None:
    hand, win_tile = won
    if is_kadang(MUDANJIANG, hand, win_tile):
        assert win_tile < 27 and 0 < win_tile % 9 < 8
        assert win_tile - 1 in hand and win_tile + 1 in hand
