"""听 in the 宝 variants (牡丹江, 哈尔滨): declaring it with a discard, each blocker of decision 6
refusing it, 吃听 from any seat, and what a ready seat may still do."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import DiscardTile, Kong, Pung
from services.rules.tiles import names

from .builders import BAO_VARIANTS, Table, seat_one_chows_1m_and_declares_ready, tail_for


def dealt(
    variant: str, hands: dict[int, str], draws: list[str] | None = None, first: str = "1m"
) -> Table:
    table = Table(variant)
    table.start(
        {0: _dealer_with(first), **hands}, draws=draws or ["8p", "8p"], tail=tail_for(variant)
    )
    return table


def _dealer_with(first: str) -> str:
    """Seat 0 deals: 13 quiet tiles and, dealt last, the tile it throws first."""
    return "147p258s369p4s5m6m8m" + first


def chow_from_dealer(variant: str, seat1: str, first: str, pair: str) -> Table:
    table = dealt(variant, {1: seat1}, first=first)
    table.discard(0, first)
    table.pass_all(but=[1])
    table.chow(1, pair)
    assert table.hand.turn == 1 and table.seat(1).melds
    return table


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_seat_declares_ready_with_the_discard_that_leaves_it_waiting(variant: str) -> None:
    table = chow_from_dealer(variant, "23m555p789s11s46p9m", "1m", "23m")
    events = table.discard(1, "9m", ready="plain")
    assert isinstance(events[0], ev.TileDiscarded) and events[0].ready == "plain"
    assert table.seat(1).ready == "plain"


@pytest.mark.parametrize("variant", BAO_VARIANTS)
@pytest.mark.parametrize(
    "seat1, first, pair, discard, blocker",
    [
        ("23m456m777m99m78m5m", "1m", "23m", "5m", "only one suit"),
        ("34m555p678s22s46p3p", "2m", "34m", "3p", "no 幺九 or 红中"),
        ("23m456p789s11s46p9m", "1m", "23m", "9m", "no 刻"),
    ],
    ids=["two-suits", "yaojiu-or-hongzhong", "triplet"],
)
def test_ready_is_refused_with_the_blocker_named(
    variant: str, seat1: str, first: str, pair: str, discard: str, blocker: str
) -> None:
    table = chow_from_dealer(variant, seat1, first, pair)
    reason = table.refuse(DiscardTile(seat=1, tile=discard, ready="plain"))
    assert blocker in reason
    table.discard(1, discard)  # an ordinary discard is fine
    assert table.seat(1).ready is None


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_ready_needs_a_run_as_well_as_a_triplet(variant: str) -> None:
    table = dealt(variant, {1: "11m555p999s22s44p7z"}, first="1m")
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.pung(1)
    assert "no 顺" in table.refuse(DiscardTile(seat=1, tile="7z", ready="plain"))


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_ready_needs_an_open_hand(variant: str) -> None:
    # seat 1 draws 9m into a concealed hand that waits on 5p: 听 is refused, 门清 cannot 听
    table = dealt(variant, {1: "123m555p789s11s46p"}, draws=["9m"], first="7z")
    table.discard(0, "7z")
    table.pass_all()
    assert table.drawn(1) == "9m"
    assert "开门" in table.refuse(DiscardTile(seat=1, tile="9m", ready="plain"))


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_concealed_kong_does_not_open_the_hand_for_ready(variant: str) -> None:
    table = dealt(variant, {1: "111m555p789s11s46p"}, draws=["1m", "9m"], first="7z")
    table.discard(0, "7z")
    table.pass_all()
    table.kong(1, "1m")  # replacement: the tail after the 宝
    assert table.seat(1).melds[0].kind == "concealed_kong"
    drawn = table.drawn(1)
    assert drawn is not None
    assert "开门" in table.refuse(DiscardTile(seat=1, tile=drawn, ready="plain"))


def test_mudanjiang_a_pair_of_red_dragons_stands_in_for_the_triplet() -> None:
    """000: 一对红中可以代替刻牌."""
    table = chow_from_dealer("mudanjiang", "23m456p789s77z46p9m", "1m", "23m")
    table.discard(1, "9m", ready="plain")
    assert table.seat(1).ready == "plain"


def test_harbin_a_pair_of_red_dragons_is_not_a_triplet() -> None:
    table = chow_from_dealer("harbin", "23m456p789s77z46p9m", "1m", "23m")
    assert "no 刻" in table.refuse(DiscardTile(seat=1, tile="9m", ready="plain"))


def test_harbin_two_pairs_allow_ready_without_a_triplet() -> None:
    """001: 如果无刻牌，但有两个对子也可听牌，听牌后可以胡对倒 (对倒: either pair becomes the 刻)."""
    table = chow_from_dealer("harbin", "23m678p789s11s55p9m", "1m", "23m")
    table.discard(1, "9m", ready="plain")
    assert table.seat(1).ready == "plain"


def test_mudanjiang_two_pairs_do_not_stand_in_for_the_triplet() -> None:
    table = chow_from_dealer("mudanjiang", "23m678p789s11s55p9m", "1m", "23m")
    assert "no 刻" in table.refuse(DiscardTile(seat=1, tile="9m", ready="plain"))


# -- 手把一 ------------------------------------------------------------------------------------
# Seat 1 pongs 1m from seat 0, then 5p and 9s from seat 2, and is left with 4 concealed tiles:
# 23s 7z 9m. Then seat 0 throws 1s.
SEAT1_PONGS = "11m55p99s23s7z9m4m8p6s"


def _three_pongs(variant: str) -> Table:
    table = Table(variant)
    seat0 = "1m1s" + "2p3p" + "7p8p" + "1p" + "5s7s" + "8s" + "3m" + "6m" + "2p" + "7z"
    table.start(
        {0: seat0, 1: SEAT1_PONGS, 2: "5p9s4m7m2m5m8m3m6m9m4p4p2s"},
        draws=["3s", "3s", "6p", "6p", "1s", "1m"],
        tail=tail_for(variant, ["8m"]),
    )
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.pung(1)
    table.play(1, "4m")  # seat 2 draws 3s
    table.discard(2, "5p")
    table.pass_all(but=[1])
    table.pung(1)
    table.play(1, "8p")  # seat 2 draws 3s
    table.discard(2, "9s")
    table.pass_all(but=[1])
    table.pung(1)
    table.play(1, "6s")  # seat 2 draws 6p
    assert len(table.seat(1).concealed) == 4 and len(table.seat(1).melds) == 3
    table.play(2, "6p")  # seat 3 draws 6p
    table.play(3, "6p")  # seat 0 draws 1s
    assert table.hand.turn == 0
    return table


def test_mudanjiang_ready_is_refused_when_a_claim_leaves_a_single_tile() -> None:
    table = _three_pongs("mudanjiang")
    table.discard(0, "1s")
    assert "chi" in table.options_of(1) and "ready_chi" not in table.options_of(1)
    table.pass_all(but=[1])
    table.chow(1, "23s")
    assert "手把一" in table.refuse(DiscardTile(seat=1, tile="9m", ready="plain"))


def test_harbin_a_seat_with_four_concealed_tiles_may_not_chow_pong_or_kong() -> None:
    """001: 系统自动限制剩4个牌后不可以吃碰杠操作 (decision 4)."""
    table = _three_pongs("harbin")
    table.discard(0, "1s")
    assert table.options_of(1) == ()


@pytest.mark.parametrize("variant, allowed", [("harbin", False), ("mudanjiang", True)])
def test_harbin_a_seat_with_four_concealed_tiles_may_not_add_to_its_pong(
    variant: str, allowed: bool
) -> None:
    table = _three_pongs(variant)
    table.discard(0, "1s")
    table.pass_all()
    assert table.hand.turn == 1 and table.drawn(1) == "1m"
    if allowed:
        events = table.kong(1, "1m")
        assert table.of_type(ev.KongDeclared, events)[0].kind == "added_kong"
    else:
        assert "4 concealed" in table.refuse(Kong(seat=1, tile="1m"))


# -- 吃听 --------------------------------------------------------------------------------------
READY_BY_CHI = "23m555p789s11s46p9m"  # 吃 1m with 23m, throw 9m: waits on 5p


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_chi_ting_claims_from_any_seat(variant: str) -> None:
    table = dealt(variant, {2: READY_BY_CHI}, first="1m")
    table.discard(0, "1m")
    assert table.options_of(2) == ("ready_chi",)  # seat 2 is not next to seat 0: no plain 吃
    table.pass_all(but=[2])
    events = table.chow(2, "23m", ready=True)
    claimed = table.of_type(ev.TileClaimed, events)
    assert [(c.seat, c.kind, c.ready) for c in claimed] == [(2, "chi", True)]
    assert table.hand.turn == 2 and table.seat(2).must_ready


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_chi_ting_claimer_must_discard_to_be_ready(variant: str) -> None:
    table = dealt(variant, {2: READY_BY_CHI}, first="1m")
    table.discard(0, "1m")
    table.pass_all(but=[2])
    table.chow(2, "23m", ready=True)
    reason = table.refuse(DiscardTile(seat=2, tile="5p"))
    assert "吃听" in reason
    events = table.discard(2, "9m")  # no flag needed: the claim declared it
    assert (
        events[0].ready == "plain"
        and table.seat(2).ready == "plain"
        and not table.seat(2).must_ready
    )


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_chi_ting_chow_that_cannot_make_the_seat_ready_is_not_offered(variant: str) -> None:
    table = dealt(variant, {2: "23m456p789s11s46p9m"}, first="1m")  # no 刻: no 听 after it
    table.discard(0, "1m")
    assert "ready_chi" not in table.options_of(2)


def test_mudanjiang_chi_ting_may_claim_by_pong() -> None:
    # seat 2: pong 1m with 11m, throw 9m: 555p 789s 22s 46p waits on 5p ... needs a 顺 besides
    table = dealt("mudanjiang", {2: "11m555p789s22s46p9m"}, first="1m")
    table.discard(0, "1m")
    assert set(table.options_of(2)) == {"pong", "ready_pong"}
    table.pass_all(but=[2])
    events = table.pung(2, ready=True)
    claimed = table.of_type(ev.TileClaimed, events)
    assert [(c.seat, c.kind, c.ready) for c in claimed] == [(2, "pong", True)]
    table.discard(2, "9m")
    assert table.seat(2).ready == "plain"


def test_harbin_chi_ting_is_by_chow_only() -> None:
    table = dealt("harbin", {2: "11m555p789s22s46p9m"}, first="1m")
    table.discard(0, "1m")
    assert table.options_of(2) == ("pong",)
    assert table.refuse(Pung(seat=2, ready=True))


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_next_seat_may_choose_a_plain_chow_where_chi_ting_is_possible_and_still_declare_ready(
    variant: str,
) -> None:
    table = chow_from_dealer(variant, READY_BY_CHI, "1m", "23m")
    assert not table.seat(1).must_ready
    table.discard(1, "9m", ready="plain")  # 选择吃牌后，可以听牌也可以放弃
    assert table.seat(1).ready == "plain"


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_after_a_plain_chow_the_seat_may_also_not_declare_ready(variant: str) -> None:
    table = chow_from_dealer(variant, READY_BY_CHI, "1m", "23m")
    table.discard(1, "9m")
    assert table.seat(1).ready is None


def test_mudanjiang_example_chi_ting_on_8m_then_discard_3m_or_7m() -> None:
    """``000``: 333s 234p 678s 3677m, 8m thrown → 吃听 by 678m, then 3m or 7m makes the seat 听.
    As printed the hand has no 幺九 (README); with 789s in place of 678s it holds in full."""
    for discard, wait in (("3m", "7m"), ("7m", "3m")):
        table = dealt("mudanjiang", {2: "333s234p789s3677m"}, first="8m")
        table.discard(0, "8m")
        assert "ready_chi" in table.options_of(2)
        table.pass_all(but=[2])
        table.chow(2, "67m", ready=True)
        table.discard(2, discard)
        assert table.seat(2).ready == "plain"
        from services.rules.table.winning import hand_waits

        seat = table.seat(2)
        assert names(
            hand_waits(table.state.variant.config, seat.concealed, seat.melds, frozenset())
        ) == [wait]


def test_mudanjiang_example_as_printed_has_no_yaojiu_and_cannot_chi_ting() -> None:
    table = dealt("mudanjiang", {2: "333s234p678s3677m"}, first="8m")
    table.discard(0, "8m")
    assert "ready_chi" not in table.options_of(2)


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_choosing_chi_ting_and_losing_the_claim_leaves_the_seat_unready(variant: str) -> None:
    # seat 2 may 吃听 1m; seat 3 may win?? no: seat 3 pongs — in both variants 吃听 beats 碰, so
    # make seat 1's 吃听 nearer: seats 1 and 2 both 吃听, seat 1 is nearer and takes it
    table = dealt(variant, {1: READY_BY_CHI, 2: "23m555s789p11p46s9m"}, first="1m")
    table.discard(0, "1m")
    assert "ready_chi" in table.options_of(1) and "ready_chi" in table.options_of(2)
    table.chow(2, "23m", ready=True)
    table.chow(1, "23m", ready=True)
    claimed = table.last(ev.TileClaimed)
    assert claimed.seat == 1
    assert (
        table.seat(2).ready is None and not table.seat(2).must_ready and table.seat(2).melds == ()
    )


# -- after 听 ----------------------------------------------------------------------------------
READY_ON_7P = "23m555p789s11s68p9m"  # 吃 1m with 23m, throw 9m: 555p 789s 11s 68p waits on 7p only


def _ready_seat_one(variant: str, draws: list[str]) -> Table:
    table = dealt(variant, {1: READY_ON_7P}, draws=draws, first="1m")
    seat_one_chows_1m_and_declares_ready(table)
    assert table.seat(1).ready == "plain"
    return table


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_after_ready_only_the_drawn_tile_may_be_discarded(variant: str) -> None:
    table = _ready_seat_one(variant, ["3s", "3s", "3s", "2p"])
    for _ in range(3):
        table.play(table.hand.turn, table.drawn(table.hand.turn))
    assert table.hand.turn == 1 and table.drawn(1) == "2p"
    assert "drawn tile" in table.refuse(DiscardTile(seat=1, tile="1s"))
    assert "already" in table.refuse(DiscardTile(seat=1, tile="2p", ready="plain"))
    table.discard(1, "2p")


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_is_offered_no_pong_on_its_pair(variant: str) -> None:
    table = _ready_seat_one(variant, ["1s"])
    table.discard(2, "1s")  # seat 1 holds 11s
    assert table.options_of(1) == ()


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_ready_seat_is_offered_no_chow(variant: str) -> None:
    table = _ready_seat_one(variant, ["3s", "3s", "6s"])
    table.play(2, "3s")
    table.play(3, "3s")
    table.discard(0, "6s")  # seat 1 holds 78s
    assert table.options_of(1) == ()


def test_mudanjiang_a_ready_seat_is_offered_no_kong_on_a_discard() -> None:
    table = _ready_seat_one("mudanjiang", ["5p"])
    table.discard(2, "5p")  # seat 1 holds 555p
    assert table.options_of(1) == ()


def test_harbin_a_ready_seat_may_kong_a_discard_when_it_stays_ready() -> None:
    table = _ready_seat_one("harbin", ["5p"])
    table.discard(2, "5p")  # seat 1 holds 555p; 789s 11s 68p still waits on 7p
    assert table.options_of(1) == ("kong",)
    table.pass_all(but=[1])
    table.kong(1)
    assert table.seat(1).melds[-1].kind == "kong" and table.seat(1).ready == "plain"
    assert table.hand.turn == 1 and table.seat(1).drawn is not None


def test_mudanjiang_a_ready_seat_may_not_kong_on_its_turn() -> None:
    table = _ready_seat_one("mudanjiang", ["3s", "3s", "3s", "5p"])
    for _ in range(3):
        table.play(table.hand.turn, table.drawn(table.hand.turn))
    assert table.drawn(1) == "5p"
    assert "after 听" in table.refuse(Kong(seat=1, tile="5p"))


def test_harbin_a_ready_seat_may_kong_on_its_turn_when_it_stays_ready() -> None:
    table = _ready_seat_one("harbin", ["3s", "3s", "3s", "5p"])
    for _ in range(3):
        table.play(table.hand.turn, table.drawn(table.hand.turn))
    events = table.kong(1, "5p")
    assert table.of_type(ev.KongDeclared, events)[0].kind == "concealed_kong"
    assert table.seat(1).ready == "plain"


def test_harbin_a_ready_seat_may_not_kong_when_the_kong_breaks_its_wait() -> None:
    # seat 1 pongs 1s and waits on 9p with 234m 345m 456m; a kong of the fourth 4m leaves
    # 23m 35m 56m 9p, which waits on nothing
    table = dealt("harbin", {1: "234m345m456m9p11s7z"}, draws=["3s", "3s", "3s", "4m"], first="1s")
    table.discard(0, "1s")
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    for _ in range(3):
        table.play(table.hand.turn, table.drawn(table.hand.turn))
    assert table.hand.turn == 1 and table.drawn(1) == "4m"
    assert "not ready" in table.refuse(Kong(seat=1, tile="4m"))


# -- 哈尔滨: a kong after 听 needs a hand that could still declare 听 (decision 4) ----------------
# 001: 听牌后可以杠牌的，系统判断杠牌后的牌型是否无法上听…如果判断杠牌后无法成听牌牌型，则不允许杠牌.
# Seat 1 pongs 9m from the dealer and throws 7z to be 听 on 555s 666s 777s 8s (it reads as three
# 567s runs with the 碰 as its 刻). A kong of 6s would leave 555s 777s 8s: still waiting on 8s,
# but with no 顺 in any winning reading, so the seat could not declare 听 on it.
READY_ON_RUNS = "99m555s666s777s8s7z"


def _ready_on_runs(draws: list[str]) -> Table:
    table = dealt("harbin", {1: READY_ON_RUNS}, draws=draws, first="9m")
    table.discard(0, "9m")
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    assert table.seat(1).ready == "plain"
    return table


def test_harbin_no_concealed_kong_after_ready_that_leaves_a_wait_but_no_run() -> None:
    table = _ready_on_runs(["3p", "3p", "3p", "6s"])
    for _ in range(3):
        table.play(table.hand.turn, table.drawn(table.hand.turn))
    assert table.hand.turn == 1 and table.drawn(1) == "6s"
    assert "无法上听" in table.refuse(Kong(seat=1, tile="6s"))
    assert "no 顺" in table.refuse(Kong(seat=1, tile="6s"))


def test_harbin_no_kong_on_a_discard_after_ready_that_leaves_a_wait_but_no_run() -> None:
    table = _ready_on_runs(["6s"])
    table.discard(2, "6s")  # seat 1 holds 666s
    assert "kong" not in table.options_of(1)


def test_harbin_a_kong_after_ready_may_change_the_waits() -> None:
    """001: 如果不影响听牌牌型，则让玩家自主选择是否杠牌: the waits may change (decision 4).
    Seat 1 is 听 on 2223m 456p 789s beside its 碰 of 9m (1m, 3m or 4m); a kong of the fourth 2m
    leaves 3m 456p 789s, 听 on 3m alone, with the kong as its 刻 and 456p as its 顺."""
    table = dealt("harbin", {1: "99m2223m456p789s7z"}, draws=["3p", "3p", "3p", "2m"], first="9m")
    table.discard(0, "9m")
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    for _ in range(3):
        table.play(table.hand.turn, table.drawn(table.hand.turn))
    assert table.drawn(1) == "2m"
    table.kong(1, "2m")
    seat = table.seat(1)
    assert seat.ready == "plain" and seat.melds[-1].kind == "concealed_kong"


# -- the 刻 and the 顺 in one winning arrangement (decision 6) ----------------------------------
# 000: 听牌时，牌中必须带至少一组刻牌（即三张一样的牌）与一组顺牌（例123或789）否则不可以听牌,
# 一对红中可以代替刻牌. 001: 有3个以上的红中，也可以满足刻牌的条件.


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_three_of_a_kind_that_every_winning_reading_splits_is_no_triplet(variant: str) -> None:
    """Seat 1 吃s 7s with 89s and would be 听 on 11123345p 78m (6m or 9m): the only winning reading
    is 11p 123p 345p 789m, so the three 1p are a pair and a run's end, never a 刻."""
    table = chow_from_dealer(variant, "11123345p78m89s7z", "7s", "89s")
    assert "no 刻" in table.refuse(DiscardTile(seat=1, tile="7z", ready="plain"))


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_three_of_a_kind_that_a_winning_reading_keeps_is_the_triplet(variant: str) -> None:
    """11123p 567p 99m with the 吃 of 789s: winning on 4p reads 111p 234p 567p 99m."""
    table = chow_from_dealer(variant, "11123p567p99m89s7z", "7s", "89s")
    table.discard(1, "7z", ready="plain")
    assert table.seat(1).ready == "plain"


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_kong_is_a_triplet_for_ready(variant: str) -> None:
    """Decision 6: a kong is a 刻. Seat 1 kongs the dealer's 9m; 123s 456p 78p 11s hold no 刻."""
    table = dealt(variant, {1: "999m123s456p78p11s"}, first="9m")
    table.discard(0, "9m")
    table.pass_all(but=[1])
    table.kong(1)
    drawn = table.drawn(1)
    assert drawn is not None and table.seat(1).melds[-1].kind == "kong"
    table.discard(1, drawn, ready="plain")
    assert table.seat(1).ready == "plain"


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_a_chow_is_a_run_for_ready(variant: str) -> None:
    """Decision 6: a 吃 is a 顺. 555p 999s 11s 46p hold no 顺 once 5p is the winning tile."""
    table = chow_from_dealer(variant, "23m555p999s11s46p9m", "1m", "23m")
    table.discard(1, "9m", ready="plain")
    assert table.seat(1).ready == "plain"


def test_harbin_three_red_dragons_are_the_triplet() -> None:
    """001: 有3个以上的红中，也可以满足刻牌的条件."""
    table = chow_from_dealer("harbin", "23m456p789s777z5s9m", "1m", "23m")
    table.discard(1, "9m", ready="plain")
    assert table.seat(1).ready == "plain"
