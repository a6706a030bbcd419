"""Dealing: 14 tiles to the dealer and 13 to the others, four at a time from the dealer, the dice,
and what each variant sets up before the dealer's first discard (宝, 混, 补花)."""

from __future__ import annotations

from collections import Counter

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import StartHand
from services.rules.table.deal import deal_order, full_set, wall_in_draw_order
from services.rules.tiles import names
from services.rules.variants import variant_of

from .builders import DICE, VARIANTS, Table, tiles_of, wall_for


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("dealer", [0, 3])
def test_the_dealer_gets_fourteen_tiles_and_the_others_thirteen(variant: str, dealer: int) -> None:
    table = Table(variant)
    table.start(dealer=dealer)
    sizes = [len(table.seat(s).hand) for s in range(4)]
    assert sizes == [14 if s == dealer else 13 for s in range(4)]
    assert table.hand.turn == dealer and table.hand.step == "discard"
    assert table.seat(dealer).drawn is not None  # the 14th tile shows like a draw
    assert all(table.seat(s).drawn is None for s in range(4) if s != dealer)


def test_deal_order_is_four_each_three_times_round_then_one_each_then_one_more_to_the_dealer() -> (
    None
):
    assert deal_order(2) == [(2, 4), (3, 4), (0, 4), (1, 4)] * 3 + [
        (2, 1),
        (3, 1),
        (0, 1),
        (1, 1),
        (2, 1),
    ]


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "tanggu"])
def test_the_wall_is_dealt_from_the_head_in_deal_order(variant: str) -> None:
    wall = tuple(names(full_set(Table(variant).state.variant.config)))  # kind order, no flowers here
    table = Table(variant)
    table.do(StartHand(wall=wall, dealer=1, dice=DICE[variant]))
    dealt = table.of_type(ev.TilesDealt)[0].hands
    expected: list[list[str]] = [[], [], [], []]
    head = 0
    for seat, count in deal_order(1):
        expected[seat] += list(wall[head : head + count])
        head += count
    assert [list(h) for h in dealt] == expected
    assert table.hand.head == 53


@pytest.mark.parametrize("variant", VARIANTS)
def test_wall_for_gives_each_seat_the_hand_the_test_names(variant: str) -> None:
    hands = {
        0: "123m456p789s11z22z3z",
        1: "111m222p333s444m5m",
        2: "6m7m8m9m1p2p3p4p5p6p7p8p9p",
        3: "1s2s3s4s5s6s7s8s9s5m5m5m4m",
    }
    if variant in ("mudanjiang", "harbin"):
        hands = {
            0: "123m456p789s99m77z3m",
            1: "111m222p333s444m5m",
            2: "6m7m8m9m1p2p3p4p5p6p7p8p9p",
            3: "1s2s3s4s5s6s7s8s9s5m5m5m4m",
        }
    table = Table(variant)
    table.start(hands, draws=["9m"], dealer=0)
    for seat, text in hands.items():
        if variant in ("shandong", "shanghai") and any(t.endswith("f") for t in tiles_of(text)):
            continue
        assert Counter(names(table.seat(seat).hand)) == Counter(tiles_of(text))
    assert table.drawn(0) == tiles_of(hands[0])[-1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_dice_are_rolled_with_the_number_of_dice_the_variant_throws(variant: str) -> None:
    table = Table(variant)
    started = table.start()[0]
    assert isinstance(started, ev.HandStarted)
    assert started.dice == DICE[variant] == table.hand.dice
    seeded = Table(variant)
    seeded.do(StartHand(seed="dice-seed-1"))
    dice = seeded.hand.dice
    assert len(dice) == seeded.state.variant.config.dice_count and all(1 <= d <= 6 for d in dice)


@pytest.mark.parametrize("variant", VARIANTS)
def test_wrong_dice_are_refused(variant: str) -> None:
    table = Table(variant)
    wall = wall_for(variant)
    assert "dice" in table.refuse(StartHand(wall=wall, dealer=0, dice=(7,) * len(DICE[variant])))
    assert table.refuse(StartHand(wall=wall, dealer=0, dice=(1,) * (len(DICE[variant]) + 1)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_wall_that_is_not_the_variants_set_is_refused(variant: str) -> None:
    table = Table(variant)
    wall = list(wall_for(variant))
    wall[0] = "1m" if wall[0] != "1m" else "2m"
    reason = table.refuse(StartHand(wall=tuple(wall), dealer=0, dice=DICE[variant]))
    assert "missing" in reason


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_seed_gives_the_same_hand_every_time(variant: str) -> None:
    a, b = Table(variant), Table(variant)
    a.do(StartHand(seed="same-seed-123"))
    b.do(StartHand(seed="same-seed-123"))
    assert a.events[1:] == b.events[1:]
    c = Table(variant)
    c.do(StartHand(seed="other-seed-456"))
    assert c.of_type(ev.TilesDealt) != a.of_type(ev.TilesDealt)


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_the_last_tile_of_the_wall_is_set_aside_as_the_bao_after_the_deal(variant: str) -> None:
    table = Table(variant)
    events = table.start(tail=["9p"])
    assert [type(e) for e in events] == [ev.HandStarted, ev.TilesDealt, ev.BaoSetAside]
    assert events[-1].tile == "9p"
    assert names([table.hand.bao]) == ["9p"] and table.hand.tail == 111


def test_tanggu_turns_up_the_hun_indicator_counted_back_from_the_end_by_the_dice() -> None:
    table = Table("tanggu")
    # dice (1, 2) then (1, 1): the indicator is the 5th tile from the end
    events = table.start(tail=[None, None, None, None, "9m"], dice=(1, 2, 1, 1))
    revealed = events[-1]
    assert isinstance(revealed, ev.WildcardsRevealed)
    assert revealed.indicator == "9m" and revealed.position_from_end == 5
    assert sorted(revealed.wildcards) == ["1m", "9m"]  # 9 wraps to 1
    assert table.hand.indicator_index == 136 - 5


@pytest.mark.parametrize(
    "indicator, next_kind",
    [("7z", "6z"), ("6z", "5z"), ("5z", "7z"), ("4z", "1z"), ("1z", "2z"), ("5p", "6p")],
)
def test_tanggu_hun_are_the_indicator_and_the_next_tile(indicator: str, next_kind: str) -> None:
    table = Table("tanggu")
    events = table.start(tail=[None, None, None, None, None, None, indicator], dice=(2, 2, 1, 2))
    revealed = events[-1]
    assert revealed.position_from_end == 7
    assert set(revealed.wildcards) == {indicator, next_kind}


@pytest.mark.parametrize("variant", ["shandong", "shanghai"])
def test_flowers_dealt_are_replaced_from_the_tail_dealer_first_round_after_round(
    variant: str,
) -> None:
    table = Table(variant)
    hands = {
        0: "1f123m456p789s11z2z3z",
        1: "2f3f123m456p789s4z5z",
        2: "123m456p789s6677z",
        3: "4f123m456p789s234z",
    }
    # replacements from the end: the dealer's 1f gets 5f (a flower again: next round), seat 1's
    # 2f and 3f get 9m 9p, seat 3's 4f gets 1s; round two: the dealer's 5f gets 6z
    events = table.start(hands, tail=["5f", "9m", "9p", "1s", "6z"], dealer=0)
    replaced = [(e.seat, e.flower, e.replacement) for e in table.of_type(ev.FlowerReplaced, events)]
    assert replaced == [
        (0, "1f", "5f"),
        (1, "2f", "9m"),
        (1, "3f", "9p"),
        (3, "4f", "1s"),
        (0, "5f", "6z"),
    ]
    assert names(table.seat(0).flowers) == ["1f", "5f"]
    assert "6z" in names(table.seat(0).hand) and not any(
        t.endswith("f") for s in range(4) for t in names(table.seat(s).hand)
    )
    assert [len(table.seat(s).hand) for s in range(4)] == [14, 13, 13, 13]
    assert table.hand.step == "discard" and table.hand.turn == 0


def test_tanggu_deals_first_to_seat_zero_when_no_dealer_is_given() -> None:
    table = Table("tanggu")
    table.do(StartHand(seed="first-hand-seed"))
    assert table.hand.dealer == 0  # 系统默认第一个入座并举手的玩家为第一局庄家


# -- where the deal starts -------------------------------------------------------------------
# The shuffled wall stands for the four walls laid end to end, the one in front of seat s
# first-from-seat-0; a stack is two tiles.
@pytest.mark.parametrize("dealer", range(4))
def test_mudanjiang_the_dealer_takes_first_from_the_wall_of_the_opposite_seat(dealer: int) -> None:
    """000: 庄家根据摇出筛子的点数从对家的牌蹲中先拿牌 (decision 15): whatever the dice show, the
    deal starts in the wall in front of the dealer's opposite seat; the dice count stacks along it."""
    variant = variant_of("mudanjiang")
    wall = full_set(variant.config)  # 112 tiles in kind order: each rotation is another order
    side = len(wall) // 4
    opposite = (dealer + 2) % 4
    for a in range(1, 7):
        for b in range(1, 7):
            start = opposite * side + 2 * (a + b)
            assert wall_in_draw_order(variant, wall, (a, b), dealer) == wall[start:] + wall[:start]


def test_harbin_still_counts_the_side_from_the_dealer_with_the_first_throw() -> None:
    """001: 庄家摇两次筛子第一次逆时针数点找到先拿牌的人 — the first throw finds the wall."""
    variant = variant_of("harbin")
    wall = full_set(variant.config)
    side = len(wall) // 4
    # a first throw of 5 counts the dealer as 1: back round to the dealer's own wall
    start = 0 * side + 2 * (2 + 5)
    assert wall_in_draw_order(variant, wall, (1, 4, 2, 5), 0) == wall[start:] + wall[:start]
