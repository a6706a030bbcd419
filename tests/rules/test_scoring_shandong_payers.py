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


def test_a_self_drawn_win_by_seat_two_is_paid_by_every_other_seat() -> None:
    """A 自摸 is paid by each other seat: the seats before the winner as those after it."""
    s = score(win_context("shandong", PLAIN, "5z", seat=2, dealer=3))
    assert s.payments == (-5, -5, 15, -5)


def test_chengbao_by_a_seat_before_the_winner() -> None:
    """承包: the feeder pays for all whichever seat it is; here seat 1 fed seat 3."""
    fed_by_1 = tuple(meld("pong", t, 1) for t in ("111p", "222p", "333p"))
    ctx = win_context(
        "shandong", "5z", "5z", seat=3, dealer=0, melds=(*fed_by_1, meld("pong", "999m", 2))
    )
    assert chengbao_seat(ctx) == 1
    assert score(ctx).payments == (0, -30, 0, 30)  # (5 + 0) × 碰碰和 2, three shares


def test_four_melds_fed_by_one_seat_are_chengbao_too() -> None:
    """给吃/碰/杠了3口: three *or more* of the winner's melds fed by one seat."""
    melds = tuple(meld("pong", t, 2) for t in ("111p", "222p", "333p", "999m"))
    ctx = win_context("shandong", "5z", "5z", seat=0, dealer=3, melds=melds)
    assert chengbao_seat(ctx) == 2
    assert liable_seat(ctx) == 2


def test_gang_bao_needs_the_win_on_the_kong_replacement() -> None:
    """杠爆 (``kong_fed_by`` on a self-drawn win after a kong): without the replacement tile the
    seat whose discard was kongged is liable for nothing, and each other seat pays its share."""
    ctx = win_context("shandong", PLAIN, "5z", seat=0, dealer=3, kong_fed_by=1)
    assert liable_seat(ctx) is None
    assert score(ctx).payments == (15, -5, -5, -5)
