"""What every scorer refuses (issue 28): input no table can produce, settled wrongly if let by.

A win is paid by losers to the winner: on a discard ``the discarder alone`` or every other seat,
on 自摸 each other seat (README decision 8). So the winner is never its own discarder, every
seat named is one of the four, and what is settled sums to zero with the winner collecting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from hands import meld, win_context

from services.rules.scoring import bao, shandong, shanghai, tanggu
from services.rules.scoring.base import ScoringError, Settlement, WinContext

Scorer = Callable[[WinContext], Settlement]
ALL_READY = (True, True, True, True)

# one plain win per scorer: seat 0 wins on seat 2's discard, seat 3 deals
PLAIN: dict[str, tuple[Scorer, WinContext]] = {
    "shandong": (
        shandong.score,
        win_context("shandong", "123m456p789s234s5z", "5z", discarder=2, dealer=3),
    ),
    "tanggu": (
        tanggu.score,
        win_context("tanggu", "123m456p789s234s5z", "5z", discarder=2, dealer=3),
    ),
    "shanghai": (
        shanghai.score,
        win_context("shanghai", "123m456p789s234s5z", "5z", discarder=2, dealer=3, ready=ALL_READY),
    ),
    "mudanjiang": (
        bao.score,
        win_context(
            "mudanjiang",
            "123m789s234s5z",
            "5z",
            discarder=2,
            dealer=3,
            ready=ALL_READY,
            melds=(meld("pong", "222p", 1),),
        ),
    ),
}
VARIANTS = sorted(PLAIN)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_plain_win_of_each_scorer_is_paid_by_the_discarder_to_the_winner(
    variant: str,
) -> None:
    """The fixture itself: the winner collects what the discarder pays, nothing is left over."""
    scorer, ctx = PLAIN[variant]
    s = scorer(ctx)
    assert s.payments[0] > 0
    assert s.payments[2] < 0
    assert sum(s.payments) == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_winner_who_is_also_the_discarder_is_refused(variant: str) -> None:
    """Nobody wins on their own discard: a settlement of it would have no loser who pays."""
    scorer, ctx = PLAIN[variant]
    with pytest.raises(ScoringError, match="discard"):
        scorer(replace(ctx, discarder=0))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("discarder", [-1, 4, 5])
def test_a_discarder_that_is_no_seat_is_refused(variant: str, discarder: int) -> None:
    """Seats are 0–3: a discarder of -1 would make seat 3 pay, one of 4 would make nobody pay.

    Found by this test: 山东 charged seat 3 for discarder -1 and 塘沽 settled a win nobody paid;
    both now refuse the discarder as the 宝 scorer already did.
    """
    scorer, ctx = PLAIN[variant]
    with pytest.raises(ScoringError, match="seat"):
        scorer(replace(ctx, discarder=discarder))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seat", [-1, 4, 5])
def test_a_winner_that_is_no_seat_is_refused(variant: str, seat: int) -> None:
    scorer, ctx = PLAIN[variant]
    with pytest.raises(ScoringError, match="seat"):
        scorer(replace(ctx, seat=seat))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_discard_win_without_a_discarder_is_refused(variant: str) -> None:
    """On a discard ``the discarder alone`` pays (or, 上海, every other seat): it must be named."""
    scorer, ctx = PLAIN[variant]
    with pytest.raises(ScoringError, match="discarder"):
        scorer(replace(ctx, discarder=None))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("change", [-3, 3, -1, 1])
def test_a_hand_of_the_wrong_size_is_refused_by_every_scorer(variant: str, change: int) -> None:
    """A winning hand is four sets and a pair: 14 tiles with the winning one, a kong counting 3."""
    scorer, ctx = PLAIN[variant]
    concealed = ctx.concealed[:change] if change < 0 else ctx.concealed + ctx.concealed[:change]
    with pytest.raises(ScoringError):
        scorer(replace(ctx, concealed=concealed))


def test_shandong_refuses_a_meld_too_many_as_a_hand_of_the_wrong_size() -> None:
    _, ctx = PLAIN["shandong"]
    with pytest.raises(ScoringError, match="14 tiles"):
        shandong.score(replace(ctx, melds=(meld("pong", "111z", 1),)))


def test_shanghai_refuses_a_meld_too_many_as_a_hand_of_the_wrong_size() -> None:
    _, ctx = PLAIN["shanghai"]
    with pytest.raises(ScoringError, match="14 tiles"):
        shanghai.score(replace(ctx, melds=(meld("pong", "111z", 1),)))


def test_tanggu_refuses_four_concealed_sets_beside_a_meld() -> None:
    """塘沽: n + melds = 4 sets; four concealed sets and a pair leave no room for a 吃."""
    _, ctx = PLAIN["tanggu"]
    with pytest.raises(ScoringError, match="size"):
        tanggu.score(replace(ctx, melds=(meld("chi", "123m", 1),)))


def test_tanggu_accepts_fewer_melds_for_callers_keeping_a_fengtou_kong_apart() -> None:
    """塘沽: a 风头杠 kept apart from the melds leaves three sets and a pair, still a win."""
    s = tanggu.score(win_context("tanggu", "123m456p789s5z", "5z", discarder=2, dealer=3))
    assert s.payments[0] > 0


def test_a_negative_drawn_streak_is_refused() -> None:
    """荒庄: ×2 per consecutive 荒庄 before this hand; a count of them is never negative."""
    _, ctx = PLAIN["shandong"]
    with pytest.raises(ScoringError, match="荒庄"):
        shandong.score(replace(ctx, drawn_streak=-1))
    with pytest.raises(ScoringError, match="荒庄"):
        shandong.drawn_factor(-1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_seat_zero_may_deal_in_to_another_seats_win(variant: str) -> None:
    """Seats are 0–3: seat 0 as the discarder of seat 2's win is a discarder like the others."""
    scorer, ctx = PLAIN[variant]
    s = scorer(replace(ctx, seat=2, discarder=0))
    assert s.payments[2] > 0
    assert s.payments[0] < 0


@pytest.mark.parametrize("variant", ["shandong", "shanghai"])
def test_a_hand_a_set_short_is_refused_even_when_it_reads_as_sets_and_a_pair(
    variant: str,
) -> None:
    """A winning hand holds 14 tiles (a kong counting 3): three sets and a pair are no win."""
    scorer, ctx = PLAIN[variant]
    short = replace(ctx, concealed=ctx.concealed[:9] + ctx.concealed[12:])  # 123m456p789s5z
    with pytest.raises(ScoringError, match="14 tiles"):
        scorer(short)
