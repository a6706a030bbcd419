"""The table's own moves that the mutation run of ``services/rules/table/system.py`` found no test
holding (issue 28): which 暗杠 stay face down and are turned up when the hand ends, which melds
count as in view for 换宝, a kong's replacement on the last tile but one, and 塘沽's seat played
by the system after 听, which waits only for a 上大台 the player may still make."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.rules.events import hand as ev
from services.rules.table.system import next_system_events, visible_copies
from services.rules.table.walls import drawable
from services.rules.tiles import tile

from .builders import (
    STD,
    Table,
    concealed_kong_before_opening,
    draws_at,
    head_draws,
    play_out,
    play_until_draws,
    tail_for,
)

FACE_DOWN_VARIANTS = ("harbin", "shandong", "shanghai", "tanggu")  # an 吃 or 碰 shows no 暗杠


def _open_seat_zero(table: Table) -> None:
    """After ``concealed_kong_before_opening``: seat 0 opens by a 碰 of 9p (9p9p9p face up)."""
    table.play(0, "6m")
    drawn = table.drawn(1)
    assert drawn is not None
    table.play(1, drawn)
    table.discard(2, "9p")
    table.pass_all(but=[0])
    table.pung(0)
    assert table.seat(0).is_open


# -- what is turned up when the hand ends ---------------------------------------------------------
@pytest.mark.parametrize("variant", FACE_DOWN_VARIANTS)
def test_a_chow_is_no_concealed_kong_to_turn_up_when_the_hand_ends(variant: str) -> None:
    """003: 吃牌后组成的顺子系统自动亮出; only an 暗杠 lies face down (decision 4), so only an 暗杠
    is turned up at the end of the hand."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    table.discard(0, "2m")
    table.pass_all(but=[1])
    table.chow(1, "34m")
    assert [m.kind for m in table.seat(1).melds] == ["chi"]
    play_out(table)
    assert table.of_type(ev.HandSettled)
    assert table.of_type(ev.ConcealedKongsShown) == []


@pytest.mark.parametrize("variant", FACE_DOWN_VARIANTS)
def test_a_pung_is_no_concealed_kong_to_turn_up_when_the_hand_ends(variant: str) -> None:
    """004: 碰牌…组成的刻子系统自动亮出; only an 暗杠 lies face down (decision 4)."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    table.discard(0, "2m")
    table.pass_all(but=[2])
    table.pung(2)
    assert [m.kind for m in table.seat(2).melds] == ["pong"]
    play_out(table)
    assert table.of_type(ev.HandSettled)
    assert table.of_type(ev.ConcealedKongsShown) == []


def test_harbin_turns_up_only_the_concealed_kong_of_a_seat_that_also_pungs() -> None:
    """001: 碰或杠牌后必须亮明暗杠除外: the 碰 is shown when made, the 暗杠 only when the hand ends."""
    table = concealed_kong_before_opening("harbin")
    _open_seat_zero(table)
    play_out(table)
    shown = table.of_type(ev.ConcealedKongsShown)
    assert [(e.seat, e.tiles) for e in shown] == [(0, ("1m",))]


# -- copies in view (换宝) ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_a_face_down_concealed_kong_puts_no_copy_in_view(variant: str) -> None:
    """000: 如果游戏池中有三张宝牌明现了（包括打出的牌和各玩家吃碰杠的牌）…换宝; an 暗杠 before
    开门 lies face down (暗杠的4张牌倒扣在桌面上), so none of its tiles is in view."""
    table = concealed_kong_before_opening(variant)
    config = table.state.variant.config
    assert visible_copies(config, table.hand, tile("1m")) == 0


def test_mudanjiang_a_concealed_kong_shown_after_opening_puts_four_copies_in_view() -> None:
    """000: 开门后暗杠自动明示显示在桌面上: its four tiles are then in view, like the 碰."""
    table = concealed_kong_before_opening("mudanjiang")
    _open_seat_zero(table)
    config = table.state.variant.config
    assert visible_copies(config, table.hand, tile("1m")) == 4
    assert visible_copies(config, table.hand, tile("9p")) == 3


def test_harbin_a_concealed_kong_stays_out_of_view_after_its_seat_opens() -> None:
    """001: 碰或杠牌后必须亮明暗杠除外: the 碰 is in view, the 暗杠 is not."""
    table = concealed_kong_before_opening("harbin")
    _open_seat_zero(table)
    config = table.state.variant.config
    assert visible_copies(config, table.hand, tile("1m")) == 0
    assert visible_copies(config, table.hand, tile("9p")) == 3


# -- a kong on the last tile but one ---------------------------------------------------------------
def _tanggu_kong_on_the_last_tile_but_one() -> Table:
    """Seat 0 holds 111m and draws the fourth 1m as the 48th of the 49 head draws (136 - 53 dealt
    - 34 kept), leaving one tile to draw."""
    table = Table("tanggu")
    table.start(
        {0: "111m47p258s369p6z7z2z"},
        draws=draws_at(d47="1m"),
        tail=tail_for("tanggu", ["5z"], dice=(1, 2, 1, 1)),
        dice=(1, 2, 1, 1),
    )
    play_until_draws(table, 48)
    assert table.hand.turn == 0 and table.drawn(0) == "1m"
    assert drawable(table.state.variant.config, table.hand) == 1
    return table


def test_tanggu_a_kong_with_one_tile_left_to_draw_still_gets_its_replacement() -> None:
    """004: 杠牌…之后再由服务器发给一张牌; decision 9: kong replacements come from the tail and
    shorten the live wall by one tile. With one tile left the kong is allowed and replaced; the
    wall is then spent, and the hand is drawn (荒庄) after the discard."""
    table = _tanggu_kong_on_the_last_tile_but_one()
    events = table.kong(0, "1m")
    assert not table.of_type(ev.HandDrawn, events)
    replaced = table.of_type(ev.TileDrawn, events)
    assert [(e.seat, e.tile, e.from_tail) for e in replaced] == [(0, "5z", True)]
    assert drawable(table.state.variant.config, table.hand) == 0
    events = table.discard(0, "5z") + table.pass_all()
    assert table.of_type(ev.HandDrawn, events)


def test_a_kong_replacement_due_with_no_tile_left_ends_the_hand_drawn() -> None:
    """000: 如果出现连续的杠牌，导致牌数变为0，如没有玩家胡牌，则直接荒庄. The table never lets a kong
    be made with no tile to replace it; should a replacement still fall due with the wall spent,
    no tile is drawn from the kept tail and the hand is drawn."""
    table = _tanggu_kong_on_the_last_tile_but_one()
    table.kong(0, "1m")
    assert drawable(table.state.variant.config, table.hand) == 0
    due = replace(table.state, hand=replace(table.hand, step="replace"))
    assert next_system_events(due) == [ev.HandDrawn()]


# -- 塘沽: the system plays a seat after 听, except a 上大台 --------------------------------------
TANGGU_DEALER = "147p258s369p6z7z1s2z"  # 13 quiet tiles; the 14th is the tile seat 0 throws first
HUN_DIAO = "123m789m789s111z3z"  # four sets and a lone 混 (3z; 混 are 3z and 4z): 混钓
HONOURS_THROWN = ["5z", "5z", "5z"]  # seats 2, 3, 0 draw and throw honours: no 混钓 wins on them


def _tanggu(draws: list[str | None]) -> Table:
    table = Table("tanggu")
    table.start(
        {0: TANGGU_DEALER + "1m", 1: HUN_DIAO},
        draws=draws,
        tail=tail_for("tanggu", dice=(1, 2, 1, 1)),
        dice=(1, 2, 1, 1),
    )
    table.play(0, "1m")
    return table


def _seat_one_turn(table: Table) -> None:
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")


def _declare_ready(table: Table) -> None:
    """Seat 1 throws its drawn 6z as 听, still in 混钓."""
    assert table.drawn(1) == "6z"
    table.discard(1, "6z", ready="plain")
    table.pass_all()
    assert table.seat(1).ready == "plain"


def test_tanggu_after_ready_a_drawn_hun_in_hun_diao_waits_for_the_players_shang_da_tai() -> None:
    """004: 听牌后…系统自动为其摸牌和和牌, but “上大台”：“混”钓过程中，如果钓上的“将”牌仍为“混”，
    可报出“上大台”: the system does not take the 混钓 win the player may still raise."""
    table = _tanggu(["6z", *HONOURS_THROWN, "4z"])
    _declare_ready(table)
    _seat_one_turn(table)
    assert table.hand.step == "discard" and table.drawn(1) == "4z"
    assert not table.of_type(ev.HandWon)
    table.raise_wild_pair(1)
    assert len(table.seat(1).set_aside) == 1


def test_tanggu_after_two_shang_da_tai_the_system_wins_the_hun_diao_for_a_ready_seat() -> None:
    """004: 最多允许2次“上大台”，然后以“混”钓结束; after 听 系统自动为其摸牌和和牌."""
    table = _tanggu(["4z", None, None, None, "4z", None, None, None, "6z", *HONOURS_THROWN, "4z"])
    table.raise_wild_pair(1)
    _seat_one_turn(table)
    table.raise_wild_pair(1)
    _seat_one_turn(table)
    _declare_ready(table)
    _seat_one_turn(table)
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.self_drawn and won.tile == "4z"
    assert "混钓" in won.patterns


def test_tanggu_after_ready_the_system_throws_a_drawn_honour_for_a_seat_in_hun_diao() -> None:
    """004: 听牌后手中的牌不能再换，系统自动为其摸牌和和牌: a drawn tile that is no 混 leaves no
    上大台 to wait for (a 混 never stands for an honour, so 5z does not win)."""
    table = _tanggu(["6z", *HONOURS_THROWN, "5z"])
    _declare_ready(table)
    play_out(table, until=lambda t: head_draws(t) >= 5)
    thrown = [e for e in table.of_type(ev.TileDiscarded) if e.seat == 1]
    assert [(e.tile, e.automatic) for e in thrown][-1] == ("5z", True)
    assert not table.of_type(ev.HandWon)
