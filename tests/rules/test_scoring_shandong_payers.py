"""山东: who pays a win (README decision 8): ``A 自摸 is paid by each other seat; 抢杠, 杠爆 and
承包 make the liable seat pay what all three would have paid on a 自摸 (three shares, 包三家)``."""

from __future__ import annotations

from hands import meld, win_context

from services.rules.scoring.shandong import chengbao_seat, liable_seat, score

PLAIN = "123m456p789s234s5z"  # 推倒和 on 5z, worth (5 + 0) × 1


def test_seat_zero_may_be_the_discarder_of_another_seats_win() -> None:
    """Seats are 0–3: seat 0 dealing in pays like any other seat."""
    s = score(win_context("shandong", PLAIN, "5z", seat=2, discarder=0, dealer=3))
    assert s.payments == (-5, 0, 5, 0)


def test_a_meld_naming_the_winner_as_its_feeder_makes_nobody_liable() -> None:
    """承包 is a seat that fed the winner (给吃/碰/杠了3口): the winner never feeds itself."""
    fed_by_winner = tuple(meld("pong", t, 0) for t in ("111p", "222p", "333p"))
    melds = (*fed_by_winner, meld("pong", "999m", 1))
    ctx = win_context("shandong", "5z", "5z", seat=0, dealer=3, melds=melds)
    assert chengbao_seat(ctx) is None
    assert liable_seat(ctx) is None
    assert score(ctx).payments[1:] == (score(ctx).payments[1],) * 3
