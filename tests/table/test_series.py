"""From hand to hand: who deals next (decision 13), the series' scores, Shandong's 荒庄 streak."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import StartHand
from services.rules.table.deal import random_seat

from .builders import (
    BAO_VARIANTS,
    Table,
    play_out,
    seat_one_chows_1m_and_declares_ready,
    tail_for,
    wall_for,
)

QUIET = "147p258s369p4s5m6m8m"
READY_ON_7P = "23m555p789s11s68p9m"


def bao_win(variant: str, table: Table | None = None, dealer: int = 0) -> Table:
    """Seat 1 吃s 1m from seat 0, declares 听 on 7p and wins on seat 2's 7p."""
    table = table or Table(variant)
    if dealer == 0:
        table.start(
            {0: QUIET + "1m", 1: READY_ON_7P}, draws=["7p"], tail=tail_for(variant), dealer=0
        )
    else:  # seat 1 deals: it throws 2s first, seat 0 throws 1m on its turn
        table.start(
            {1: READY_ON_7P + "2s", 0: QUIET[:-2] + "1m"},
            draws=["8p", "8p", "6p", "7p"],
            tail=tail_for(variant),
            dealer=1,
        )
        table.play(1, "2s")
        table.play(2, "8p")
        table.play(3, "8p")
    chow_ready_and_win(table)
    assert table.last(ev.HandWon).wins[0].seat == 1
    return table


def chow_ready_and_win(table: Table) -> None:
    """Seat 0 throws 1m; seat 1 吃s it, declares 听 on 7p and wins on seat 2's 7p."""
    seat_one_chows_1m_and_declares_ready(table)
    table.discard(2, "7p")
    table.pass_all(but=[1])
    table.win(1)


def test_harbin_a_winner_who_is_not_the_dealer_deals_next() -> None:
    table = bao_win("harbin")
    assert table.last(ev.HandSettled).next_dealer == 1
    table.do(StartHand(wall=wall_for("harbin"), dice=(1, 1, 1, 1)))
    assert table.hand.dealer == 1 and table.hand.number == 2


def test_harbin_the_dealer_keeps_the_deal_when_it_wins() -> None:
    table = bao_win("harbin", dealer=1)
    assert table.last(ev.HandSettled).next_dealer == 1


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_drawn_hand_keeps_the_dealer_in_the_bao_variants(variant: str) -> None:
    table = Table(variant)
    table.start(
        {0: QUIET + "1m", 1: "9s", 2: "9s", 3: "9s"}, tail=tail_for(variant, bao="9s"), dealer=0
    )
    play_out(table)
    assert table.last(ev.HandSettled).next_dealer == 0
    table.do(StartHand(seed="next-hand-seed"))
    assert table.hand.dealer == 0


def test_mudanjiang_after_a_win_the_next_dealer_is_drawn_at_random() -> None:
    table = bao_win("mudanjiang")
    assert table.last(ev.HandSettled).next_dealer is None
    table.do(StartHand(seed="random-dealer-seed"))
    assert table.hand.dealer == random_seat("random-dealer-seed")


def test_shandong_the_winner_deals_next_and_a_drawn_hand_passes_the_deal_on() -> None:
    table = Table("shandong")
    table.start({0: "147p258s369p6z7z3s9s1m", 1: "123m789m789s11z46p"}, draws=["5p"])
    table.play(0, "1m")
    table.win(1)
    assert table.last(ev.HandSettled).next_dealer == 1
    table.do(StartHand(wall=wall_for("shandong"), dice=(1, 1, 1, 1)))
    assert table.hand.dealer == 1
    play_out(table)
    assert table.last(ev.HandSettled).next_dealer == 2


def test_shandong_several_winners_on_one_discard_give_the_deal_to_the_discarder() -> None:
    from .test_claims import open_window_on_5p

    table = open_window_on_5p("shandong", declare=False)
    table.win(1)
    table.pass_(2)
    table.win(3)
    assert len(table.last(ev.HandWon).wins) == 2
    assert table.last(ev.HandSettled).next_dealer == 0


def _shandong_self_draw_amount(drawn_hands: int) -> int:
    table = Table("shandong")
    for _ in range(drawn_hands):
        table.start(dealer=0, dice=(1, 1, 1, 1))
        play_out(table)
    assert table.state.series.drawn_streak == drawn_hands
    table.start(
        {0: "147p258s369p6z7z3s9s1m", 1: "123m789m789s11z46p"},
        draws=["5p"],
        dealer=0,
        dice=(1, 1, 1, 1),
    )
    table.play(0, "1m")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert table.last(ev.HandSettled).drawn_streak == 0
    return won.payments[1]


def test_shandong_each_drawn_hand_in_a_row_doubles_the_next_win_up_to_32_times() -> None:
    base = _shandong_self_draw_amount(0)
    assert _shandong_self_draw_amount(1) == 2 * base
    assert _shandong_self_draw_amount(2) == 4 * base
    assert _shandong_self_draw_amount(6) == 32 * base


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"])
def test_the_series_adds_up_each_hands_payments(variant: str) -> None:
    table = Table(variant)
    table.start(dealer=0)
    play_out(table)
    settled = table.last(ev.HandSettled)
    assert table.state.series.scores == tuple(
        p + k for p, k in zip(settled.payments, settled.hand_payments, strict=True)
    )
    assert table.state.series.hands_played == 1 and table.state.hand_over


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "shanghai", "tanggu"])
def test_a_hand_cannot_start_while_one_is_in_play(variant: str) -> None:
    table = Table(variant)
    table.start(dealer=0)
    assert "in play" in table.refuse(StartHand(seed="another-seed-1"))
