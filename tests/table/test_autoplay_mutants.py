"""托管 (decision 14) that the mutation run of ``services/rules/table/autoplay.py`` found no test
holding: an away seat takes its self-drawn win, passes a kong it could rob, and the system finds no
move for a seat the table is not waiting on — no hand, a hand that has ended, a claim window that
does not ask it or that it has answered, another seat's turn, the table's own dealing and drawing.

Given events (a ``Table`` driven by commands; or folded up to a fact, the table as it stood right
after it), when the system looks for a seat's 托管 move, then the events or the move it finds."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table import replay
from services.rules.table.autoplay import NothingToDo, autoplay_command
from services.rules.table.commands import PassClaim, RequestAutoplay
from services.rules.table.state import TableState

from .builders import (
    STD,
    Table,
    concealed_kong_before_opening,
    play_out,
    shandong_seat_two_about_to_add_a_kong,
    tail_for,
)

DEALER = "147p258s369p6z7z3s9s"  # 山东: 13 quiet tiles; the 14th is the tile seat 0 throws first
WAITS_5P_1 = "123m789m789s11z46p"  # seat 1: waits on 5p


def folded_through(table: Table, kind: type[DomainEvent]) -> TableState:
    """The table as it stood right after the last ``kind`` fact (a fold of the events so far)."""
    last = max(i for i, e in enumerate(table.events) if isinstance(e, kind))
    return replay(table.events[: last + 1])


def std_table(variant: str = "shandong") -> Table:
    """The standard deal: seat 0 deals; on its 3p seat 1 may 吃 and seat 3 碰 or 杠."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    return table


def nothing_to_do(state: TableState, seat: int) -> str:
    with pytest.raises(NothingToDo) as nothing:
        autoplay_command(state, seat)
    return str(nothing.value)


# -- what 托管 does ----------------------------------------------------------------------------------
def test_an_away_seat_that_draws_its_winning_tile_takes_the_self_drawn_win() -> None:
    """Decision 14: 托管 takes a self-drawn win when it has one (it does not throw the winning
    tile, although the drawn tile is the rightmost one shown)."""
    table = Table("shandong")
    table.start({0: DEALER + "5z", 1: WAITS_5P_1}, draws=["5p"])
    table.do(RequestAutoplay(seat=1))
    events = table.discard(0, "5z") + table.pass_all()
    assert pe.SeatAutoplayed(seat=1, reason="requested", turn=True) in events
    won = table.last(ev.HandWon).wins[0]
    assert (won.seat, won.self_drawn) == (1, True)
    assert table.of_type(ev.TileDiscarded, events) == [ev.TileDiscarded(seat=0, tile="5z")]


def test_an_away_seat_that_could_rob_an_added_kong_passes_and_the_konger_draws_its_replacement() -> (
    None
):
    """Decision 14: in a claim window 托管 passes, it never claims — the window of an 补杠 that
    may be robbed (002 抢杠) too: the away seat lets the kong stand, the replacement is drawn."""
    table = shandong_seat_two_about_to_add_a_kong()
    assert table.drawn(2) == "5p"
    table.do(RequestAutoplay(seat=3))
    events = table.kong(2, "5p")
    assert events[1:3] == [
        pe.SeatAutoplayed(seat=3, reason="requested", turn=False),
        ev.ClaimAnswered(seat=3, claim="pass"),
    ]
    assert table.of_type(ev.HandWon, events) == []
    drawn = table.last(ev.TileDrawn)
    assert (drawn.seat, drawn.tile, drawn.from_tail) == (2, "6z", True)
    assert [m.kind for m in table.seat(2).melds] == ["added_kong"]


# -- when the table is not waiting on the seat ---------------------------------------------------
def test_there_is_no_autoplay_move_before_the_first_hand() -> None:
    """Decision 16: 托管 plays a seat until the hand is settled — with no hand dealt yet there is
    nothing to play."""
    table = Table("shandong")
    for seat in range(4):
        assert nothing_to_do(table.state, seat) == "no hand in play"


@pytest.mark.parametrize("variant", ["harbin", "shandong"])
def test_there_is_no_autoplay_move_once_the_hand_has_ended_even_before_it_is_settled(
    variant: str,
) -> None:
    """Decision 16: 托管 plays the seat until the hand is settled; a drawn hand (荒庄) has ended:
    no seat, not even the one whose turn came last, has a move left."""
    table = std_table(variant)
    play_out(table)
    ended = folded_through(table, ev.HandDrawn)
    assert ended.hand is not None and ended.hand.step == "ended" and not ended.hand_over
    for seat in range(4):
        assert nothing_to_do(ended, seat) == "no hand in play"


def test_in_a_claim_window_only_a_seat_asked_that_has_not_answered_has_an_autoplay_pass() -> None:
    """Decision 14: in a claim window 托管 passes for the seat — a seat the window asks and that
    has not answered yet; a seat it does not ask, or one that passed already, has nothing to do."""
    table = std_table()
    table.discard(0, "3p")
    assert table.options_of(1) and table.options_of(3) and not table.options_of(2)
    table.pass_(1)
    state = table.state
    assert nothing_to_do(state, 1) == "seat 1 has no claim to answer"
    assert nothing_to_do(state, 2) == "seat 2 has no claim to answer"
    assert nothing_to_do(state, 0) == "seat 0 has no claim to answer"
    assert autoplay_command(state, 3) == PassClaim(seat=3)


@pytest.mark.parametrize("on_turn", [0, 1])
def test_a_seat_whose_turn_it_is_not_has_no_autoplay_move(on_turn: int) -> None:
    """Decision 14: 托管 moves a seat on its own turn (or in a claim window); a seat before or after
    the one on turn has nothing to do."""
    table = std_table()
    if on_turn == 1:
        table.play(0, "8s")  # nobody may claim it: seat 1 draws
    state = table.state
    assert state.hand is not None and state.hand.step == "discard" and state.hand.turn == on_turn
    for seat in range(4):
        if seat != on_turn:
            assert nothing_to_do(state, seat) == f"it is not seat {seat}'s turn"


def dealing() -> tuple[TableState, int]:
    """Right after the hand starts: nothing dealt yet; the dealer, seat 0, is to play first."""
    return folded_through(std_table("harbin"), ev.HandStarted), 0


def setting_up() -> tuple[TableState, int]:
    """哈尔滨, right after the deal: the 宝 is not yet set aside; the dealer holds its 14 tiles."""
    return folded_through(std_table("harbin"), ev.TilesDealt), 0


def drawing() -> tuple[TableState, int]:
    """Seat 0 threw 8s, which nobody may claim: seat 1 is next, its tile not yet drawn."""
    table = std_table()
    table.discard(0, "8s")
    return folded_through(table, ev.TileDiscarded), 1


def replacing() -> tuple[TableState, int]:
    """Seat 0 declared its 暗杠 of 1m: the replacement is not yet drawn from the tail."""
    return folded_through(concealed_kong_before_opening("shandong"), ev.KongDeclared), 0


@pytest.mark.parametrize("given", [dealing, setting_up, drawing, replacing])
def test_the_seat_to_play_has_no_autoplay_move_while_the_table_deals_sets_up_or_draws(
    given: Callable[[], tuple[TableState, int]],
) -> None:
    """Decision 14: 托管 makes the seat's move on its turn, after its draw; while the table itself
    deals, sets the 宝 aside or draws (a kong's replacement too), the seat has no move yet."""
    state, seat = given()
    assert state.hand is not None and state.hand.step in ("deal", "setup", "draw", "replace")
    assert state.hand.turn == seat
    assert nothing_to_do(state, seat) == f"it is not seat {seat}'s turn"
