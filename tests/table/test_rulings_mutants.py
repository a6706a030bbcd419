"""Rulings that the mutation run of ``services/rules/table/rulings.py`` found no test holding: a
seat told nothing before the tiles are set up or after the hand, its own silent 听, each other
seat in turn as a discarder, waits scored as a later draw (no 杠上开花, no 天和) and as a 暗楼
that still wins on a discard, the scorer's own refusals, the 混 and the 宝 as discards, the last
four draws, and why a 碰听, a 吃, a 碰 or a 明杠 is not offered (docs/testing.md, issue 28)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.rules.events import hand as ev
from services.rules.table import decide, evolve
from services.rules.table.commands import DiscardTile, StartHand
from services.rules.table.rulings import (
    AFTER_READY,
    HUN_UNCLAIMABLE,
    KONG_AFTER_READY,
    KONG_LOSES_READY,
    LAST_DRAWS,
    NOT_NEAR_READY,
    NOT_NEXT_SEAT,
    NOT_READY,
    NOT_WINNING,
    ClaimRuling,
    Rulings,
    WaitRuling,
    rulings,
)
from services.rules.table.walls import drawable, in_last_draws
from services.rules.tiles import names, parse_tiles

from .builders import (
    DICE,
    Table,
    draws_at,
    play_out,
    seat_one_chows_1m_and_declares_ready,
    tail_for,
    wall_for,
)

DEALER = "147p258s369p4s5m6m3m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws first
MUDANJIANG_EXAMPLE = "11s88m789m222p345s"  # 000: waits on 1s and 8m
TANGGU_WAIT = "123m456m789p11s45s"  # waits on 3s and 6s, its pair 11s (no 二五八将)
TANGGU_HUN = ("3z", "4z")  # tail_for's indicator 西 and the next kind 北: the 7 混


def claims_of(found: Rulings) -> dict[str, ClaimRuling]:
    return {c.kind: c for c in found.claims}


def waits_by_tile(found: Rulings) -> dict[str, WaitRuling]:
    return {w.tile: w for w in found.waits}


def patterns(wait: WaitRuling) -> list[list[str]]:
    return [win.score.patterns if win.score else [] for win in wait.wins]


# -- what a seat is told, and when --------------------------------------------------------------
def test_rulings_are_frozen_once_given() -> None:
    """A ruling told to a seat (and remembered while its hand stays the same) cannot be altered."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "1p", 1: MUDANJIANG_EXAMPLE}, tail=tail_for("mudanjiang"))
    found = rulings(table.state, 1)
    with pytest.raises(ValidationError):
        found.seat = 2  # type: ignore[misc]
    with pytest.raises(ValidationError):
        found.waits[0].wins[0].allowed = True  # type: ignore[misc]


@pytest.mark.parametrize("seat", [-1, 4])
def test_a_seat_outside_0_to_3_is_refused(seat: int) -> None:
    table = Table("mudanjiang")
    table.start(tail=tail_for("mudanjiang"))
    with pytest.raises(ValueError, match="seat must be 0–3"):
        rulings(table.state, seat)


def test_an_open_table_before_its_first_hand_rules_on_nothing() -> None:
    found = rulings(Table("mudanjiang").state, 2)
    assert (found.seat, found.variant) == (2, "mudanjiang")
    assert found.hand_number is None and found.step is None and found.ready is None
    assert not (found.waits or found.discards or found.claims or found.self_drawn)


def test_while_the_bao_is_set_aside_a_ready_shape_is_not_ruled_on_yet() -> None:
    """``000``: 所有玩家抓完牌后，牌墙中的最后一张牌为宝牌 — until it is set aside the hand is not
    in play (step ``setup``): a seat already waiting is told the hand and the step, no waits."""
    table = Table("mudanjiang")
    hands = {0: DEALER + "1p", 1: MUDANJIANG_EXAMPLE}
    wall = wall_for("mudanjiang", hands, (), tail_for("mudanjiang"))
    state = table.state
    for event in decide(state, StartHand(wall=wall, dealer=0, dice=DICE["mudanjiang"])):
        state = evolve(state, event)
        if isinstance(event, ev.TilesDealt):
            assert state.hand is not None and state.hand.step == "setup" and not state.hand_over
            found = rulings(state, 1)
            assert (found.hand_number, found.step) == (1, "setup")
            assert found.waits == [] and found.ready_blockers == []
    assert [w.tile for w in rulings(state, 1).waits] == ["8m", "1s"]  # in play: its waits


def test_once_the_hand_is_over_a_seat_is_told_its_number_and_that_it_ended() -> None:
    """山东 天和 (庄家起手和牌): the dealer wins on its opening fourteen; the hand is settled."""
    table = Table("shandong")
    table.start({0: "123m456m789m123p5s5s"}, tail=tail_for("shandong"))
    table.win(0)
    assert table.state.hand_over
    for seat in range(4):
        found = rulings(table.state, seat)
        assert (found.hand_number, found.step) == (1, "ended")
        assert not (found.waits or found.discards or found.claims or found.self_drawn)


# -- waits, each other seat as a discarder -------------------------------------------------------
def test_each_other_seat_in_turn_is_a_discarder_and_a_win_refused_is_not_allowed() -> None:
    """牡丹江 先听后胡 (``NOT_READY``): seats 2 and 3 wait but are not 听, so 自摸 and a discard
    from each of the three other seats, in turn order from the next, are refused, none allowed."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "1p", 2: MUDANJIANG_EXAMPLE, 3: "67789m555p99s234s"},
                tail=tail_for("mudanjiang"))  # fmt: skip
    for seat, discarders in ((2, [None, 3, 0, 1]), (3, [None, 0, 1, 2])):
        found = rulings(table.state, seat)
        assert found.waits
        for wait in found.waits:
            assert [w.discarder for w in wait.wins] == discarders
            for win in wait.wins:
                assert (win.allowed, win.score, win.blocker) == (False, None, NOT_READY)


def test_a_seat_that_draws_its_winning_tile_is_told_its_self_draw_and_no_other_draw_is() -> None:
    """``000`` 自摸: 所需的最后一张牌由自己抓来; a draw that does not complete the hand is no 自摸."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "2p", 1: "22p11s88m789m345s7z"},
                draws=["9p", "9p", "9p", "2m", "9m", "9m", "9m", "1s"],
                tail=tail_for("mudanjiang"))  # fmt: skip
    table.discard(0, "2p")
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    for seat in (2, 3, 0):
        table.play(seat, table.drawn(seat))  # type: ignore[arg-type]
    assert table.drawn(1) == "2m"
    found = rulings(table.state, 1)
    assert found.self_drawn is None and [w.tile for w in found.waits] == ["8m", "1s"]
    table.play(1, "2m")
    for seat in (2, 3, 0):
        table.play(seat, table.drawn(seat))  # type: ignore[arg-type]
    assert table.drawn(1) == "1s"
    drawn = rulings(table.state, 1).self_drawn
    assert drawn is not None and drawn.discarder is None and drawn.allowed
    assert drawn.score is not None and "自摸" in drawn.score.patterns


def test_a_seat_is_told_its_own_silent_ting() -> None:
    """``004``: 只有独抱需提前报听 — a plain 听 is kept from the other seats, never from the seat
    that declared it."""
    table = Table("tanggu")
    table.start({0: TANGGU_WAIT + "7z"}, tail=tail_for("tanggu"))
    table.discard(0, "7z", ready="plain")
    assert table.seat(0).ready == "plain"
    assert rulings(table.state, 0).ready == "plain"
    assert rulings(table.state, 1).ready is None


# -- waits scored as a later draw, and as the 听 a discard would declare ---------------------------
def test_a_wait_is_scored_on_a_later_draw_not_as_the_kong_replacement_just_drawn() -> None:
    """山东 杠上开花: 明杠、暗杠以及补杠和时，从牌尾拿到的牌 — seat 0 has just drawn a kong
    replacement; seat 1 would win on a later draw of its own, no 杠上开花."""
    table = Table("shandong")
    table.start({0: "1111m234p567s99p8s7z", 1: MUDANJIANG_EXAMPLE},
                tail=tail_for("shandong", ["6m"]))  # fmt: skip
    table.kong(0, "1m")
    assert table.hand.after_kong and table.drawn(0) == "6m"
    waits = waits_by_tile(rulings(table.state, 1))
    assert sorted(waits) == ["1s", "8m"]
    for wait in waits.values():
        assert all(win.allowed for win in wait.wins)
        assert not any("杠上开花" in p for p in patterns(wait))


def shandong_dealer_fourteen() -> Rulings:
    """The dealer's opening fourteen: throwing 9s leaves 123m 456m 789m 11p 45p, waiting on 3p, 6p."""
    table = Table("shandong")
    table.start({0: "123m456m789m11p45p9s"}, tail=tail_for("shandong"))
    return rulings(table.state, 0)


def test_the_waits_after_the_dealers_first_discard_are_no_tianhe() -> None:
    """山东 天和: 庄家起手和牌 — only the opening fourteen; a wait after a discard wins later."""
    (discard,) = [d for d in shandong_dealer_fourteen().discards if d.discard == "9s"]
    assert [w.tile for w in discard.waits] == ["3p", "6p"]
    for wait in discard.waits:
        assert wait.wins[0].allowed and not any("天和" in p for p in patterns(wait))


def test_a_discard_ruling_scores_its_waits_as_an_anlou_that_still_wins_on_a_discard() -> None:
    """山东 暗楼: 听牌后并不亮牌可以胡点炮、自摸 (明楼 wins by 自摸 only): a discard's waits are
    scored as the 听 that still wins on another seat's discard."""
    (discard,) = [d for d in shandong_dealer_fourteen().discards if d.discard == "9s"]
    assert discard.ready_blockers == []
    for wait in discard.waits:
        assert [w.discarder for w in wait.wins] == [None, 1, 2, 3]
        assert all(w.allowed and w.blocker is None for w in wait.wins)


# -- what the scorer refuses, and the 混 ----------------------------------------------------------
def test_a_wait_the_scorer_refuses_under_the_258_pair_option_names_its_reason() -> None:
    """塘沽 二五八将 (option): 将牌只有二、五、八可以做将; 11s is no such pair, so the shape
    waits on 3s and 6s yet the scorer refuses every win: not allowed, with its reason."""
    table = Table("tanggu", options={"pair_258_only": True})
    table.start({0: DEALER + "1p", 1: TANGGU_WAIT}, tail=tail_for("tanggu"))
    waits = waits_by_tile(rulings(table.state, 1))
    for tile in ("3s", "6s"):
        for win in waits[tile].wins:
            assert (win.allowed, win.score) == (False, None)
            assert win.blocker is not None and "no win" in win.blocker


def test_a_hun_wait_wins_by_self_draw_and_nobody_wins_on_a_discarded_hun() -> None:
    """``004``: 混可以在牌中代替任何一张; 误将混打出…相公 — a 混 drawn completes the hand, a 混
    discarded is claimed by nobody (``HUN_UNCLAIMABLE``). 塘沽 wins without 听 first."""
    table = Table("tanggu")
    table.start({0: DEALER + "1p", 1: TANGGU_WAIT}, tail=tail_for("tanggu"))
    assert table.hand.wildcards == frozenset(parse_tiles("".join(TANGGU_HUN)))
    waits = waits_by_tile(rulings(table.state, 1))
    assert sorted(waits) == sorted(["3s", "6s", *TANGGU_HUN])
    for hun in TANGGU_HUN:
        drawn, *discarded = waits[hun].wins
        assert drawn.allowed and drawn.score is not None
        assert [(w.allowed, w.blocker) for w in discarded] == [(False, HUN_UNCLAIMABLE)] * 3
    for tile in ("3s", "6s"):
        assert all(w.allowed and w.score is not None for w in waits[tile].wins)


# -- claims ---------------------------------------------------------------------------------------
def test_a_discarded_bao_is_an_ordinary_tile_and_the_discarder_is_told_no_claims() -> None:
    """``000``: 别人打出的宝牌，不算宝牌 — seat 1 is 听 and sees the 宝 (9s); seat 2 throws a 9s,
    which does not complete seat 1's hand: no 胡 on it. Seat 2 is asked nothing on its own tile."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "2p", 1: "22p11s88m789m345s7z", 3: "99s"},
                draws=["9s"], tail=tail_for("mudanjiang", bao="9s"))  # fmt: skip
    table.discard(0, "2p")
    table.pass_all(but=[1])
    table.pung(1)
    table.discard(1, "7z", ready="plain")
    table.pass_all()
    table.discard(2, "9s")
    assert table.hand.step == "claims" and "pong" in table.options_of(3)
    found = rulings(table.state, 1)
    assert found.bao_draw is not None and found.bao_draw.tile == "9s"
    win = claims_of(found)["win"]
    assert (win.offered, win.blocker) == (False, NOT_WINNING)
    assert rulings(table.state, 2).claims == []
    assert claims_of(rulings(table.state, 3))["pong"].offered


def test_a_ready_seat_holding_three_is_told_no_ming_gang_after_ting() -> None:
    """``000``: 听牌后，当前玩家不允许再杠牌、碰牌、吃牌，只能胡牌 — seat 1 is 听 holding 555p and
    seat 2 throws the fourth 5p: no 明杠 (nor 碰, 碰听, 吃), and 5p does not complete its hand."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "1m", 1: "23m555p789s11s68p9m", 3: "46p"},
                draws=["5p"], tail=tail_for("mudanjiang"))  # fmt: skip
    seat_one_chows_1m_and_declares_ready(table)
    table.discard(2, "5p")
    assert table.hand.step == "claims" and table.options_of(1) == ()
    claims = claims_of(rulings(table.state, 1))
    assert claims["kong"].blocker == KONG_AFTER_READY
    assert claims["win"].blocker == NOT_WINNING
    for kind in ("pong", "ready_pong", "chi", "ready_chi"):
        assert claims[kind].blocker == AFTER_READY
    assert not any(c.offered for c in claims.values())


def test_harbin_a_kong_of_a_discard_that_would_lose_the_ting_is_refused_so_named() -> None:
    """``001``: 系统判断杠牌后的牌型是否无法上听…则不允许杠牌 — seat 1 is 听 on 234m 44m 46p 666s
    (with its 吃 of 123m, waiting on 5p); a 明杠 of the fourth 4m leaves 23m 46p 666s, no 听."""
    table = Table("harbin")
    table.start({0: "147p258s369p4s5m6m8m1m", 1: "2233444m46p666s9m", 3: "56m"},
                draws=["4m"], tail=tail_for("harbin"))  # fmt: skip
    seat_one_chows_1m_and_declares_ready(table)
    assert table.seat(1).ready == "plain"
    table.discard(2, "4m")
    assert table.hand.step == "claims" and table.options_of(1) == ()
    claims = claims_of(rulings(table.state, 1))
    assert claims["kong"].blocker == KONG_LOSES_READY
    assert claims["pong"].blocker == AFTER_READY


def test_harbin_a_seat_left_with_four_concealed_tiles_may_not_claim() -> None:
    """``001``: 系统自动限制剩4个牌后不可以吃碰杠操作 — after three 碰 seat 1 holds 77s 2p 8p and
    is asked nothing on seat 2's 7s."""
    table = Table("harbin")
    table.start({0: "147p258s369p4s5m6m8m1m", 1: "11m99m33s77s5p6s7z2p8p", 3: "68s"},
                draws=["9m", "3s", "7s"], tail=tail_for("harbin"))  # fmt: skip
    table.discard(0, "1m")
    for throw, fed in (("5p", "9m"), ("6s", "3s"), ("7z", None)):
        table.pass_all(but=[1])
        table.pung(1)
        table.discard(1, throw)
        table.pass_all()
        if fed is not None:
            table.discard(2, fed)
    assert len(table.seat(1).concealed) == 4
    table.discard(2, "7s")
    assert table.hand.step == "claims" and table.options_of(1) == ()
    claims = claims_of(rulings(table.state, 1))
    for kind in ("pong", "kong", "chi", "ready_chi"):
        assert claims[kind].blocker == "only 4 concealed tiles: no 吃碰杠 with fewer than 5"


def test_peng_ting_is_refused_when_only_a_chow_of_the_tile_would_leave_the_hand_ready() -> None:
    """``000`` 吃听: 如果其他玩家吃(碰)进这张牌后刚好能听牌 — seat 2 (34m 9m 44p 56p 666s 789s) may
    吃听 seat 0's 4p with 56p, throw 9m and wait on 2m or 5m; a 碰 of 44p leaves 34m and 56p both
    unfinished and no pair: no 碰听, though the seat holds the pair and is one step from 听."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "4p", 2: "34m9m44p56p666s789s"}, tail=tail_for("mudanjiang"))
    table.discard(0, "4p")
    assert table.options_of(2) == ("pong", "ready_chi")
    claims = claims_of(rulings(table.state, 2))
    assert claims["ready_pong"].blocker == NOT_NEAR_READY
    assert claims["chi"].blocker == NOT_NEXT_SEAT
    assert claims["pong"].offered and claims["ready_chi"].offered


def test_a_seat_holding_three_far_from_ting_is_told_why_no_peng_ting_and_no_chow() -> None:
    """``000`` 吃听 needs the claim to leave the hand 听; 吃牌: 与他的下家手中的牌可以组成一副顺子 —
    seat 3 holds 333m but nothing near 听, and no two tiles that run with 3m."""
    table = Table("mudanjiang")
    table.start({0: DEALER + "1p", 3: "333m9m1p5p9p2s6s9s7z7z1s"}, tail=tail_for("mudanjiang"))
    table.discard(0, "3m")
    assert table.options_of(3) == ("kong", "pong")
    claims = claims_of(rulings(table.state, 3))
    assert claims["ready_pong"].blocker == NOT_NEAR_READY
    assert claims["chi"].blocker == "no two held tiles make a run (顺) with 3m"
    assert claims["ready_chi"].blocker == "no two held tiles make a run (顺) with 3m"


# -- the last four draws --------------------------------------------------------------------------
def last_draws_begin() -> Table:
    """Seat 1 is 听 on 7p (吃 of 1m, then 9m thrown); seat 0 碰s that 9m; the hand is played out
    until seat 2 has drawn the fifth tile from the end: the last four are still to be drawn."""
    table = Table("mudanjiang")
    table.start({0: "147p258s369p4s9m9m8m1m", 1: "23m555p789s11s68p9m"},
                draws=draws_at(d0="8p", d54="7p"), tail=tail_for("mudanjiang"))  # fmt: skip
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    table.discard(1, "9m", ready="plain")
    table.pass_all(but=[0])
    table.pung(0)
    table.play(0, "1p")
    config = table.state.variant.config
    play_out(table, until=lambda t: in_last_draws(config, t.hand))
    hand = table.hand
    assert (hand.turn, hand.step, hand.last_draws) == (2, "discard", False)
    assert drawable(config, hand) == 4
    return table


def blocked_discarders(found: Rulings) -> dict[int | None, bool]:
    """Seat 1's one wait (7p): for 自摸 and each discarder, whether the last draws refuse it."""
    (wait,) = found.waits
    assert wait.tile == "7p"
    for win in wait.wins:
        assert win.allowed == (win.blocker is None)
        assert win.blocker in (None, LAST_DRAWS.format(4))
    return {win.discarder: not win.allowed for win in wait.wins}


def test_the_seat_on_turn_throws_a_tile_drawn_before_the_last_four_which_may_be_won_on() -> None:
    """``000``: 荒庄前最后四张牌…系统按顺序轮流发给玩家看是否能自摸，如不能自摸则自动打出 — seat 2
    drew the fifth tile from the end: its discard may still be won on; seats 3 and 0 throw only
    what the last four give them."""
    table = last_draws_begin()
    assert blocked_discarders(rulings(table.state, 1)) == {None: False, 2: False, 3: True, 0: True}


def test_once_the_seat_on_turn_has_thrown_every_seat_throws_only_last_draws() -> None:
    """``000`` 荒庄前最后四张牌: once seat 2 has thrown, each seat's next discard is one of the
    last four draws: none may be won on, while the claims on seat 2's tile are open or once
    the table has moved on to the next draw."""
    table = last_draws_begin()
    state, hand = table.state, table.hand
    seen: set[str] = set()
    for tile in sorted(set(names(hand.seat(2).hand))):
        thrown = evolve(state, decide(state, DiscardTile(seat=2, tile=tile))[0])
        assert thrown.hand is not None
        step = thrown.hand.step
        if step in seen:
            continue
        seen.add(step)
        assert blocked_discarders(rulings(thrown, 1)) == {None: False, 2: True, 3: True, 0: True}
    assert seen == {"claims", "draw"}
