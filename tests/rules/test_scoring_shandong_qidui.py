"""山东 七对 (``002``: 七对 和牌牌型全部由七个对子组成) and four of a kind inside it.

The engine's reading, an option of ``ShandongScoring``: four of a kind held concealed counts as
two of the seven pairs (``quad_as_two_pairs``, on by default); off, such a hand is no 七对.
"""

from __future__ import annotations

import pytest
from hands import win_context

from services.rules.scoring.base import ScoringError
from services.rules.scoring.shandong import ShandongScoring, score, score_with

FOUR_OF_A_KIND = "111133m55p77p99s1z"  # 1111m as two pairs, 33m 55p 77p 99s, waits on 1z


def test_a_qi_dui_holding_four_of_a_kind_counts_it_as_two_pairs() -> None:
    s = score(win_context("shandong", FOUR_OF_A_KIND, "1z", discarder=1, dealer=3))
    assert s.patterns == ("七对",)
    assert s.fan == 2
    assert s.payments == (10, -10, 0, 0)


def test_with_quad_as_two_pairs_off_four_of_a_kind_is_no_qi_dui() -> None:
    ctx = win_context("shandong", FOUR_OF_A_KIND, "1z", discarder=1, dealer=3)
    with pytest.raises(ScoringError, match="七对"):
        score_with(ctx, ShandongScoring(quad_as_two_pairs=False))


def test_the_four_of_a_kind_may_be_completed_by_the_winning_tile() -> None:
    s = score(win_context("shandong", "11133m55p77p99s11z", "1m", discarder=1, dealer=3))
    assert "七对" in s.patterns


def test_seven_pairs_of_one_suit_and_honours_are_qi_dui_and_hun_yi_se() -> None:
    s = score(win_context("shandong", "113355m7799m11z2z", "2z", discarder=1, dealer=3))
    assert set(s.patterns) == {"七对", "混一色"}
    assert s.fan == 4


def test_six_pairs_and_two_singles_are_no_qi_dui() -> None:
    with pytest.raises(ScoringError):
        score(win_context("shandong", "1133m55p77p99s12z", "1z", discarder=1, dealer=3))
