"""The three ways of wildcards (``services/rules/variants/wildcards.py``): none (山东, 上海), the
宝 (牡丹江, 哈尔滨) and the 混 (塘沽), each hook asked on a dealt hand (issue 28: the rules its
mutants broke)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.rules.events import hand as ev
from services.rules.table.state import HandState
from services.rules.table.walls import drawable
from services.rules.tiles import name, tile
from services.rules.variants import get_variant, variant_of
from services.rules.variants.wildcards import BAO_CHANGE_COPIES, Bao, Hun, NoWildcards
from tests.table.builders import Table, tail_for

MUDANJIANG = get_variant("mudanjiang")
BAO = "9s"  # tail_for's 宝: the last tile of the wall


def dealt(variant: str) -> HandState:
    table = Table(variant)
    table.start(tail=tail_for(variant, bao=BAO))
    return table.hand


def in_view(hand: HandState, copies: int, kind: str = BAO) -> HandState:
    """``copies`` of a tile in the discards of seats 1-3 (one each, then seat 1 again)."""
    seats = list(hand.seats)
    for i in range(copies):
        at = 1 + i % 3
        seats[at] = replace(seats[at], discards=seats[at].discards + (tile(kind),))
    return replace(hand, seats=tuple(seats))


def with_drawable(hand: HandState, tiles: int) -> HandState:
    moved = replace(hand, head=hand.tail - tiles)
    assert drawable(MUDANJIANG, moved) == tiles
    return moved


def ready(hand: HandState, seat: int) -> HandState:
    return hand.with_seat(seat, replace(hand.seat(seat), ready="plain"))


# -- which variant has which -------------------------------------------------------------------
def test_each_variant_has_its_documents_wildcards() -> None:
    assert isinstance(variant_of("mudanjiang").wildcards, Bao)
    assert isinstance(variant_of("harbin").wildcards, Bao)
    assert isinstance(variant_of("tanggu").wildcards, Hun)
    assert isinstance(variant_of("shandong").wildcards, NoWildcards)
    assert isinstance(variant_of("shanghai").wildcards, NoWildcards)


# -- none: 山东, 上海 ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["shandong", "shanghai"])
def test_without_wildcards_nothing_is_set_up_no_tile_is_wild_and_every_discard_claimable(
    variant: str,
) -> None:
    hand = dealt(variant)
    rules = variant_of(variant).wildcards
    assert not rules.setup_pending(hand) and rules.setup_events(hand) == []
    assert rules.changed(get_variant(variant), hand) == []
    for kind in ("1m", "5p", "9s", "7z"):
        t = tile(kind)
        assert not rules.wins_on_draw(ready(hand, 0), hand.seat(0), t)
        assert not rules.drawn_is_wild(hand, hand.seat(0), t)
        assert rules.discard_claimable(hand, t)


# -- the 宝: 牡丹江, 哈尔滨 -----------------------------------------------------------------------
def test_the_bao_is_the_last_tile_of_the_wall_set_aside_once_after_the_deal() -> None:
    # 000: 摆宝…牌墙中最后一张 (换宝: 牌墙中最后一张成为新的宝牌)
    hand = dealt("mudanjiang")
    assert hand.bao == tile(BAO)
    bao = Bao()
    assert not bao.setup_pending(hand) and bao.setup_events(hand) == []
    before = replace(hand, bao=None, bao_history=(), tail=hand.tail + 1)  # as dealt
    assert bao.setup_pending(before)
    assert bao.setup_events(before) == [ev.BaoSetAside(tile=BAO)]
    # once the 宝 ran out after a 换宝 (none left to take) it is not set aside again
    spent = replace(hand, bao=None, bao_history=(tile(BAO),))
    assert not bao.setup_pending(spent) and bao.setup_events(spent) == []


def test_a_drawn_bao_is_wild_only_for_a_seat_that_is_ready() -> None:
    # 000: 宝牌只有在听牌后自摸摸到，才可替代任何牌和牌…听牌前摸到的宝牌不能算宝牌
    hand = ready(dealt("harbin"), 2)
    bao = Bao()
    assert bao.wins_on_draw(hand, hand.seat(2), tile(BAO))
    assert bao.drawn_is_wild(hand, hand.seat(2), tile(BAO))
    assert not bao.wins_on_draw(hand, hand.seat(1), tile(BAO))
    assert not bao.drawn_is_wild(hand, hand.seat(1), tile(BAO))
    for other in ("1m", "8s", "1s", "7z"):  # below and above the 宝 in tile order
        assert not bao.wins_on_draw(hand, hand.seat(2), tile(other))
        assert not bao.drawn_is_wild(hand, hand.seat(2), tile(other))


def test_a_discarded_bao_is_an_ordinary_tile_any_seat_may_claim() -> None:
    # 000: 别人打出的宝牌，不算宝牌。
    hand = dealt("mudanjiang")
    assert Bao().discard_claimable(hand, tile(BAO))
    assert Bao().discard_claimable(hand, tile("1m"))


@pytest.mark.parametrize("step", ["discard", "claims", "draw", "replace", "rob"])
def test_three_copies_of_the_bao_in_view_change_it_for_the_last_tile_of_the_wall(
    step: str,
) -> None:
    # 000: 如果游戏池中有三张宝牌明现了（包括打出的牌和各玩家吃碰杠的牌），则系统自动更换宝牌，
    # …牌墙中最后一张成为新的宝牌。
    assert BAO_CHANGE_COPIES == 3
    hand = replace(in_view(dealt("mudanjiang"), 3), step=step)
    last = hand.wall[hand.tail - 1]
    assert Bao().changed(MUDANJIANG, hand) == [ev.BaoChanged(old=BAO, new=name(last))]


def test_two_copies_of_the_bao_in_view_change_nothing() -> None:
    hand = in_view(dealt("mudanjiang"), 2)
    assert Bao().changed(MUDANJIANG, hand) == []
    assert Bao().changed(MUDANJIANG, in_view(hand, 1, "1m")) == []


def test_the_bao_changes_while_one_tile_is_left_to_draw_and_not_when_none_is() -> None:
    # 000: 换宝没有次数上限，直到没有牌换为止。
    hand = in_view(dealt("mudanjiang"), 3)
    last = with_drawable(hand, 1)
    assert Bao().changed(MUDANJIANG, last) == [
        ev.BaoChanged(old=BAO, new=name(last.wall[last.tail - 1]))
    ]
    assert Bao().changed(MUDANJIANG, with_drawable(hand, 0)) == []


def test_the_bao_does_not_change_once_the_hand_has_ended_or_before_it_is_set_aside() -> None:
    hand = in_view(dealt("mudanjiang"), 3)
    assert Bao().changed(MUDANJIANG, replace(hand, step="ended")) == []
    assert Bao().changed(MUDANJIANG, replace(hand, bao=None)) == []


# -- the 混: 塘沽 -------------------------------------------------------------------------------
def test_tanggu_turns_up_its_hun_after_the_deal_once() -> None:
    # 004: 将该位置的牌亮出，一副牌共有7个"混"…"混"需亮出。
    hand = dealt("tanggu")
    hun = Hun()
    assert hand.wildcards and not hun.setup_pending(hand) and hun.setup_events(hand) == []
    before = replace(hand, wildcards=frozenset())
    assert hun.setup_pending(before)
    [revealed] = hun.setup_events(before)
    assert isinstance(revealed, ev.WildcardsRevealed)
    assert {tile(t) for t in revealed.wildcards} == hand.wildcards
    assert hun.changed(get_variant("tanggu"), hand) == []


def test_tanggu_a_drawn_hun_is_wild_but_wins_only_if_the_hand_reads_as_a_win_with_it() -> None:
    hand = ready(dealt("tanggu"), 0)
    hun, wild = Hun(), min(hand.wildcards)
    assert not hun.wins_on_draw(hand, hand.seat(0), wild)
    assert hun.drawn_is_wild(hand, hand.seat(0), wild)
    assert not hun.drawn_is_wild(hand, hand.seat(0), tile("1m"))


def test_tanggu_a_discarded_hun_is_claimed_by_nobody() -> None:
    # 004: a discarded 混 (相公) can be claimed by nobody (decision 9)
    hand = dealt("tanggu")
    assert not Hun().discard_claimable(hand, min(hand.wildcards))
    assert Hun().discard_claimable(hand, tile("1m"))


# -- 混钓 (in_wild_pair_wait): only the 混 is ever raised -------------------------------------------
def test_a_hand_with_one_hun_beside_four_sets_waits_on_a_wild_pair_under_the_hun_only() -> None:
    """混钓 (``004``: 上大台 is for a hand in 混钓): one 混 away, the rest is sets only. Under
    the 混 that hand waits on a wild pair; under the 宝 or with no wildcards no hand ever does
    (上大台 is 塘沽's alone), whatever it holds."""
    concealed = tuple(tile(t) for t in ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
                                        "1z", "1z", "1z", "9m"))  # fmt: skip
    wild = frozenset({tile("8m"), tile("9m")})  # the 混 of an 8m indicator
    assert Hun().in_wild_pair_wait(concealed, wild)
    assert not Bao().in_wild_pair_wait(concealed, wild)
    assert not NoWildcards().in_wild_pair_wait(concealed, wild)
    assert not Hun().in_wild_pair_wait(concealed, frozenset())  # no 混 held: nothing to pair
