"""What ``services/rules/table/legal.py`` offers, in states the mutation run found no test
pinning: 暗杠 only of four held, 补杠 only beside one's own 碰, nothing to a seat with no say in
a claim window or one that has answered, nothing before a hand or between the table's own steps,
nothing to a dropped seat, 自摸 under 明楼, and whose move a 抢杠 window waits for.

Given events (a ``Table`` driven by commands, or part of a command's events applied by hand),
when ``candidates``/``play_commands``/``seats_to_act`` is asked, then the exact list."""

from __future__ import annotations

from collections.abc import Sequence

from services.rules.table import decide, evolve
from services.rules.table.commands import (
    Command,
    DeclareWin,
    DiscardTile,
    Kong,
    PassClaim,
    RaiseWildPair,
    ReportDisconnect,
    StartHand,
)
from services.rules.table.legal import candidates, play_commands, seats_to_act

from .builders import DICE, STD, Table, draws_at, wall_for


def discards(seat: int, tiles: str) -> list[Command]:
    return [DiscardTile(seat=seat, tile=t) for t in tiles.split()]


def dump(commands: Sequence[Command]) -> list[dict[str, object]]:
    return [c.model_dump() for c in commands]


def test_a_concealed_kong_is_offered_only_of_the_four_of_a_kind_held() -> None:
    """002 暗杠: 玩家持有了四张一樣的牌（未碰包括刚抓到的一张）. 14 tiles of 11 kinds, one of them four times: the 1m 杠 is a
    candidate, and no other tile, and never 上大台 without a drawn 混."""
    table = Table("shandong")
    table.start({0: "1111m234p567s9p8s7z2m"})
    expected = discards(0, "1m 2m 2p 3p 4p 9p 5s 6s 7s 8s 7z") + [Kong(seat=0, tile="1m")]
    assert dump(candidates(table.state, 0)) == dump(expected)
    assert dump(play_commands(table.state, 0)) == dump(expected)
    assert RaiseWildPair(seat=0) not in candidates(table.state, 0)


def test_three_of_a_kind_held_is_no_concealed_kong() -> None:
    """002 暗杠: 玩家持有了四张一樣的牌, so 222m held three times offers no 杠 of 2m, only of 1111m."""
    table = Table("shandong")
    table.start({0: "1111m222m567s9p8s7z6z"})
    kongs = [c for c in candidates(table.state, 0) if isinstance(c, Kong)]
    assert dump(kongs) == dump([Kong(seat=0, tile="1m")])


def added_kong_table() -> Table:
    """Seat 2 碰s the dealer's 2m, later draws the fourth 2m; seat 3 waits on 2m (13m)."""
    table = Table("shandong")
    table.start(
        {0: "111m234p567s99p8s7z2m", 1: STD[1], 2: STD[2], 3: "13m456p789p111s55s"},
        draws=draws_at(d3="2m"),
    )
    table.discard(0, "2m")
    table.pass_all(but=[2])
    table.pung(2)
    table.play(2, "4s")
    for seat in (3, 0, 1):
        table.play(seat, table.drawn(seat))  # type: ignore[arg-type]
    return table


def test_an_added_kong_is_offered_beside_ones_own_pung() -> None:
    """002 补杠: 玩家碰牌后，又摸到杠牌根据情况，可确定杠或者不杠. Seat 2 holds its 碰 of 2m and draws the fourth 2m."""
    table = added_kong_table()
    assert table.hand.turn == 2 and table.drawn(2) == "2m"
    offered = candidates(table.state, 2)
    assert dump([c for c in offered if isinstance(c, Kong)]) == dump([Kong(seat=2, tile="2m")])
    assert Kong(seat=2, tile="2m").model_dump() in dump(play_commands(table.state, 2))


def test_a_robbing_window_waits_for_the_seat_that_may_rob_the_kong() -> None:
    """002 抢杠: 一家碰出以后正好又摸到那张牌要杠如果杠下去的时候，正好有人可以和. After seat 2's 补杠 of 2m, the table waits for seat 3 (who
    waits on 2m), which may pass or win; once it answers nobody is waited for."""
    table = added_kong_table()
    table.kong(2, "2m")
    assert table.hand.step == "rob"
    assert seats_to_act(table.state) == [3]
    assert dump(candidates(table.state, 3)) == dump([PassClaim(seat=3), DeclareWin(seat=3)])
    state = evolve(table.state, decide(table.state, PassClaim(seat=3))[0])
    assert seats_to_act(state) == []
    assert candidates(state, 3) == []


def test_a_claim_window_offers_nothing_to_a_seat_without_a_claim_or_that_has_answered() -> None:
    """Only seats with a claim (吃/碰/杠/胡) on the discard are asked, each once: on the dealer's
    2m seat 1 may 吃, seat 2 may 碰; seat 3 has nothing, and seat 2, once it passed, nothing more."""
    table = Table("shandong")
    table.start(STD)
    table.discard(0, "2m")
    assert candidates(table.state, 3) == []
    assert candidates(table.state, 2) != []
    table.pass_(2)
    assert candidates(table.state, 2) == []
    assert seats_to_act(table.state) == [1]


def test_nothing_is_offered_before_a_hand_is_dealt() -> None:
    """An opened table with no hand: no moves, nobody to act."""
    table = Table("shandong")
    assert candidates(table.state, 0) == []
    assert play_commands(table.state, 0) == []
    assert seats_to_act(table.state) == []


def test_nothing_is_offered_while_the_table_deals_or_draws() -> None:
    """Between the table's own steps (the deal laid out, a tile thrown and the next draw not yet
    made) no seat has a move and nobody is waited for."""
    table = Table("shandong")
    start = StartHand(wall=wall_for("shandong", STD), dealer=0, dice=DICE["shandong"])
    dealt = evolve(table.state, decide(table.state, start)[0])
    assert dealt.hand is not None and dealt.hand.step == "deal"
    assert seats_to_act(dealt) == []
    table.start(STD)
    thrown = evolve(table.state, decide(table.state, DiscardTile(seat=0, tile="7z"))[0])
    assert thrown.hand is not None and thrown.hand.step == "draw" and thrown.hand.turn == 1
    assert candidates(thrown, 1) == []
    assert seats_to_act(thrown) == []


def test_a_dropped_seat_is_offered_no_moves() -> None:
    """Decision 16: a seat whose connection drops is played by 托管, so it is offered no moves of its own."""
    table = Table("shandong")
    table.start(STD)
    assert play_commands(table.state, 0) != []
    reported = decide(table.state, ReportDisconnect(seat=0))[0]  # before 托管 takes the turn
    dropped = evolve(table.state, reported)
    assert not dropped.presence[0].connected and not dropped.presence[0].left
    assert dropped.hand is not None and dropped.hand.turn == 0
    assert play_commands(dropped, 0) == []


def test_an_open_ready_seat_is_offered_a_self_drawn_win() -> None:
    """002 明楼: 听牌后直接亮出所有牌面, and and (decision 11) 明楼 wins only by 自摸: seat 1, 明楼 on 5p, draws 5p
    and is offered 胡."""
    table = Table("shandong")
    table.start({0: "147p258s369p4s5m6m8m1m", 1: "23m555p789s11s46p9m"}, draws=draws_at(d3="5p"))
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    table.discard(1, "9m", ready="open")
    table.pass_all()
    for seat in (2, 3, 0):
        table.play(seat, table.drawn(seat))  # type: ignore[arg-type]
    assert table.hand.turn == 1 and table.drawn(1) == "5p"
    assert DeclareWin(seat=1).model_dump() in dump(candidates(table.state, 1))
    assert DeclareWin(seat=1).model_dump() in dump(play_commands(table.state, 1))
