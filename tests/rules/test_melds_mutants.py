"""Melds (吃, 碰, 明杠, 补杠, 暗杠): what each kind is made of, and how the rules read a meld.

README decision 5: "A kong is a 刻; a 吃 is a 顺." A 吃 is three consecutive tiles of one suit;
a 碰 three copies of one tile, a kong four; honours form no 顺 and flowers no set at all.
"""

from __future__ import annotations

import pytest
from hands import meld, win_context

from services.rules.melds import MELD_KINDS, Meld, MeldKind, meld_tiles_valid
from services.rules.ready import NO_TRIPLET, ready_blockers
from services.rules.scoring.shandong import score
from services.rules.tiles import parse_tiles
from services.rules.variants import get_variant


def valid(kind: MeldKind, text: str) -> str | None:
    return meld_tiles_valid(kind, tuple(sorted(parse_tiles(text))))


@pytest.mark.parametrize("run", ["123m", "345p", "789s", "678m", "123s", "789p"])
def test_three_consecutive_tiles_of_one_suit_are_a_chi(run: str) -> None:
    assert valid("chi", run) is None


@pytest.mark.parametrize("tiles", ["12m", "1234m", "3m", "12345m"])
def test_a_chi_of_other_than_three_tiles_is_refused(tiles: str) -> None:
    assert valid("chi", tiles) == "a chi has three tiles"


@pytest.mark.parametrize("tiles", ["135m", "124s", "113m", "122p", "111s", "249p"])
def test_three_tiles_that_are_not_a_run_are_no_chi(tiles: str) -> None:
    assert valid("chi", tiles) == "a chi is three consecutive tiles of one suit"


def test_honours_cannot_be_chowed() -> None:
    """东 with 南西 is three consecutive tile numbers but no 顺: 字牌 have no order."""
    assert valid("chi", "123z") == "a chi is three consecutive tiles of one suit"
    assert valid("chi", "234z") == "a chi is three consecutive tiles of one suit"


def test_a_run_over_the_end_of_a_suit_is_refused() -> None:
    assert valid("chi", "89m1p") == "a chi is three consecutive tiles of one suit"
    assert valid("chi", "9m1p2p") == "a chi is three consecutive tiles of one suit"
    assert valid("chi", "9s1z2z") == "a chi is three consecutive tiles of one suit"


@pytest.mark.parametrize(
    ("kind", "tiles"),
    [("pong", "555p"), ("kong", "5555p"), ("added_kong", "1111z"), ("concealed_kong", "7777z")],
)
def test_copies_of_one_tile_are_a_pong_or_a_kong(kind: MeldKind, tiles: str) -> None:
    assert valid(kind, tiles) is None


@pytest.mark.parametrize(
    ("kind", "tiles", "why"),
    [
        ("pong", "55p", "a pong has 3 tiles"),
        ("pong", "5555p", "a pong has 3 tiles"),
        ("kong", "555p", "a kong has 4 tiles"),
        ("added_kong", "55555p", "a added_kong has 4 tiles"),
        ("concealed_kong", "555p", "a concealed_kong has 4 tiles"),
        ("pong", "556p", "a pong is 3 copies of one tile"),
        ("kong", "1112z", "a kong is 4 copies of one tile"),
    ],
)
def test_a_pong_or_kong_of_the_wrong_size_or_of_two_kinds_is_refused(
    kind: MeldKind, tiles: str, why: str
) -> None:
    assert valid(kind, tiles) == why


@pytest.mark.parametrize("flower", ["1f", "4f", "8f"])
@pytest.mark.parametrize("kind", [k for k in MELD_KINDS if k != "chi"])
def test_flowers_form_no_sets(kind: MeldKind, flower: str) -> None:
    size = 3 if kind == "pong" else 4
    assert valid(kind, flower * size) == "flowers form no sets"


def test_a_chi_is_known_by_its_lowest_tile() -> None:
    """山东 一条龙 ("123, 456 and 789 of one suit as three runs") counts a 吃 of 123m as the run
    that starts at 1m: the meld's tile is the run's start, not its middle or end."""
    chi = meld("chi", "123m", 2)
    assert chi.tile == parse_tiles("1m")[0]
    ctx = win_context("shandong", "456m789m234s5z", "5z", discarder=1, dealer=3, melds=(chi,))
    assert "一条龙" in score(ctx).patterns


@pytest.mark.parametrize("kind", ["pong", "kong", "added_kong", "concealed_kong"])
def test_every_pong_and_kong_is_a_triplet_for_the_ready_conditions(kind: MeldKind) -> None:
    """README 5: "A kong is a 刻": a 补杠 (added kong) meets the 刻 condition of 听 as a 碰 does."""
    tiles = tuple(parse_tiles("2222p" if "kong" in kind else "222p"))
    melds = [Meld(kind, tiles), Meld("chi", tuple(parse_tiles("789m")))]
    found = ready_blockers(get_variant("mudanjiang"), parse_tiles("11s345s67m"), melds)
    assert NO_TRIPLET not in found


def test_a_chi_is_no_triplet_for_the_ready_conditions() -> None:
    melds = [Meld("chi", tuple(parse_tiles("234p"))), Meld("chi", tuple(parse_tiles("789m")))]
    found = ready_blockers(get_variant("mudanjiang"), parse_tiles("11s345s67m"), melds)
    assert NO_TRIPLET in found
