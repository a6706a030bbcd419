"""塘沽 scoring edges (seeds/004, README decisions 8–10) that the first tests left open (issue 28)."""

from __future__ import annotations

import pytest
from hands import meld, win_context

from services.rules.scoring.base import ScoringError
from services.rules.scoring.tanggu import hand_scores, kong_scores, score

NO_MELDS: tuple[tuple, ...] = ((), (), (), ())


def test_a_qi_xiao_dui_may_hold_four_of_a_kind_as_two_pairs() -> None:
    """七小对 (+4): four of a kind counts as two of the seven pairs (``quad_as_two_pairs``)."""
    s = score(win_context("tanggu", "111133m55p77p99s1z", "1z", discarder=1))
    assert "七小对" in s.patterns


def test_kongs_alone_are_the_hand_scores_when_nobody_announced_du_bao_or_shang_da_tai() -> None:
    """局分: 独抱 and 上大台 are paid only by a seat that announced or declared them."""
    melds = ((meld("kong", "5555s", 1),), (), (meld("concealed_kong", "1111m"),), ())
    assert hand_scores(melds) == kong_scores(melds) == (2, -6, 10, -6)


def test_a_negative_shang_da_tai_count_is_refused() -> None:
    """上大台 is declared 0, 1 or 2 times (每次+5): no count below none."""
    with pytest.raises(ScoringError, match="上大台"):
        hand_scores(NO_MELDS, shang_da_tai=(-1, 0, 0, 0))


def test_a_chi_or_a_pong_earns_no_kong_score() -> None:
    """局分 counts kongs only (明杠 2, 暗杠 4): a 吃 or a 碰 is paid nothing."""
    melds = ((meld("chi", "123m", 3), meld("pong", "777p", 3)), (), (), ())
    assert kong_scores(melds) == (0, 0, 0, 0)
    assert hand_scores(melds) == (0, 0, 0, 0)


def test_a_drawn_tile_marked_wild_reads_as_a_hun() -> None:
    """A drawn 混 is wild: marked so, the winning tile stands for the 5m the pair lacks, and the
    hand holds a 混, so no 素和."""
    ctx = win_context("tanggu", "123m456p789s234s5m", "7z", win_tile_is_wild=True)
    assert score(ctx).patterns == ("平和", "自摸", "门清")


@pytest.mark.parametrize("concealed", ["123m456p789s234s", "123m456p789s234s5z5z"])
def test_a_hand_of_3n_or_3n_plus_1_tiles_is_refused_by_its_size(concealed: str) -> None:
    """With the winning tile, the concealed tiles form 3n+2 (sets and the pair)."""
    ctx = win_context("tanggu", concealed, "5z", discarder=2)
    with pytest.raises(ScoringError, match="size"):
        score(ctx)
