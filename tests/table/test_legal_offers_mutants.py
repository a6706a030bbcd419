"""What ``services/rules/table/legal.py`` offers in states the first mutation pass left unpinned:
no 杠 of a 吃's tile nor beside a 碰 whose fourth tile is not held, nothing (not even 风头杠) once a
hand has ended but is not yet settled, and nothing while the tiles are still being dealt.

Given events (a ``Table`` driven by commands, or part of a command's events applied by hand),
when ``candidates``/``play_commands`` is asked, then the exact list (see ``test_legal_mutants``)."""

from __future__ import annotations

from services.rules.events import hand as ev
from services.rules.table import decide, evolve
from services.rules.table.commands import DeclareWin, Kong, StartHand
from services.rules.table.legal import candidates, play_commands, seats_to_act

from .builders import DICE, STD, Table, tail_for, wall_for


def test_no_kong_is_offered_beside_a_pung_whose_fourth_tile_is_not_held() -> None:
    """002 补杠: 玩家碰牌后，又摸到杠牌..., so a 补杠 needs the fourth tile in hand: seat 2 has just
    碰'd the dealer's 2m (holding no other 2m) and is offered no 杠 at all."""
    table = Table("shandong")
    table.start(STD)
    table.discard(0, "2m")
    table.pass_all(but=[2])
    table.pung(2)
    assert table.hand.turn == 2 and table.hand.step == "discard"
    assert "2m" not in table.concealed(2)
    assert [c for c in candidates(table.state, 2) if isinstance(c, Kong)] == []
    assert [c for c in play_commands(table.state, 2) if isinstance(c, Kong)] == []


def test_no_kong_is_offered_of_a_tile_held_beside_ones_own_chow() -> None:
    """002 补杠 adds the fourth tile to a 碰 (刻子), never to a 吃: seat 1 吃s 1m with 23m and still
    holds another 1m, the 吃's lowest tile, and is offered no 杠 of it."""
    table = Table("shandong")
    table.start({0: "147p258s369p4s5m6m8m1m", 1: "1m23m555p789s11s46p"})
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    assert table.hand.turn == 1 and table.hand.step == "discard"
    assert "1m" in table.concealed(1)
    assert [c for c in candidates(table.state, 1) if isinstance(c, Kong)] == []
    assert [c for c in play_commands(table.state, 1) if isinstance(c, Kong)] == []


def test_nothing_is_offered_once_a_hand_is_won_even_before_it_is_settled() -> None:
    """004 风头杠: 在首次摸牌前... is a move of a hand in play; once seat 1 has 自摸'd (胡) the hand
    has ended, and before the table settles it seat 0, still holding 中发白 (5z6z7z), is offered
    nothing, and nobody is waited for."""
    table = Table("tanggu")
    table.start(
        {0: "147p258s369p567z1s1m", 1: "123m789m789s11z4p3z"},  # 混 = 3z 4z
        draws=["6p"],
        tail=tail_for("tanggu", [], indicator="3z"),
        dice=(1, 2, 1, 1),
    )
    table.play(0, "1m")
    assert table.hand.turn == 1 and table.drawn(1) == "6p"
    state = table.state
    for event in decide(state, DeclareWin(seat=1)):
        state = evolve(state, event)
        if isinstance(event, ev.HandWon):
            break
    assert state.hand is not None and state.hand.step == "ended" and not state.hand_over
    assert all(t in state.hand.seat(0).hand for t in (31, 32, 33))
    for seat in range(4):
        assert candidates(state, seat) == []
        assert play_commands(state, seat) == []
    assert seats_to_act(state) == []


def test_nothing_is_offered_to_the_dealer_before_the_tiles_are_dealt() -> None:
    """A hand started but not yet dealt (the table's own step): the dealer, whose turn it will be,
    has no move yet."""
    table = Table("shandong")
    start = StartHand(wall=wall_for("shandong", STD), dealer=0, dice=DICE["shandong"])
    dealt = evolve(table.state, decide(table.state, start)[0])
    assert dealt.hand is not None and dealt.hand.step == "deal" and dealt.hand.turn == 0
    assert candidates(dealt, 0) == []
    assert play_commands(dealt, 0) == []
