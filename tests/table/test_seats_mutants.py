"""A seat's tiles as claims and kongs move them (``services/rules/table/seats.py``): a claim takes
the discard it claims, even when 换宝 has laid old 宝 on the pile after it, and a 补杠 grows the
seat's own 碰 of that tile, whichever of its 碰 that is (issue 28: the rules its mutants broke).

Given a table driven by commands, when a claim or a kong, then the folded seats."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.melds import Meld
from services.rules.tiles import parse_tiles, tile

from .builders import Table

BAO_QUIET = "147p258s36s27m38p7z"  # 13 tiles that make nothing with 1s, 9p, 4m-6m


def tiles(text: str) -> tuple[int, ...]:
    """``"1s9p5m"`` → those tiles, in the order written."""
    return tuple(parse_tiles(text))


# -- a claim takes the latest copy of its tile, wherever 换宝 left it -----------------------------
def test_a_chow_after_a_chain_of_bao_changes_takes_the_discard_and_leaves_the_old_baos() -> None:
    """000: 如果游戏池中有三张宝牌明现了…则系统自动更换宝牌，旧的宝牌放入庄家打出的牌列中…换宝后如果新宝牌
    也出现了三张，则继续换宝. The dealer throws the third 5m in view while 5m is the 宝, and 1s and 9p,
    the next two 宝, have three copies in view each: three 换宝 put 5m, 1s and 9p on the dealer's
    pile after the 5m it threw. Seat 1 吃 that 5m: the claim takes the thrown 5m, and the pile keeps
    the three old 宝 in the order they were laid."""
    table = Table("mudanjiang")
    table.start(
        {0: BAO_QUIET + "1s", 1: "46m"},
        # seats 1, 2, 3, 0, 1, 2, 3, 0 draw these, in turn, and throw them
        draws=["1s", "1s", "9p", "9p", "9p", "5m", "5m", "5m"],
        tail=["5m", "1s", "9p"],  # the 宝, then the next two
    )
    assert table.hand.bao == tile("5m")
    table.play(0, "1s")
    for seat, thrown in [(1, "1s"), (2, "1s"), (3, "9p"), (0, "9p"), (1, "9p"), (2, "5m")]:
        table.play(seat, thrown)
    table.play(3, "5m")
    produced = table.discard(0, "5m")
    changes = [(e.old, e.new) for e in table.of_type(ev.BaoChanged, produced)]
    assert [old for old, _ in changes] == ["5m", "1s", "9p"]
    assert table.seat(0).discards == tiles("1s9p5m5m1s9p")
    assert "chi" in table.options_of(1)
    table.chow(1, "46m")
    table.pass_all()
    claimed = table.last(ev.TileClaimed)
    assert (claimed.seat, claimed.tile, claimed.from_seat) == (1, "5m", 0)
    assert table.seat(0).discards == tiles("1s9p5m1s9p")
    assert table.seat(1).melds == (Meld("chi", tiles("456m"), tile("5m"), 0),)


# -- a 补杠 grows the 碰 of its own tile --------------------------------------------------------
SHANDONG_DEALER = "147p258s369p6z7z3s9s"  # 13 quiet tiles; the 14th is the tile seat 0 throws


@pytest.mark.parametrize(("first", "second"), [("2m", "8m"), ("8m", "2m")])
def test_an_added_kong_grows_the_pong_of_its_tile_not_an_earlier_pong_of_another(
    first: str, second: str
) -> None:
    """002: 补杠：玩家碰牌后，又摸到杠牌根据情况，可确定杠或者不杠. Seat 2 碰 ``first`` from the dealer,
    then ``second`` from seat 3, and draws the fourth ``second``: its 补杠 turns the 碰 of
    ``second`` into a kong (fed still by seat 3), and leaves the 碰 of ``first``, claimed
    earlier, as it was — whether ``first`` is the lower tile or the higher."""
    table = Table("shandong")
    table.start(
        {0: SHANDONG_DEALER + first, 2: f"{first}{first}{second}{second}147m5z"},
        draws=[second, None, None, None, second],
        tail=["9m"],
    )
    table.discard(0, first)
    table.pass_all(but=[2])
    table.pung(2)
    table.play(2, "5z")
    table.discard(3, second)
    table.pass_all(but=[2])
    table.pung(2)
    table.play(2, "1m")
    for seat in (3, 0, 1):
        drawn = table.drawn(seat)
        assert drawn is not None
        table.play(seat, drawn)
    assert table.drawn(2) == second
    table.kong(2, second)
    declared = table.last(ev.KongDeclared)
    assert (declared.seat, declared.kind) == (2, "added_kong")
    a, b = tile(first), tile(second)
    assert table.seat(2).melds == (
        Meld("pong", (a, a, a), a, 0),
        Meld("added_kong", (b, b, b, b), b, 3),
    )
    assert b not in table.seat(2).hand
