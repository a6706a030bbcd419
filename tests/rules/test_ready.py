"""听 conditions with a named blocker for each failing one, waits, and ready discards."""

from __future__ import annotations

import pytest

from services.rules.melds import Meld
from services.rules.ready import (
    NO_RUN,
    NO_TERMINAL,
    NO_TRIPLET,
    NO_WAIT,
    NOT_OPEN,
    NOT_TOGETHER,
    ONE_SUIT,
    TOO_FEW_CONCEALED,
    can_declare_ready,
    complete_hand,
    hand_waits,
    ready_blockers,
    ready_discards,
)
from services.rules.tiles import names, parse_tiles, tile
from services.rules.variants import get_variant

MUDANJIANG = get_variant("mudanjiang")
HARBIN = get_variant("harbin")
BAO_VARIANTS = [MUDANJIANG, HARBIN]


def meld(kind: str, tiles: str) -> Meld:
    return Meld(kind, tuple(parse_tiles(tiles)))  # type: ignore[arg-type]


def blockers(variant_id: str, hand: str, *melds: Meld) -> list[str]:
    return ready_blockers(get_variant(variant_id), parse_tiles(hand), melds)


def test_the_mudanjiang_example_waits_on_1s_and_8m() -> None:
    assert names(hand_waits(MUDANJIANG, parse_tiles("11s88m789m222p345s"))) == ["8m", "1s"]


@pytest.mark.parametrize("variant", BAO_VARIANTS, ids=lambda v: v.id)
def test_the_example_with_a_pong_of_2p_may_declare_ready(variant: object) -> None:
    assert can_declare_ready(variant, parse_tiles("11s88m789m345s"), [meld("pong", "222p")])  # type: ignore[arg-type]


@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
def test_a_closed_hand_is_not_open(variant_id: str) -> None:
    assert blockers(variant_id, "11s88m789m222p345s") == [NOT_OPEN]


def test_a_concealed_kong_does_not_open_the_hand() -> None:
    assert blockers("harbin", "11s88m789m345s", meld("concealed_kong", "2222p")) == [NOT_OPEN]


def test_a_kong_from_a_discard_opens_the_hand() -> None:
    assert blockers("harbin", "11s88m789m345s", meld("kong", "2222p")) == []


def test_a_hand_of_one_suit_cannot_declare_ready() -> None:
    assert blockers("mudanjiang", "1112345678m", meld("chi", "789m")) == [ONE_SUIT]


def test_the_chi_ting_example_as_printed_has_no_terminal() -> None:
    # 000: 333s234p678s3677m takes 8m with 67m, then discards 3m to wait on 7m
    assert blockers("mudanjiang", "333s234p678s7m", meld("chi", "678m")) == [NO_TERMINAL]


def test_the_chi_ting_example_with_789s_holds_in_full() -> None:
    assert blockers("mudanjiang", "333s234p789s7m", meld("chi", "678m")) == []


def test_a_red_dragon_stands_in_for_the_terminal() -> None:
    assert NO_TERMINAL not in blockers("mudanjiang", "333s234p678s7z", meld("chi", "678m"))


def test_the_chi_ting_example_discards_3m_or_7m() -> None:
    found = ready_discards(MUDANJIANG, parse_tiles("333s234p678s37m"), [meld("chi", "678m")])
    assert {names([d])[0]: names(w) for d, w in found.items()} == {"3m": ["7m"], "7m": ["3m"]}


@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
def test_a_hand_without_a_triplet_cannot_declare_ready(variant_id: str) -> None:
    assert blockers(variant_id, "234m567p345s1s", meld("chi", "789m")) == [NO_TRIPLET]


def test_mudanjiang_takes_a_pair_of_red_dragons_for_the_triplet() -> None:
    assert blockers("mudanjiang", "23m567p123s77z", meld("chi", "789m")) == []


def test_harbin_wants_three_red_dragons_not_a_pair() -> None:
    assert blockers("harbin", "23m567p123s77z", meld("chi", "789m")) == [NO_TRIPLET]


def test_harbin_takes_three_red_dragons_for_the_triplet() -> None:
    assert blockers("harbin", "2m567p123s777z", meld("chi", "789m")) == []


def test_harbin_lets_two_pairs_wait_duidao_without_a_triplet() -> None:
    assert blockers("harbin", "234m567p11s99s", meld("chi", "789m")) == []


def test_mudanjiang_does_not_let_two_pairs_stand_in_for_the_triplet() -> None:
    assert blockers("mudanjiang", "234m567p11s99s", meld("chi", "789m")) == [NO_TRIPLET]


@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
def test_a_hand_without_a_run_cannot_declare_ready(variant_id: str) -> None:
    assert blockers(variant_id, "111m999p11s22s", meld("pong", "555s")) == [NO_RUN]


def test_the_triplet_and_the_run_must_come_from_one_winning_reading() -> None:
    # 111222333m reads as three 刻 or three 顺; the 对倒 on 5p or 9s uses one reading or the other
    assert blockers("mudanjiang", "111222333m55p99s") == [NOT_OPEN, NOT_TOGETHER]


def test_harbin_duidao_joins_the_run_reading_to_a_triplet() -> None:
    assert blockers("harbin", "111222333m55p99s") == [NOT_OPEN]


def test_the_winning_tile_does_not_count_towards_the_run() -> None:
    # 45m waits on 3m or 6m: the 顺 would need the winning tile
    assert blockers("mudanjiang", "45m111p11s", meld("pong", "999s"), meld("pong", "222p")) == [
        NO_RUN
    ]


@pytest.mark.parametrize("variant_id", ["mudanjiang", "harbin"])
def test_a_single_concealed_tile_is_shou_ba_yi(variant_id: str) -> None:
    melds = (meld("chi", "123m"), meld("pong", "999p"), meld("chi", "456s"), meld("pong", "777s"))
    assert blockers(variant_id, "1s", *melds) == [TOO_FEW_CONCEALED]


def test_four_concealed_tiles_are_enough() -> None:
    melds = (meld("chi", "123m"), meld("pong", "999p"), meld("chi", "456s"))
    assert blockers("harbin", "1s777s", *melds) == []


def test_a_hand_not_waiting_names_that_and_every_other_failure() -> None:
    found = blockers("mudanjiang", "1357m2468p13579s")
    assert found[0] == NOT_OPEN
    assert found[-1] == NO_WAIT
    assert NO_TRIPLET in found and NO_RUN in found


@pytest.mark.parametrize("variant_id", ["shandong", "shanghai", "tanggu"])
def test_other_variants_need_only_a_wait(variant_id: str) -> None:
    assert blockers(variant_id, "1112345678999m") == []
    assert blockers(variant_id, "1357m2468p13579s") == [NO_WAIT]


def test_shandong_counts_seven_pairs_and_shanghai_does_not() -> None:
    hand = parse_tiles("1133557799m11p2p")
    assert hand_waits(get_variant("shandong"), hand) == [tile("2p")]
    assert hand_waits(get_variant("shanghai"), hand) == []


def test_tanggu_reads_its_hun_as_wild() -> None:
    hun = {tile("5m")}
    # 12m + the 5m 混 read as 123m; a 混 never stands for an honour, so only 7z completes the pair
    assert hand_waits(get_variant("tanggu"), parse_tiles("125m456p789s1117z"), wildcards=hun) == [
        tile("7z")
    ]
    assert hand_waits(get_variant("tanggu"), parse_tiles("125m456p789s1117z")) == []


def test_a_bao_held_in_the_hand_is_an_ordinary_tile() -> None:
    hand = parse_tiles("125m456p789s111s7z")
    assert hand_waits(HARBIN, hand, wildcards={tile("5m")}) == hand_waits(HARBIN, hand)


def test_a_kind_held_four_times_with_the_melds_is_no_wait() -> None:
    assert hand_waits(HARBIN, parse_tiles("5m"), [meld("pong", "555m")]) == []


def test_blockers_want_a_hand_of_3n_plus_1_tiles() -> None:
    with pytest.raises(ValueError, match="3n\\+1"):
        ready_blockers(HARBIN, parse_tiles("11s8m"))


def test_counts_and_tiles_give_the_same_answer() -> None:
    tiles = parse_tiles("11s88m789m345s")
    counts = [tiles.count(t) for t in range(34)]
    assert ready_blockers(HARBIN, counts, [meld("pong", "222p")]) == ready_blockers(
        HARBIN, tiles, [meld("pong", "222p")]
    )


def test_a_held_bao_may_be_the_wild_draw_of_a_complete_hand() -> None:
    hand = parse_tiles("13m345s789s11s5p")  # waits on 2m; the 5p is the drawn 宝
    assert complete_hand(HARBIN, hand, [meld("pong", "222p")], wildcards={tile("5p")})
    assert not complete_hand(HARBIN, hand, [meld("pong", "222p")])


def test_a_drawn_bao_completes_a_red_dragon_wait() -> None:
    hand = parse_tiles("123m456p789s111s7z5p")
    assert complete_hand(MUDANJIANG, hand, wildcards={tile("5p")})


def test_seven_pairs_are_complete_only_where_the_variant_counts_them() -> None:
    hand = parse_tiles("1133557799m1122p")
    assert complete_hand(get_variant("shandong"), hand)
    assert not complete_hand(get_variant("shanghai"), hand)


def test_harbin_wins_only_on_four_sets_and_a_pair_never_on_seven_pairs() -> None:
    """001: 胡牌组合只考虑只上几种其他特殊组合均不考虑."""
    assert not complete_hand(get_variant("harbin"), parse_tiles("1133557799m1122p"))
    assert complete_hand(get_variant("harbin"), parse_tiles("111333555777m22p"))
