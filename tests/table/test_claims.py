"""The claim window: priority classes per variant (decision 2), ties to the seat nearest the
discarder, no double win (截胡) in 牡丹江/哈尔滨/塘沽, 一炮多响 in 山东/上海."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import Chow, DeclareWin, Pung

from .builders import BAO_VARIANTS, Table, seat_one_chows_1m_and_declares_ready, tail_for

DEALER_QUIET = "147p258s369p4s5m6m8m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws
READY_BY_CHI = "23m555p789s11s46p9m"  # 吃 1m with 23m, throw 9m: waits on 5p (and 1s)


def bao_table(
    variant: str, hands: dict[int, str], first: str, draws: list[str] | None = None
) -> Table:
    table = Table(variant)
    table.start(
        {0: DEALER_QUIET + first, **hands}, draws=draws or ["8p", "8p"], tail=tail_for(variant)
    )
    return table


# -- 吃听 against 碰 and 杠 --------------------------------------------------------------------
@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_chi_ting_beats_a_pong_on_the_same_discard(variant: str) -> None:
    table = bao_table(variant, {2: READY_BY_CHI, 3: "11m2p2p3s3s6s6s7m7m9s4m1p"}, "1m")
    table.discard(0, "1m")
    assert "ready_chi" in table.options_of(2) and "pong" in table.options_of(3)
    table.pung(3)
    table.chow(2, "23m", ready=True)
    table.pass_all()
    claimed = table.last(ev.TileClaimed)
    assert (claimed.seat, claimed.kind, claimed.ready) == (2, "chi", True)
    assert table.seat(3).melds == ()


def test_mudanjiang_chi_ting_beats_a_kong() -> None:
    table = bao_table("mudanjiang", {2: READY_BY_CHI, 3: "111m2p2p3s3s6s6s7m9s4m1p"}, "1m")
    table.discard(0, "1m")
    assert "kong" in table.options_of(3)
    table.kong(3)
    table.chow(2, "23m", ready=True)
    table.pass_all()
    assert (table.last(ev.TileClaimed).seat, table.last(ev.TileClaimed).kind) == (2, "chi")


def test_harbin_a_kong_beats_chi_ting() -> None:
    table = bao_table("harbin", {2: READY_BY_CHI, 3: "111m2p2p3s3s6s6s7m9s4m1p"}, "1m")
    table.discard(0, "1m")
    table.kong(3)
    table.chow(2, "23m", ready=True)
    table.pass_all()
    assert (table.last(ev.TileClaimed).seat, table.last(ev.TileClaimed).kind) == (3, "kong")
    assert table.seat(2).ready is None and not table.seat(2).must_ready


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_chi_ting_beats_a_plain_chow(variant: str) -> None:
    table = bao_table(variant, {1: "23m147s258m369s7z7z", 2: READY_BY_CHI}, "1m")
    table.discard(0, "1m")
    assert table.options_of(1) == ("chi",)
    table.chow(1, "23m")
    table.chow(2, "23m", ready=True)
    table.pass_all()
    assert table.last(ev.TileClaimed).seat == 2


def test_mudanjiang_chi_ting_by_pong_and_by_chow_tie_to_the_nearest_seat() -> None:
    # seat 2 may 吃听 by 吃, seat 3 by 碰; they are one class, seat 2 is nearer to seat 0
    table = bao_table("mudanjiang", {2: READY_BY_CHI, 3: "11m555s789p22p46s9p"}, "1m")
    table.discard(0, "1m")
    assert "ready_pong" in table.options_of(3)
    table.pung(3, ready=True)
    table.chow(2, "23m", ready=True)
    table.pass_all()
    assert (table.last(ev.TileClaimed).seat, table.last(ev.TileClaimed).kind) == (2, "chi")


def test_mudanjiang_two_chi_ting_claims_tie_to_the_seat_nearest_the_discarder() -> None:
    # seat 1 吃听s by 吃, seat 3 by 碰: one class, seat 1 is nearer to seat 0
    table = bao_table("mudanjiang", {1: "23m555p789s11s46p9m", 3: "11m555s789p22p46s9p"}, "1m")
    table.discard(0, "1m")
    table.pung(3, ready=True)
    table.chow(1, "23m", ready=True)
    table.pass_all()
    assert table.last(ev.TileClaimed).seat == 1


# -- two ready seats on one discard (宝 variants) --------------------------------------------
# seat 1: 吃 1m (23m), throw 9m → waits on 7p. seat 3: 吃 5s from seat 2 (46s), throw 1p →
# waits on 7p. Then seat 0 throws 7p.
SEAT1_7P = "23m555p789s11s68p9m"
SEAT3_7P = "46s222m68p99s345m1p"
SEAT2 = "5s" + "3p3p7s7s1s2p2p4m7m9p3s5m"


def two_ready_on_7p(variant: str, seat2: str = SEAT2) -> Table:
    table = Table(variant)
    table.start(
        {0: DEALER_QUIET + "1m", 1: SEAT1_7P, 2: seat2, 3: SEAT3_7P},
        draws=["8p", "6s"],
        tail=tail_for(variant),
    )
    seat_one_chows_1m_and_declares_ready(table)
    table.discard(2, "5s")
    table.pass_all(but=[3])
    table.chow(3, "46s", ready=True)
    table.discard(3, "1p")
    table.pass_all()
    assert table.seat(1).ready == table.seat(3).ready == "plain"
    assert table.hand.turn == 0 and table.drawn(0) == "6s"
    return table


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_no_double_win_the_ready_seat_nearest_the_discarder_takes_it(variant: str) -> None:
    table = two_ready_on_7p(variant)
    table.discard(0, "7p")
    assert table.options_of(1) == ("win",) and "win" in table.options_of(3)
    table.win(3)
    events = table.win(1)
    won = table.of_type(ev.HandWon, events)
    assert len(won) == 1 and [w.seat for w in won[0].wins] == [1]
    assert won[0].wins[0].discarder == 0 and not won[0].wins[0].self_drawn
    assert table.hand.step == "ended"


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seats_win_beats_a_pong_on_the_same_discard(variant: str) -> None:
    table = two_ready_on_7p(variant, seat2=SEAT2.replace("3p3p", "7p7p"))
    table.discard(0, "7p")
    assert "pong" in table.options_of(2)
    table.pung(2)
    table.pass_(3)
    table.win(1)
    assert table.last(ev.HandWon).wins[0].seat == 1 and table.seat(2).melds == ()


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_seat_that_passes_its_win_does_not_win(variant: str) -> None:
    table = two_ready_on_7p(variant)
    table.discard(0, "7p")
    table.pass_(1)
    table.win(3)
    assert [w.seat for w in table.last(ev.HandWon).wins] == [3]


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_seat_not_ready_cannot_win_on_a_discard(variant: str) -> None:
    # seat 2 would complete 123m 555p 789s 11s + 46p on 5p, but never declared 听
    table = bao_table(variant, {1: "123m555p789s11s46p"}, "5p")
    table.discard(0, "5p")
    assert "win" not in table.options_of(1)
    assert table.refuse(DeclareWin(seat=1)) if table.window else True


# -- the other variants ---------------------------------------------------------------------
# seat 1 and seat 3 both complete on 5p; seat 2 could 碰 it. seat 0 throws 5p at its second turn.
SEAT1_5P = "123m789m789s11z46p"
SEAT3_5P = "123s789p456s22z46p"
SEAT2_55P = "55p1m4m7m2s5s8s3m6m9m1z5z"


def open_window_on_5p(variant: str, declare: bool) -> Table:
    table = Table(variant)
    dealer = "147p258s369p1z6z7z3s" + "9p"
    table.start(
        {0: dealer, 1: SEAT1_5P, 2: SEAT2_55P, 3: SEAT3_5P},
        draws=["6z", "6z", "6z", "5p"],
        tail=tail_for(variant, ["2z"]),
    )
    ready = "plain" if declare else None
    table.play(0, "9p")  # seat 1 draws 6z
    table.discard(1, "6z", ready=ready)
    table.pass_all()
    table.play(2, "6z")  # seat 3 draws 6z
    table.discard(3, "6z", ready=ready)
    table.pass_all()
    assert table.hand.turn == 0 and table.drawn(0) == "5p"
    table.discard(0, "5p")
    return table


@pytest.mark.parametrize("variant", ["shandong", "shanghai"])
def test_one_discard_may_win_for_several_seats(variant: str) -> None:
    """一炮多响: every seat that declares 胡 on the discard wins, the discarder pays each."""
    table = open_window_on_5p(variant, declare=variant == "shanghai")
    assert (
        "win" in table.options_of(1)
        and "win" in table.options_of(3)
        and "pong" in table.options_of(2)
    )
    table.win(3)
    table.pung(2)
    events = table.win(1)
    won = table.of_type(ev.HandWon, events)
    assert len(won) == 1 and [w.seat for w in won[0].wins] == [1, 3]
    assert all(w.discarder == 0 for w in won[0].wins)
    assert table.seat(2).melds == ()


@pytest.mark.parametrize("variant", ["shandong", "shanghai"])
def test_several_winners_on_one_discard_are_each_paid(variant: str) -> None:
    table = open_window_on_5p(variant, declare=variant == "shanghai")
    table.win(3)
    table.pass_(2)
    table.win(1)
    settled = table.last(ev.HandSettled)
    wins = table.last(ev.HandWon).wins
    assert sum(settled.payments) == 0
    for win in wins:
        assert win.payments[win.seat] > 0 and win.payments[0] < 0
    assert settled.payments == tuple(sum(w.payments[s] for w in wins) for s in range(4))


def test_tanggu_has_no_double_win_the_nearest_seat_takes_the_discard() -> None:
    table = open_window_on_5p("tanggu", declare=False)
    table.win(3)
    table.pass_(2)
    table.win(1)
    assert [w.seat for w in table.last(ev.HandWon).wins] == [1]


@pytest.mark.parametrize("variant", ["shandong", "shanghai", "tanggu"])
def test_a_win_beats_a_pong_on_the_same_discard(variant: str) -> None:
    table = open_window_on_5p(variant, declare=variant == "shanghai")
    table.pung(2)
    table.pass_(1)
    table.win(3)
    assert [w.seat for w in table.last(ev.HandWon).wins] == [3]
    assert table.seat(2).melds == ()


def test_shanghai_a_seat_that_has_not_declared_ready_cannot_win_on_a_discard() -> None:
    table = open_window_on_5p("shanghai", declare=False)
    assert "win" not in table.options_of(1) and "win" not in table.options_of(3)


@pytest.mark.parametrize("variant", ["shandong", "tanggu"])
def test_winning_does_not_need_ready_where_it_is_optional(variant: str) -> None:
    table = open_window_on_5p(variant, declare=False)
    assert "win" in table.options_of(1)


@pytest.mark.parametrize("variant", ["shandong", "shanghai", "tanggu"])
def test_a_kong_and_a_pong_are_one_class_and_a_pong_beats_a_chow(variant: str) -> None:
    table = open_window_on_5p(variant, declare=variant == "shanghai")
    table.pass_(1)
    table.pass_(3)
    table.pung(2)
    assert table.last(ev.TileClaimed).seat == 2


def test_an_answer_already_given_cannot_be_changed() -> None:
    table = open_window_on_5p("shandong", declare=False)
    table.pass_(1)
    assert "already answered" in table.refuse(DeclareWin(seat=1))


def test_a_seat_without_options_cannot_answer_the_window() -> None:
    table = open_window_on_5p("shandong", declare=False)
    assert "no claim" in table.refuse(Pung(seat=0))
    assert "cannot" in table.refuse(Chow(seat=3, tiles=("4p", "6p")))
