"""Every reading of a hand (``services/rules/hand.py``): the rules its surviving mutants broke.

A reading splits the concealed tiles into sets and one pair; a 混/宝 (``wild``) stands for any
suited tile, never an honour, and wildcards left over form the pair and sets among themselves.
Each test asserts the full set of readings of a small chosen hand.
"""

from __future__ import annotations

import pytest

from services.rules.hand import Group, GroupKind, Reading, middle_of_run, readings
from services.rules.tiles import NUM_KINDS, counts_of, parse_tiles, tile


def read(hand: str, hun: int = 0) -> list[Reading]:
    """The readings of the tiles ``hand`` plus ``hun`` wildcards."""
    return readings(counts_of(parse_tiles(hand), NUM_KINDS), hun)


def g(kind: GroupKind, text: str = "", hun: int = 0) -> Group:
    """A group reading as the tiles ``text`` (none: wildcards only), ``hun`` of them wild."""
    return Group(kind, tuple(parse_tiles(text)), hun)


def _two(single: str) -> str:
    return single[0] * 2 + single[1]


def _three(single: str) -> str:
    return single[0] * 3 + single[1]


def reading(*groups: Group) -> Reading:
    return tuple(sorted(groups))


def assert_readings(hand: str, hun: int, *expected: Reading) -> None:
    found = read(hand, hun)
    assert len(found) == len(expected)
    assert set(found) == set(expected)


# -- the groups themselves ---------------------------------------------------------------------
def test_a_hand_without_wildcards_reads_as_groups_that_hold_no_wildcard() -> None:
    """素和 (004: 和牌中没有混): a group of real tiles counts no 混 unless it is given some."""
    assert read("11m123p") == [(Group("pair", (0, 0)), Group("run", (9, 10, 11)))]
    assert Group("triplet", (27, 27, 27)).wild == 0


def test_a_group_is_a_fixed_record_of_kind_tiles_and_wildcards() -> None:
    """A slotted value: nothing can be hung on a group beside its kind, tiles and 混 count."""
    (only,) = read("11m123p")
    assert all(not hasattr(group, "__dict__") for group in only)


# -- 字牌 take no 混 and form no 顺子 ------------------------------------------------------------
def test_a_hun_never_stands_for_an_honour() -> None:
    """004: 混可以在牌中代替任何一张万饼条 (README decision 9: never an honour): no 东 pair or
    东 triplet is completed by a 混."""
    assert read("1z", 1) == []
    assert read("1z", 4) == []
    assert_readings("11z", 3, reading(g("pair", "11z"), g("triplet", "", 3)))


def test_winds_never_form_a_run() -> None:
    """003 顺子: 万子，条子，同子三种牌形中，由相邻数子的三张牌组成 — 东南西 is no 顺子."""
    assert read("123z55m") == []
    assert read("567z55m") == []


# -- 混 left over ------------------------------------------------------------------------------
def test_five_hun_left_over_make_the_pair_and_one_triplet() -> None:
    """混 left over after the real tiles form the 将 and the 刻 among themselves."""
    assert_readings("111z", 5, reading(g("triplet", "111z"), g("pair", "", 2), g("triplet", "", 3)))
    assert_readings("", 5, reading(g("pair", "", 2), g("triplet", "", 3)))


def test_six_hun_beside_a_pair_make_exactly_two_triplets() -> None:
    """Six 混 beside a 东 pair are two 混 triplets, each of three 混: 4 sets of 3 and a pair."""
    assert_readings("11z", 6, reading(g("pair", "11z"), g("triplet", "", 3), g("triplet", "", 3)))
    assert_readings("", 8, reading(g("pair", "", 2), g("triplet", "", 3), g("triplet", "", 3)))


# -- 混 with suited tiles ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("single", "runs"),
    [
        ("1m", ["123m"]),
        ("2m", ["123m", "234m"]),
        ("3m", ["123m", "234m", "345m"]),
        ("8m", ["678m", "789m"]),
        ("9m", ["789m"]),
        ("1p", ["123p"]),
        ("9s", ["789s"]),
    ],
)
def test_one_tile_and_four_hun_read_as_runs_only_within_its_own_suit(
    single: str, runs: list[str]
) -> None:
    """003 顺子: 由相邻数子的三张牌组成 (九和一不连); 004: 混可以代替任何一张万饼条.

    One tile and four 混: a 混 pair with the tile's triplet (two 混) or with a run through it
    (two 混, never across a suit nor past 1 or 9), or the tile paired with a 混 and a 混 triplet.
    """
    expected = [
        reading(g("pair", "", 2), g("triplet", _three(single), 2)),
        reading(g("pair", _two(single), 1), g("triplet", "", 3)),
    ] + [reading(g("pair", "", 2), g("run", run, 2)) for run in runs]
    assert_readings(single, 4, *expected)


def test_three_of_a_tile_and_three_hun_may_read_as_two_triplets_of_that_tile() -> None:
    """刻子: 由相同的三张牌组成 — beside a 东 将, 111m and three 混 read as two 一万 刻
    (11m混 and 1m混混), as 111m and a 混 刻, or as 111m (11m混) and 123m (1m混混)."""
    assert_readings(
        "111m11z",
        3,
        reading(g("pair", "11z"), g("run", "123m", 2), g("triplet", "111m", 1)),
        reading(g("pair", "11z"), g("triplet", "111m"), g("triplet", "", 3)),
        reading(g("pair", "11z"), g("triplet", "111m", 1), g("triplet", "111m", 2)),
    )


def test_a_hun_may_stand_for_a_tile_the_hand_already_holds() -> None:
    """004: 混可以在牌中代替任何一张万饼条 — even a 2m while a real 2m sits in the 将: 1223m
    and a 混 read as 22m + 1m混3m, or as 2m混 + 123m."""
    assert_readings(
        "1223m",
        1,
        reading(g("pair", "22m"), g("run", "123m", 1)),
        reading(g("pair", "22m", 1), g("run", "123m")),
    )


# -- 卡当 ----------------------------------------------------------------------------------------
def test_kadang_is_the_middle_tile_of_a_run_not_a_pair_triplet_or_run_end() -> None:
    """000 卡当胡: 玩家要胡的牌是顺子中间的夹牌 — 11s88m789m222p345s won on 8m reads
    11s 888m 789m 222p 345s: 8m and 4s sit in the middle of a run; 1s (the 将), 2p (a 刻) and
    the ends 7m, 9m, 3s, 5s do not."""
    (won,) = [r for r in read("11s888m789m222p345s") if g("run", "789m") in r]
    assert middle_of_run(won, tile("8m"))
    assert middle_of_run(won, tile("4s"))
    for other in ("1s", "2p", "7m", "9m", "3s", "5s"):
        assert not middle_of_run(won, tile(other)), other
