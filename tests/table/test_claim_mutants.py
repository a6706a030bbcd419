"""Claims that the mutation run of ``services/rules/table/claims.py`` found no test holding: a plain
吃 only from the seat before, 吃听 only in 牡丹江/哈尔滨 and open to a hand already one tile from
winning, and a 明杠 on a discard after 听 in 哈尔滨 alone (docs/testing.md, issue 28)."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev

from .builders import BAO_VARIANTS, VARIANTS, Table, tail_for

DEALER_QUIET = "147p258s369p4s5m6m8m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws


# -- a plain 吃 is the 下家's alone ------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_plain_chow_is_claimed_from_the_seat_before_never_from_the_next_or_opposite_seat(
    variant: str,
) -> None:
    # 004: 吃牌只限于吃上家打出的牌，下家或对家打出的均不可吃。
    # Seat 0 holds 23m: it may not 吃 the 1m of seat 1 (its 下家) nor the 4m of seat 2 (对家),
    # and may 吃 the 1m of seat 3 (its 上家).
    table = Table(variant)
    table.start({0: "23m147p258s369p7z9m" + "5s"}, draws=["1m", "4m", "1m"], tail=tail_for(variant))
    table.play(0, "5s")
    table.discard(1, "1m")
    assert table.options_of(0) == ()
    table.pass_all()
    table.discard(2, "4m")
    assert table.options_of(0) == ()
    table.pass_all()
    table.discard(3, "1m")
    assert table.options_of(0) == ("chi",)


# -- 吃听 ---------------------------------------------------------------------------------------
READY_BY_CHI = "23m555p789s11s46p9m"  # 吃 1m with 23m, throw 9m: waits on 5p
ONE_FROM_WINNING_CLOSED = "234m555p789s11s46p"  # waits on 5p already, but 门清


@pytest.mark.parametrize("variant", ["shandong", "shanghai", "tanggu"])
def test_without_chi_ting_a_chow_that_would_make_a_hand_ready_is_still_the_next_seats_alone(
    variant: str,
) -> None:
    # decision 3: 吃听 (Mudanjiang, Harbin) claims a discard from any seat; elsewhere a 吃 is the
    # 下家's (002: 上家打出牌与他的下家手中的牌可以组成一副顺子，下家可以吃进该牌).
    table = Table(variant)
    table.start({0: DEALER_QUIET + "1m", 2: READY_BY_CHI}, draws=["8p"], tail=tail_for(variant))
    table.discard(0, "1m")
    assert table.options_of(2) == ()


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_closed_hand_already_one_tile_from_winning_may_chi_ting_from_any_seat(
    variant: str,
) -> None:
    # 000: 如果吃完以后就可以听牌、那就可以任意吃哪家; 必需开门…在开门前（门清）是不能听牌的。
    # Seat 2 waits on 5p but may not declare 听 closed; a 吃 of 1m opens it and, throwing 4m,
    # leaves it waiting on 5p: 吃听, although seat 2 is not seat 0's 下家.
    table = Table(variant)
    table.start(
        {0: DEALER_QUIET + "1m", 2: ONE_FROM_WINNING_CLOSED}, draws=["8p"], tail=tail_for(variant)
    )
    table.discard(0, "1m")
    assert table.options_of(2) == ("ready_chi",)
    table.chow(2, "23m", ready=True)
    table.pass_all()
    claimed = table.last(ev.TileClaimed)
    assert (claimed.seat, claimed.kind, claimed.ready) == (2, "chi", True)
    table.discard(2, "4m", ready="plain")
    assert table.seat(2).ready == "plain"


# -- a 明杠 on a discard after 听 ----------------------------------------------------------------
READY_ON_7P = "23m555p789s11s68p9m"  # 吃 1m with 23m, throw 9m: 555p 789s 11s 68p waits on 7p
SHANGHAI_DEALER = "147p258s369p6z7z3s9s"
READY_ON_5P = "555m789m789s22z46p"  # throw the drawn 6z: waits on 5p; holds 555m


def ready_seat_one_holding_three(variant: str) -> tuple[Table, str]:
    """Seat 1 declares 听 holding three of a tile; seat 2 is to throw the fourth: the table and
    that tile."""
    table = Table(variant)
    if variant in BAO_VARIANTS:
        table.start({0: DEALER_QUIET + "1m", 1: READY_ON_7P}, draws=["5p"], tail=tail_for(variant))
        table.discard(0, "1m")
        table.pass_all(but=[1])
        table.chow(1, "23m")
        table.discard(1, "9m", ready="plain")
        fourth = "5p"
    else:
        table.start(
            {0: SHANGHAI_DEALER + "1m", 1: READY_ON_5P, 2: "5m"},
            draws=["6z", "8p"],
            tail=tail_for(variant),
        )
        table.play(0, "1m")
        table.discard(1, "6z", ready="hidden" if variant == "shandong" else "plain")
        fourth = "5m"
    table.pass_all()
    assert table.seat(1).ready is not None and table.hand.turn == 2
    return table, fourth


def test_harbin_a_ready_seat_may_kong_a_discard_that_leaves_it_ready() -> None:
    # 001: 听牌后可以杠牌的，系统判断杠牌后的牌型是否无法上听…如果不影响听牌牌型，则让玩家自主选择是否杠牌
    # (decision 4: a kong, also of a discard, when the hand could still declare 听 after it).
    table, fourth = ready_seat_one_holding_three("harbin")
    table.discard(2, fourth)  # 789s 11s 68p with the 吃 and the kong still wait on 7p
    assert table.options_of(1) == ("kong",)
    table.pass_all(but=[1])
    table.kong(1)
    claimed = table.last(ev.TileClaimed)
    assert (claimed.seat, claimed.kind) == (1, "kong")
    assert table.seat(1).ready == "plain" and table.seat(1).drawn is not None


@pytest.mark.parametrize("variant", ["mudanjiang", "shandong", "shanghai"])
def test_outside_harbin_a_ready_seat_may_not_kong_a_discard(variant: str) -> None:
    # 000: 听牌后，当前玩家不允许再杠牌、碰牌、吃牌，只能胡牌; decision 4: Shanghai/Shandong allow a
    # concealed or added kong after 听 (on the seat's own turn), never a 明杠 of a discard.
    table, fourth = ready_seat_one_holding_three(variant)
    table.discard(2, fourth)  # the kong would leave seat 1 waiting as before
    assert "kong" not in table.options_of(1)
