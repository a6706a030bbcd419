"""塘沽麻将: the 混 shown to all, 相公 (a discarded 混: no claim on it, no win for that seat, play
goes on), 风头杠, the last 34 tiles never drawn, the system playing a seat after 听, 独抱 declared,
上大台 at most twice, and who deals next."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table import decide
from services.rules.table.commands import (
    DeclareHonourKong,
    DeclareWin,
    DiscardTile,
    RaiseWildPair,
    StartHand,
)
from services.rules.table.redact import event_for
from services.rules.table.walls import drawable
from services.rules.tiles import names

from .builders import Table, head_draws, play_out, tail_for, tanggu_table, wall_for

DEALER = "147p258s369p6z7z1s2z"  # 13; the 14th is the tile seat 0 throws first
WAITS_5P_1 = "123m789m789s11z46p"  # seat 1 waits on 5p (a 坎张: 独抱 may be declared)
DICE = (1, 2, 1, 1)  # the 混 indicator is the 5th tile from the end


tanggu = tanggu_table  # 混 = 3z and 4z (西, 北) unless another indicator is given


# -- the 混 ------------------------------------------------------------------------------------
def test_tanggu_every_seat_sees_the_indicator_and_the_hun() -> None:
    table = tanggu({0: DEALER + "1m"})
    for seat in (0, 1, 2, 3, None):
        view = table.view(seat)["hand"]
        assert view["indicator"] == "3z" and view["wildcards"] == ["3z", "4z"]


def test_tanggu_the_indicator_is_never_drawn_and_replacements_step_over_it() -> None:
    # the indicator is 5th from the end: four kongs' replacements take the 1st–4th tiles from the
    # end, the fifth replacement (seat 1's kong of seat 0's 9m) is the 6th
    table = tanggu(
        {0: "1111m2222m3333m5m5m", 1: "999m"}, replacements=["5m", "5m", "7m", "9m", "6m"]
    )
    for kind in ("1m", "2m", "3m", "5m"):
        table.kong(0, kind)
    assert table.drawn(0) == "9m" and len(table.seat(0).hand) == 2
    table.discard(0, "9m")
    table.pass_all(but=[1])
    table.kong(1)
    assert table.drawn(1) == "6m"
    assert table.hand.indicator_index == 136 - 5
    assert table.view(1)["hand"]["indicator"] == "3z"


def test_tanggu_a_discarded_hun_makes_the_seat_xianggong_and_nobody_may_claim_it() -> None:
    table = tanggu({0: DEALER + "1m", 1: WAITS_5P_1, 2: "3z3z"}, draws=["3z"])
    table.play(0, "1m")
    assert table.drawn(1) == "3z"
    events = table.discard(1, "3z")
    assert table.seat(1).xianggong
    assert (
        table.hand.window is None and isinstance(events[-1], ev.TileDrawn) and events[-1].seat == 2
    )
    for seat in (0, 1, 2, 3, None):
        assert table.view(seat)["hand"]["seats"][1]["xianggong"] is True


def test_tanggu_a_xianggong_seat_cannot_win_on_a_discard_or_by_self_draw_but_plays_on() -> None:
    table = tanggu({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["3z", "5p", "8p", "8p", "5p"])
    table.play(0, "1m")
    table.discard(1, "3z")
    table.pass_all()
    table.discard(2, "5p")  # seat 1 would complete on it
    assert "win" not in table.options_of(1)
    table.pass_all()
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert table.drawn(1) == "5p"
    assert "相公" in table.refuse(DeclareWin(seat=1))
    table.discard(1, "5p")


def test_tanggu_a_hun_in_the_hand_stands_for_any_suited_tile() -> None:
    table = tanggu({0: DEALER + "1m", 1: "123m789m789s11z4p3z"}, draws=["6p"])
    table.play(0, "1m")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.self_drawn and won.tile == "6p"


def test_tanggu_a_hun_does_not_stand_for_an_honour() -> None:
    # 11z pair and 2z + 混 would need the 混 to be 2z: no win on 5z either
    table = tanggu({0: DEALER + "1m", 1: "123m789m789s2z3z11z"}, draws=["5z"])
    table.play(0, "1m")
    assert table.refuse(DeclareWin(seat=1))


# -- 风头杠 ----------------------------------------------------------------------------------
def test_tanggu_feng_tou_gang_of_the_dragons_is_an_exposed_kong_of_three_with_no_replacement() -> (
    None
):
    table = tanggu({0: "567z147p258s369p1s" + "2s"}, indicator="9m")
    events = table.honour_kong(0, "dragons")
    declared = table.of_type(ev.KongDeclared, events)[0]
    assert (
        declared.kind == "dragon_kong"
        and declared.tiles == ("5z", "6z", "7z")
        and declared.replacement is None
    )
    assert len(table.seat(0).hand) == 11 and table.hand.turn == 0 and table.hand.step == "discard"
    for seat in (1, 2, 3):
        assert table.view(seat)["hand"]["seats"][0]["melds"][0]["tiles"] == "567z"


def test_tanggu_feng_tou_gang_of_the_winds_is_a_concealed_kong_with_a_replacement() -> None:
    table = tanggu({0: DEALER + "1m", 2: "1234z"}, indicator="9m", replacements=["5p"])
    events = table.honour_kong(2, "winds")
    declared = table.of_type(ev.KongDeclared, events)[0]
    assert declared.kind == "wind_kong" and declared.replacement == "5p"
    assert len(table.seat(2).hand) == 10 and "5p" in names(table.seat(2).concealed)
    assert table.hand.turn == 0  # still the dealer's first discard
    assert table.view(1)["hand"]["seats"][2]["melds"][0]["tiles"] is None  # face down to others
    assert table.view(2)["hand"]["seats"][2]["melds"][0]["tiles"] == "1234z"


def test_tanggu_feng_tou_gang_comes_before_the_first_draw() -> None:
    table = tanggu({0: DEALER + "1m", 1: "1234z"}, indicator="9m")
    table.play(0, "1m")
    assert table.hand.turn == 1
    assert "first draw" in table.refuse(DeclareHonourKong(seat=1, honours="winds"))


def test_tanggu_a_seat_may_declare_feng_tou_gang_on_another_seat_s_turn_before_its_own_first_draw() -> (
    None
):
    table = tanggu({0: DEALER + "1m", 2: "567z"}, indicator="9m")
    table.play(0, "1m")  # seat 1 draws; seat 2 has not drawn yet
    assert table.hand.turn == 1 and not table.seat(2).has_drawn
    declared = table.of_type(ev.KongDeclared, table.honour_kong(2, "dragons"))[0]
    assert declared.kind == "dragon_kong" and table.hand.turn == 1


def test_tanggu_feng_tou_gang_needs_the_honours() -> None:
    table = tanggu({0: DEALER + "1m"}, indicator="9m")
    assert "does not hold" in table.refuse(DeclareHonourKong(seat=0, honours="dragons"))


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin", "shandong", "shanghai"])
def test_only_tanggu_has_feng_tou_gang(variant: str) -> None:
    table = Table(variant)
    table.start()
    assert "风头杠" in table.refuse(DeclareHonourKong(seat=0, honours="dragons"))


# -- the wall --------------------------------------------------------------------------------
def test_tanggu_the_last_34_tiles_are_never_drawn() -> None:
    table = tanggu({0: DEALER + "1m"}, draws=[None] * 48 + ["9m"])
    play_out(table)
    assert table.of_type(ev.HandDrawn)
    assert head_draws(table) == 136 - 53 - 34
    last = [e for e in table.events if isinstance(e, ev.TileDrawn)][-1]
    assert last.tile == "9m"  # the 35th tile from the end (全副的反数第35张牌)
    assert table.hand.tail - table.hand.head == 34


def test_tanggu_a_kong_replacement_shortens_the_live_wall() -> None:
    table = tanggu({0: "1111m" + "147p258s369p1s"}, replacements=["6z"])
    table.kong(0, "1m")
    play_out(table)
    assert head_draws(table) == 136 - 53 - 34 - 1


# -- after 听 the system plays the seat ----------------------------------------------------------
def _ready_seat_one(
    draws: list[str | None], mode: str = "plain", hands: dict[int, str] | None = None
) -> Table:
    table = tanggu({0: DEALER + "1m", 1: WAITS_5P_1, **(hands or {})}, draws=["6z", *draws])
    table.play(0, "1m")
    table.discard(1, "6z", ready=mode)
    table.pass_all()
    assert table.seat(1).ready == mode
    return table


def test_tanggu_after_ready_the_system_throws_a_drawn_tile_that_does_not_win() -> None:
    table = _ready_seat_one(["8p", "8p", "8p", "9m"])
    play_out(table, until=lambda t: t.hand.turn == 2 and head_draws(t) == 6)
    thrown = [e for e in table.events if isinstance(e, ev.TileDiscarded) and e.seat == 1]
    assert thrown[-1].tile == "9m" and thrown[-1].automatic


def test_tanggu_after_ready_the_system_wins_a_self_draw_for_the_seat() -> None:
    table = _ready_seat_one(["8p", "8p", "8p", "5p"])
    play_out(table)
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.self_drawn and won.tile == "5p"  # no command from seat 1


def test_tanggu_after_ready_the_system_wins_a_discard_for_the_seat() -> None:
    table = _ready_seat_one(["5p"])
    table.discard(2, "5p")
    table.pass_all()
    won = table.last(ev.HandWon).wins[0]
    assert won.seat == 1 and won.discarder == 2


def test_tanggu_a_ready_seat_is_not_asked_to_pong() -> None:
    table = _ready_seat_one(["1z"])
    table.discard(2, "1z")
    assert "pong" not in table.options_of(1)


# -- 独抱 --------------------------------------------------------------------------------------


def test_tanggu_du_bao_is_declared_on_a_single_kanzhang_wait() -> None:
    table = _ready_seat_one(["5p"], mode="dubao")
    assert table.seat(1).ready == "dubao"
    table.discard(2, "5p")
    table.pass_all()
    assert table.last(ev.HandWon).wins[0].seat == 1


def test_tanggu_du_bao_may_be_declared_on_an_honour_single_wait() -> None:
    table = tanggu({0: DEALER + "1m", 1: "123m789m789s111z5z"}, draws=["6z", "5z"])
    table.play(0, "1m")
    table.discard(1, "6z", ready="dubao")
    assert table.seat(1).ready == "dubao"
    table.discard(2, "5z")
    table.pass_all()
    assert table.last(ev.HandWon).wins[0].seat == 1
    assert table.last(ev.HandSettled).hand_payments == (-2, 6, -2, -2)


def test_tanggu_du_bao_is_refused_on_a_two_sided_wait() -> None:
    table = tanggu({0: DEALER + "1m", 1: "123m789m789s11z45p"}, draws=["6z"])
    table.play(0, "1m")
    assert "独抱" in table.refuse(DiscardTile(seat=1, tile="6z", ready="dubao"))


def test_tanggu_a_single_wait_not_declared_du_bao_scores_no_du_bao() -> None:
    table = _ready_seat_one(["5p"], mode="plain")
    table.discard(2, "5p")
    table.pass_all()
    assert table.last(ev.HandSettled).hand_payments == (0, 0, 0, 0)


def test_tanggu_a_win_without_any_ready_declaration_is_allowed() -> None:
    table = tanggu({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["5p"])
    table.play(0, "1m")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.self_drawn and "独抱" not in won.patterns


# -- 上大台 ------------------------------------------------------------------------------------
HUN_DIAO = "123m789m789s111z3z"  # four sets and a lone 混: 混钓


def test_tanggu_shang_da_tai_sets_a_drawn_hun_aside_and_play_goes_on() -> None:
    table = tanggu({0: DEALER + "1m", 1: HUN_DIAO}, draws=["4z"])
    table.play(0, "1m")
    assert table.drawn(1) == "4z"
    events = table.raise_wild_pair(1)
    assert [(e.seat, e.tile) for e in table.of_type(ev.WildcardSetAside, events)] == [(1, "4z")]
    assert names(table.seat(1).set_aside) == ["4z"] and len(table.seat(1).hand) == 13
    assert table.hand.turn == 2 and table.drawn(2) is not None


def test_tanggu_shang_da_tai_at_most_twice_then_the_hun_diao_wins() -> None:
    table = tanggu(
        {0: DEALER + "1m", 1: HUN_DIAO},
        draws=["4z", "8p", "8p", "8p", "4z", "5s", "5s", "5s", "4z"],
    )
    table.play(0, "1m")
    table.raise_wild_pair(1)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    table.raise_wild_pair(1)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert table.drawn(1) == "4z"
    assert "at most twice" in table.refuse(RaiseWildPair(seat=1))
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert "混钓" in won.patterns


def test_tanggu_shang_da_tai_needs_a_drawn_hun_in_hun_diao() -> None:
    table = tanggu({0: DEALER + "1m", 1: HUN_DIAO, 2: "123m789m789s22z46p"}, draws=["9p", "4z"])
    table.play(0, "1m")
    assert "drawn 混" in table.refuse(RaiseWildPair(seat=1))
    table.play(1, "9p")
    assert table.drawn(2) == "4z"
    assert "混钓" in table.refuse(RaiseWildPair(seat=2))


# -- the next dealer ---------------------------------------------------------------------------
def test_tanggu_the_dealer_keeps_the_deal_on_its_own_win() -> None:
    table = tanggu({0: "123m789m789s11z46p" + "5p"})
    table.win(0)
    assert table.last(ev.HandSettled).next_dealer == 0


def test_tanggu_another_seats_win_passes_the_deal_to_the_next_seat() -> None:
    table = tanggu({0: DEALER + "1m", 2: WAITS_5P_1}, draws=["8p", "5p"], dealer=0)
    table.play(0, "1m")
    table.play(1, "8p")
    table.win(2)
    assert table.last(ev.HandSettled).next_dealer == 1


def test_tanggu_a_drawn_hand_passes_the_deal_to_the_next_seat() -> None:
    table = tanggu({0: DEALER + "1m"})
    play_out(table)
    assert table.of_type(ev.HandDrawn)
    assert table.last(ev.HandSettled).next_dealer == 1
    table.do(StartHand(wall=wall_for("tanggu"), dice=DICE))
    assert table.hand.dealer == 1


# -- options and 相公's kongs ---------------------------------------------------------------------
def test_tanggu_with_the_258_pair_option_a_hand_paired_on_an_honour_cannot_win() -> None:
    table = Table("tanggu", options={"pair_258_only": True})
    table.start({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["5p"], tail=tail_for("tanggu"), dice=DICE)
    table.play(0, "1m")
    assert table.drawn(1) == "5p"
    assert table.refuse(DeclareWin(seat=1))


def test_tanggu_by_default_any_pair_will_do() -> None:
    table = tanggu({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["5p"])
    table.play(0, "1m")
    table.win(1)
    assert table.last(ev.HandWon).wins[0].seat == 1


def test_tanggu_a_xianggong_seats_kong_still_scores_at_the_end_of_a_won_hand() -> None:
    # seat 1 kongs 8888m face down, then throws a 混 (相公); seat 2 wins by self-draw
    table = tanggu(
        {0: DEALER + "1m", 1: "888m3m5m2s6s9s1z4z5z6z7z", 2: "123m456m789s55z46p"},
        draws=["8m", "5p"],
        replacements=["9p"],
    )
    table.play(0, "1m")
    table.kong(1, "8m")
    table.discard(1, "4z")
    table.pass_all()
    assert table.seat(1).xianggong
    table.win(2)
    settled = table.last(ev.HandSettled)
    assert settled.hand_payments[1] > 0 and sum(settled.hand_payments) == 0


def test_tanggu_a_plain_ready_is_silent_but_dubao_is_announced() -> None:
    """只有独抱需提前报听: the other seats learn of a plain 听 only when the hand ends."""
    plain = _ready_seat_one(["8p"])
    assert plain.view(1)["hand"]["seats"][1]["ready"] == "plain"
    for viewer in (0, 2, 3, None):
        assert plain.view(viewer)["hand"]["seats"][1]["ready"] is None
    dubao = _ready_seat_one(["8p"], mode="dubao")
    for viewer in (0, 2, 3, None):
        assert dubao.view(viewer)["hand"]["seats"][1]["ready"] == "dubao"


def test_tanggu_a_plain_ready_is_not_announced_in_the_other_seats_event_streams() -> None:
    table = tanggu({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["6z"])
    table.play(0, "1m")
    before = table.state
    discarded = decide(before, DiscardTile(seat=1, tile="6z", ready="plain"))[0]
    assert event_for(1, discarded, before)["ready"] == "plain"
    for viewer in (0, 2, 3, "spectator"):
        assert event_for(viewer, discarded, before).get("ready") is None


def test_tanggu_stepping_over_the_indicator_shortens_the_live_wall_by_one_tile_only() -> None:
    """Decision 9: 全副的反数第35张牌 is the last tile drawn; the indicator is one of the last 34
    wherever it lies, so the replacement that steps over it shortens the live wall by one tile,
    like every other replacement. The indicator is 5th from the end; the fifth kong steps over it."""
    table = tanggu(
        {0: "1111m2222m3333m5m5m", 1: "999m"}, replacements=["5m", "5m", "7m", "9m", "6m"]
    )
    config = table.state.variant.config
    live = [drawable(config, table.hand)]
    for kind in ("1m", "2m", "3m", "5m"):
        table.kong(0, kind)
        live.append(drawable(config, table.hand))
    table.discard(0, "9m")
    table.pass_all(but=[1])
    table.kong(1)
    assert table.drawn(1) == "6m"  # the 6th from the end: the 5th is the indicator
    live.append(drawable(config, table.hand))
    assert live == [136 - 53 - 34 - k for k in range(6)]
    play_out(table)
    assert head_draws(table) == 136 - 53 - 34 - 5


# -- 局分 paid on every hand, won or drawn (decision 8) -------------------------------------------
# 004: 每个人都要计分 … 明杠：2分×明杠次数; 暗杠：4分×暗杠次数; "独抱"…不论"和"牌，其他玩家均-2;
# "上大台"不成功否均每次+5. Each is paid by every other seat, whoever wins and if nobody does.


def _from_each_other_seat(seat: int, amount: int) -> tuple[int, ...]:
    return tuple(3 * amount if s == seat else -amount for s in range(4))


def test_tanggu_kong_points_are_paid_on_a_drawn_hand_too() -> None:
    table = tanggu({0: DEALER + "1m", 1: "888m3m5m2s6s9s1z4z5z6z7z"}, draws=["8m"])
    table.play(0, "1m")
    table.kong(1, "8m")
    play_out(table)
    assert table.of_type(ev.HandDrawn)
    assert table.last(ev.HandSettled).hand_payments == _from_each_other_seat(1, 4)


def test_tanggu_du_bao_is_paid_when_another_seat_wins() -> None:
    table = _ready_seat_one(["6p"], mode="dubao", hands={2: "123m456m789s55z57p"})
    assert table.drawn(2) == "6p"
    table.win(2)
    assert table.last(ev.HandWon).wins[0].seat == 2
    assert table.last(ev.HandSettled).hand_payments == _from_each_other_seat(1, 2)


def test_tanggu_du_bao_won_on_a_discard_is_paid_once_by_each_other_seat() -> None:
    table = _ready_seat_one(["5p"], mode="dubao")
    table.discard(2, "5p")
    table.pass_all()
    won = table.last(ev.HandWon).wins[0]
    assert won.payments[0] == won.payments[3] == 0  # the win: 放炮, the discarder alone
    assert table.last(ev.HandSettled).hand_payments == _from_each_other_seat(1, 2)


def test_tanggu_shang_da_tai_is_paid_when_another_seat_wins() -> None:
    table = tanggu({0: DEALER + "1m", 1: HUN_DIAO, 2: "123m456m789s55z46p"}, draws=["4z", "5p"])
    table.play(0, "1m")
    table.raise_wild_pair(1)
    assert table.drawn(2) == "5p"
    table.win(2)
    assert table.last(ev.HandSettled).hand_payments == _from_each_other_seat(1, 5)


def test_tanggu_shang_da_tai_is_paid_once_when_its_seat_wins() -> None:
    table = tanggu(
        {0: DEALER + "1m", 1: HUN_DIAO},
        draws=["4z", "8p", "8p", "8p", "4z", "5s", "5s", "5s", "4z"],
    )
    table.play(0, "1m")
    table.raise_wild_pair(1)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    table.raise_wild_pair(1)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert "上大台" not in won.patterns and "混钓" in won.patterns
    assert table.last(ev.HandSettled).hand_payments == _from_each_other_seat(1, 2 * 5)
