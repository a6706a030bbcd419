"""The seat-on-turn's own commands that the mutation run of ``services/rules/table/turn.py`` found
no test holding: a 听 discard shows the hand only when declared 明楼, a ready seat is told which
drawn tile to throw, 风头杠 only before the seat's first
draw (not in a claim window, not after a 碰 or a discard, but after the other 风头杠), and 上大台's
limit named as the variant sets it.

Given events (a ``Table`` driven by commands), when a command, then the events or the refusal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.rules.events import hand as ev
from services.rules.table import turn
from services.rules.table.commands import DeclareHonourKong, DiscardTile, RaiseWildPair
from services.rules.table.guards import CommandRejected
from services.rules.table.state import TableState
from services.rules.tiles import names

from .builders import Table, play_out, tail_for, tanggu_table

TANGGU_DEALER = "147p258s369p6z7z1s2z"  # 13 quiet tiles; the 14th is the dealer's first throw


def tanggu(
    hands: dict[int, str],
    draws: list[str | None] | None = None,
    indicator: str = "9m",
    replacements: list[str | None] | None = None,
) -> Table:
    """A 塘沽 table whose 混 are 9m and 1m unless another indicator is given."""
    return tanggu_table(hands, draws, replacements, indicator)


def mudanjiang_seat_one_ready(draws: list[str]) -> Table:
    """Seat 1 chows the dealer's 1m with 23m and declares 听 throwing 9m (waits on 5p)."""
    table = Table("mudanjiang")
    table.start(
        {0: "147p258s369p4s5m6m8m1m", 1: "23m555p789s11s46p9m"},
        draws=draws,
        tail=tail_for("mudanjiang"),
    )
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    return table


# -- 听 with a discard ----------------------------------------------------------------------------
def test_a_plain_ready_declaration_does_not_show_the_hand() -> None:
    """000: 听牌后玩家可以看到宝牌; only 明楼 (002: 听牌后直接亮出所有牌面) lays the hand open, so a
    plain 听 is a discard marked ready and nothing shown."""
    table = mudanjiang_seat_one_ready(["8p"])
    events = table.discard(1, "9m", ready="plain")
    assert isinstance(events[0], ev.TileDiscarded) and events[0].ready == "plain"
    assert table.of_type(ev.HandShown, events) == []
    assert table.seat(1).ready == "plain"


def test_shandong_an_open_ready_declaration_shows_the_rest_of_the_hand() -> None:
    """002 明楼: 听牌后直接亮出所有牌面给其他三家."""
    table = Table("shandong")
    table.start({0: "147p258s369p4s5m6m8m1m", 1: "23m555p789s11s46p9m"}, draws=["8p"])
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    events = table.discard(1, "9m", ready="open")
    shown = table.of_type(ev.HandShown, events)
    assert [(e.seat, e.tiles) for e in shown] == [(1, tuple(names(table.seat(1).concealed)))]


@pytest.mark.parametrize("drawn", ["5s", "1m"])
def test_after_ready_the_seat_is_told_to_throw_the_drawn_tile_it_names(drawn: str) -> None:
    """000: 听牌后…抓的牌如果不满足胡牌条件则必须打出, 不可以换听: throwing a tile from the hand is
    refused, naming the drawn tile to throw instead (1m too, the first tile of the set)."""
    table = mudanjiang_seat_one_ready(["8p", "8p", "8p", drawn])
    table.discard(1, "9m", ready="plain")
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert table.drawn(1) == drawn
    reason = table.refuse(DiscardTile(seat=1, tile="4p"))
    assert reason.endswith(f"discard the drawn tile {drawn}")


# -- 风头杠 ----------------------------------------------------------------------------------------
def test_tanggu_feng_tou_gang_of_the_winds_may_follow_that_of_the_dragons() -> None:
    """004 风头杠: 在首次摸牌前, 中发白 为一明杠, 东南西北 为一暗杠: a seat holding both declares both
    before its first draw; its own 风头杠 is no claimed meld."""
    table = tanggu({0: TANGGU_DEALER + "1m", 2: "567z1234z"}, replacements=["5p"])
    table.honour_kong(2, "dragons")
    events = table.honour_kong(2, "winds")
    declared = table.of_type(ev.KongDeclared, events)
    assert [(e.kind, e.tiles, e.replacement) for e in declared] == [
        ("wind_kong", ("1z", "2z", "3z", "4z"), "5p")
    ]


def test_tanggu_feng_tou_gang_is_refused_while_a_claim_window_is_open() -> None:
    """004 风头杠 在首次摸牌前, on the seat's own hand as it stands: not while the others are asked
    about a discard (the claim window's options rest on that hand)."""
    table = tanggu({0: TANGGU_DEALER + "5m", 2: "567z", 3: "55m"})
    table.discard(0, "5m")
    assert table.hand.step == "claims" and not table.seat(2).has_drawn
    assert "first draw" in table.refuse(DeclareHonourKong(seat=2, honours="dragons"))


def test_tanggu_feng_tou_gang_is_refused_while_a_kong_may_be_robbed() -> None:
    """004 风头杠 在首次摸牌前, on the seat's own turn or between turns: not while a 补杠 may be
    robbed (抢杠), a window like the claim window."""
    table = tanggu({0: TANGGU_DEALER + "1m", 2: "567z"})
    robbing = replace(table.hand, step="rob")
    state = replace(table.state, hand=robbing)
    with pytest.raises(CommandRejected, match="first draw"):
        turn.declare_honour_kong(state, DeclareHonourKong(seat=2, honours="dragons"))


def test_tanggu_feng_tou_gang_is_refused_after_a_pung() -> None:
    """004 风头杠 在首次摸牌前: a seat that has claimed (碰) has taken its tile; it has not drawn, but
    its 风头杠 has passed."""
    table = tanggu({0: TANGGU_DEALER + "5m", 2: "567z55m"})
    table.discard(0, "5m")
    table.pass_all(but=[2])
    table.pung(2)
    seat = table.seat(2)
    assert table.hand.turn == 2 and not seat.has_drawn and not seat.has_discarded
    assert "first draw" in table.refuse(DeclareHonourKong(seat=2, honours="dragons"))


def test_tanggu_the_dealer_may_not_declare_feng_tou_gang_after_its_first_discard() -> None:
    """004 风头杠 在首次摸牌前: the dealer's 14th tile is dealt, not drawn, so its time for 风头杠 ends
    with its first discard."""
    table = tanggu({0: "567z147p258s369p1s1m"})
    table.play(0, "1m")
    seat = table.seat(0)
    assert seat.has_discarded and not seat.has_drawn and not seat.melds
    assert "first draw" in table.refuse(DeclareHonourKong(seat=0, honours="dragons"))


# -- 上大台 ----------------------------------------------------------------------------------------
def test_shang_da_tai_refused_past_its_limit_names_the_limit_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """004 上大台 (最多2次): the refusal names the variant's limit; a variant allowing it once says
    "at most once"."""
    real = TableState.variant.fget  # type: ignore[attr-defined]

    def once(state: TableState):  # type: ignore[no-untyped-def]
        variant = real(state)
        return replace(variant, config=replace(variant.config, wild_pair_raises=1))

    monkeypatch.setattr(TableState, "variant", property(once))
    table = tanggu(
        {0: TANGGU_DEALER + "1m", 1: "123m789m789s111z3z"},
        draws=["4z", "8p", "8p", "8p", "4z"],
        indicator="3z",
    )
    table.play(0, "1m")
    table.raise_wild_pair(1)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert table.drawn(1) == "4z"
    reason = table.refuse(RaiseWildPair(seat=1))
    assert "at most once;" in reason
