"""山东麻将: 补花 in play, 明楼/暗楼, 抢杠 on 补杠 only, 杠爆, 承包, and the reserved stacks."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import DeclareWin, DiscardTile, Kong
from services.rules.table.walls import drawable
from services.rules.tiles import names, tile, to_string

from .builders import STD, Table, head_draws, play_out, tail_for

DEALER = "147p258s369p6z7z3s9s"  # 13; the 14th is the tile seat 0 throws first
WAITS_5P_1 = "123m789m789s11z46p"  # seat 1: waits on 5p
WAITS_5P_3 = "123s789p456s22z46p"  # seat 3: waits on 5p


def shandong(
    hands: dict[int, str],
    draws: list[str | None] | None = None,
    tail: list[str | None] | None = None,
    variant: str = "shandong",
) -> Table:
    table = Table(variant)
    table.start(hands, draws=draws or [], tail=tail or [])
    return table


# -- 补花 in play ------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["shandong", "shanghai"])
def test_a_drawn_flower_is_replaced_from_the_tail_until_the_seat_holds_no_flower(
    variant: str,
) -> None:
    table = shandong(
        {0: DEALER + "1m", 1: WAITS_5P_1}, draws=["1f"], tail=["2f", "5m"], variant=variant
    )
    events = table.play(0, "1m")
    replaced = [(e.seat, e.flower, e.replacement) for e in table.of_type(ev.FlowerReplaced, events)]
    assert replaced == [(1, "1f", "2f"), (1, "2f", "5m")]
    assert table.drawn(1) == "5m" and names(table.seat(1).flowers) == ["1f", "2f"]
    assert table.hand.turn == 1 and table.hand.step == "discard"
    for seat in (0, 2, 3, None):
        assert table.view(seat)["hand"]["seats"][1]["flowers"] == ["1f", "2f"]


def test_shandong_a_win_on_a_flower_replacement_is_gang_shang_kai_hua() -> None:
    table = shandong({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["1f"], tail=["5p"])
    table.play(0, "1m")
    assert table.drawn(1) == "5p"
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.self_drawn and won.after_kong and "杠上开花" in won.patterns


# -- 明楼 and 暗楼 -----------------------------------------------------------------------------
def _declare(mode: str, draws: list[str | None]) -> Table:
    table = shandong({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["6z", *draws])
    table.play(0, "1m")
    table.discard(1, "6z", ready=mode)
    table.pass_all()
    return table


def test_shandong_declares_ready_as_open_or_hidden_only() -> None:
    table = shandong({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["6z"])
    table.play(0, "1m")
    assert "not 'plain'" in table.refuse(DiscardTile(seat=1, tile="6z", ready="plain"))
    assert table.refuse(DiscardTile(seat=1, tile="6z", ready="dubao"))


def test_shandong_ming_lou_shows_the_hand_to_every_seat() -> None:
    table = _declare("open", [])
    shown = table.last(ev.HandShown)
    assert shown.seat == 1 and to_string(tile(t) for t in shown.tiles) == to_string(
        table.seat(1).concealed
    )
    for seat in (0, 2, 3, None):
        view = table.view(seat)["hand"]["seats"][1]
        assert view["concealed"] == to_string(table.seat(1).concealed) and view["ready"] == "open"


def test_shandong_ming_lou_wins_only_by_self_draw() -> None:
    table = _declare("open", ["5p"])
    table.discard(2, "5p")
    assert "win" not in table.options_of(1)


def test_shandong_ming_lou_self_drawn_win_is_doubled() -> None:
    amounts = {}
    for mode in ("open", "hidden"):
        table = _declare(mode, ["8p", "8p", "8p", "5p"])
        play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
        assert table.drawn(1) == "5p"
        won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
        amounts[mode] = won.payments[1]
    assert amounts["open"] == 2 * amounts["hidden"] > 0


def test_shandong_an_lou_is_hidden_from_the_other_seats_and_still_wins_on_a_discard() -> None:
    table = _declare("hidden", ["5p"])
    assert table.view(1)["hand"]["seats"][1]["ready"] == "hidden"
    for seat in (0, 2, 3, None):
        view = table.view(seat)["hand"]["seats"][1]
        assert view["ready"] is None and view["concealed"] is None
    table.discard(2, "5p")
    assert "win" in table.options_of(1)


def test_shandong_after_ready_only_the_drawn_tile_may_be_discarded() -> None:
    table = _declare("hidden", ["8p", "8p", "8p", "9m"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert "drawn tile" in table.refuse(DiscardTile(seat=1, tile="1m"))


# -- 抢杠 --------------------------------------------------------------------------------------
# seat 0 throws 5p; seat 3 (waiting on 5p) lets it go; seat 2 pongs. A round later seat 2 draws
# the fourth 5p and adds it to the pong.
SEAT2_PONG = "55p1m4m7m2s5s8s3m6m9m1z5z"


def _added_kong(variant: str, seat3_ready: str | None = None) -> Table:
    table = Table(variant)
    table.start(
        {0: DEALER + "5p", 1: "147m258m369m1s4s7s1z", 2: SEAT2_PONG, 3: WAITS_5P_3},
        draws=["8p", "8p", "8p", "5p"],
        tail=["6z", "6z"],
    )
    table.discard(0, "5p")
    if "win" in table.options_of(3):
        table.pass_(3)
    table.pung(2)
    table.play(2, "1z")
    table.discard(3, "8p", ready=seat3_ready)  # seat 3 drew 8p
    table.pass_all()
    play_out(table, until=lambda t: t.hand.turn == 2 and t.hand.step == "discard")
    assert table.drawn(2) == "5p"
    return table


def test_shandong_an_added_kong_can_be_robbed() -> None:
    table = _added_kong("shandong")
    events = table.kong(2, "5p")
    assert table.hand.step == "rob" and table.options_of(3) == ("win",)
    assert not table.of_type(ev.TileDrawn, events)
    events = table.win(3)
    won = table.of_type(ev.HandWon, events)[0].wins[0]
    assert won.seat == 3 and won.robbed_kong and won.discarder == 2 and not won.self_drawn
    assert "5p" in names(table.seat(3).hand)
    assert [m.kind for m in table.seat(2).melds] == ["pong"]  # the 补杠 falls back to a 碰


def test_shandong_the_robbed_seat_pays_for_all() -> None:
    table = _added_kong("shandong")
    table.kong(2, "5p")
    won = table.of_type(ev.HandWon, table.win(3))[0].wins[0]
    assert won.payments[0] == won.payments[1] == 0
    assert won.payments[2] == -won.payments[3] < 0


def test_shandong_ming_lou_may_not_rob_a_kong() -> None:
    table = _added_kong("shandong", seat3_ready="open")
    events = table.kong(2, "5p")
    assert table.hand.window is None and table.of_type(ev.TileDrawn, events)[0].from_tail


def test_shandong_an_added_kong_nobody_robs_draws_its_replacement() -> None:
    table = _added_kong("shandong")
    table.kong(2, "5p")
    events = table.pass_(3)
    assert [(d.seat, d.tile, d.from_tail) for d in table.of_type(ev.TileDrawn, events)] == [
        (2, "6z", True)
    ]
    assert [m.kind for m in table.seat(2).melds] == ["added_kong"]


def test_shandong_a_concealed_kong_cannot_be_robbed() -> None:
    table = Table("shandong")
    table.start({0: DEALER + "1m", 2: "555p", 3: WAITS_5P_3}, draws=["8p", "5p"], tail=["6z"])
    play_out(table, until=lambda t: t.hand.turn == 2 and t.hand.step == "discard")
    events = table.kong(2, "5p")
    assert table.hand.window is None
    assert [(d.seat, d.from_tail) for d in table.of_type(ev.TileDrawn, events)] == [(2, True)]


# -- 杠爆 and 承包 -----------------------------------------------------------------------------
def test_shandong_gang_bao_the_seat_whose_discard_was_konged_pays_for_all() -> None:
    table = Table("shandong")
    table.start({0: DEALER + "5m", 3: "555m123s789p22z46p"}, tail=["5p"])
    table.discard(0, "5m")
    table.pass_all(but=[3])
    table.kong(3)
    assert table.drawn(3) == "5p"
    won = table.of_type(ev.HandWon, table.win(3))[0].wins[0]
    assert won.self_drawn and won.after_kong and "杠上开花" in won.patterns
    assert won.payments[1] == won.payments[2] == 0 and won.payments[0] == -won.payments[3] < 0


def test_shandong_cheng_bao_a_seat_that_fed_three_melds_pays_all_of_the_winners_score() -> None:
    table = _cheng_bao_then_seat_two_discards()
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.discarder == 2
    assert won.payments[2] == won.payments[3] == 0 and won.payments[0] == -won.payments[1] < 0


def _cheng_bao_then_seat_two_discards() -> Table:
    """Seat 0 feeds seat 1 three 吃 (承包); seat 2 then throws the 1z seat 1 waits on."""
    table = Table("shandong")
    dealer = "147p258s369p6z7z3s9s" + "1m"
    table.start({0: dealer, 1: "23m56p78s11z22z9m9p1s", 2: "1z"}, tail=["6z"])
    table.discard(0, "1m")
    table.pass_all(but=[1])
    table.chow(1, "23m")
    table.play(1, "9m")
    play_out(table, until=lambda t: t.hand.turn == 0 and t.hand.step == "discard")
    table.discard(0, "4p")
    table.pass_all(but=[1])
    table.chow(1, "56p")
    table.play(1, "9p")
    play_out(table, until=lambda t: t.hand.turn == 0 and t.hand.step == "discard")
    table.discard(0, "9s")
    table.pass_all(but=[1])
    table.chow(1, "78s")
    table.play(1, "1s")
    assert [m.from_seat for m in table.seat(1).melds] == [0, 0, 0]
    assert table.hand.turn == 2
    table.discard(2, "1z")
    table.pass_all(but=[1])
    return table


# -- the reserved stacks -------------------------------------------------------------------------
@pytest.mark.parametrize("kongs, draws", [(0, 79), (1, 79), (2, 77)])
def test_shandong_keeps_the_last_six_stacks_an_odd_tile_after_a_kong_counting_as_a_stack(
    kongs: int, draws: int
) -> None:
    table = Table("shandong")
    table.start({0: "1111m2222p369s5z6z7z"}, tail=["3z", "3z", "3z", "3z"])
    for kind in ("1m", "2p")[:kongs]:
        table.kong(0, kind)
    play_out(table)
    assert table.of_type(ev.HandDrawn)
    assert head_draws(table) == draws
    assert table.hand.tail - table.hand.head == 12 - (kongs % 2)


def test_shanghai_draws_the_whole_wall() -> None:
    table = Table("shanghai")
    table.start({0: "1111m2222p369s5z6z7z"}, tail=["3z"])
    play_out(table)
    assert table.of_type(ev.HandDrawn) and table.hand.tail == table.hand.head


def test_shandong_no_kong_is_possible_on_the_last_draw() -> None:
    """荒庄前最后一个玩家若需要杠牌是无法生效的."""
    table = Table("shandong")
    table.start({0: DEALER + "1m", 3: "555p"}, draws=[None] * 78 + ["5p"])
    play_out(table, until=lambda t: head_draws(t) == 79 and t.hand.step == "discard")
    assert (
        drawable(table.state.variant.config, table.hand) == 0
        and table.drawn(table.hand.turn) == "5p"
    )
    assert table.hand.turn == 3
    assert "no tile is left" in table.refuse(Kong(seat=3, tile="5p"))


def test_shandong_a_seat_may_win_without_declaring_ready() -> None:
    table = shandong({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["5p"])
    table.play(0, "1m")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.self_drawn and won.payments[1] > 0
    assert table.refuse(DeclareWin(seat=2))


# -- 天和 and 补花 at the deal --------------------------------------------------------------------
def test_shandong_the_dealers_opening_hand_wins_tian_he() -> None:
    table = shandong({0: "123m456p789s11z22z2z"})
    won = table.of_type(ev.HandWon, table.win(0))[0].wins[0]
    assert (
        won.patterns == ("天和",) and won.self_drawn and all(won.payments[s] < 0 for s in (1, 2, 3))
    )


@pytest.mark.parametrize(
    "dealt",
    [
        pytest.param("1f123m456p789s11z22z", id="flower-first"),
        pytest.param("123m456p789s11z22z1f", id="flower-14th"),
    ],
)
def test_shandong_a_flower_replaced_at_the_deal_is_no_gang_shang_kai_hua(dealt: str) -> None:
    table = shandong({0: dealt}, tail=["2z"])
    won = table.of_type(ev.HandWon, table.win(0))[0].wins[0]
    assert won.patterns == ("天和",) and not won.after_kong


def test_shandong_a_non_dealer_winning_on_its_first_draw_before_any_claim_is_di_he() -> None:
    table = shandong({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["5p"])
    table.play(0, "1m")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert "地和" in won.patterns


def test_shandong_no_di_he_after_a_claim() -> None:
    # seat 2 pongs seat 0's first tile; seat 3 then wins on its first draw: no 地和
    table = shandong(
        {0: DEALER + "9p", 2: "9p9p", 3: WAITS_5P_3.replace("789p", "789m")}, draws=["5p"]
    )
    table.discard(0, "9p")
    table.pass_all(but=[2])
    table.pung(2)
    table.play(2, _highest(table, 2))
    assert table.drawn(3) == "5p"
    won = table.of_type(ev.HandWon, table.win(3))[0].wins[0]
    assert "地和" not in won.patterns


def _highest(table: Table, seat: int) -> str:
    return names(table.seat(seat).concealed)[-1]


# -- 地和 (decision 8) -----------------------------------------------------------------------------
# 002: 地和 闲家在第一轮吃、碰、杠前和牌. Decision 8: an 暗杠 is a 杠 too, and a win on one's own kong
# replacement is 杠上开花, never 地和.


def test_shandong_no_di_he_after_another_seats_concealed_kong() -> None:
    table = shandong({0: DEALER + "1z", 2: "111m", 3: WAITS_5P_3}, draws=[None, "1m", "5p"])
    table.play(0, "1z")
    table.play(1, table.drawn(1))
    assert table.drawn(2) == "1m"
    table.kong(2, "1m")
    table.play(2, table.drawn(2))
    assert table.drawn(3) == "5p"
    won = table.of_type(ev.HandWon, table.win(3))[0].wins[0]
    assert "地和" not in won.patterns


def test_shandong_a_win_on_the_replacement_of_ones_own_first_kong_is_gang_shang_kai_hua() -> None:
    table = shandong({0: DEALER + "1z", 1: "555p123m789m11z46s"}, draws=["5p"], tail=["5s"])
    table.play(0, "1z")
    table.kong(1, "5p")
    assert table.drawn(1) == "5s"
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert "杠上开花" in won.patterns and "地和" not in won.patterns


# -- liability on a discard win: three shares, the discarder pays nothing (decision 8) -----------
def test_shandong_the_robbed_seat_pays_three_shares_of_a_self_drawn_win() -> None:
    """002: 抢杠…其他两家的输分都由被抢杠玩家给和牌的人 — the robbed seat pays what all three would."""
    table = _added_kong("shandong")
    table.kong(2, "5p")
    won = table.of_type(ev.HandWon, table.win(3))[0].wins[0]
    share = _self_drawn_share(won)
    assert won.payments == _only(2, 3, 3 * share)


def test_shandong_cheng_bao_on_a_discard_win_pays_three_shares_and_the_discarder_nothing() -> None:
    """002: 承包…只要B胡牌都由A与B两个人之间结算，由A包B所有的分 (also when C discards the tile)."""
    table = _cheng_bao_then_seat_two_discards()
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.discarder == 2
    assert won.payments == _only(0, 1, 3 * _self_drawn_share(won))


def _self_drawn_share(won: ev.Win) -> int:
    """What one seat pays on a 自摸 of this win: (底 5 + 花) × 番; these winners hold no 花
    (no flower, no 碰 of honours, no kong), so the share is 5 × 番."""
    return 5 * won.fan


def _only(payer: int, winner: int, amount: int) -> tuple[int, ...]:
    return tuple(-amount if s == payer else amount if s == winner else 0 for s in range(4))


def test_shandong_a_drawn_hand_pays_nothing_for_its_kongs() -> None:
    """002: 荒庄 … 本局所有杠分无效 (decision 8: a kong is paid only as 花 of a win)."""
    table = Table("shandong")
    hands = {**STD, 0: "1111m234p567s99p8s7z", 1: "345m678m2m2p45p3s6s9s"}
    table.start(hands, draws=["9m", "1p", "6p", "3s"], tail=tail_for("shandong", ["6m"]))
    table.kong(0, "1m")
    play_out(table)
    assert table.of_type(ev.KongDeclared) and table.of_type(ev.HandDrawn)
    assert not table.of_type(ev.HandWon)
    settled = table.last(ev.HandSettled)
    assert settled.payments == settled.hand_payments == (0, 0, 0, 0)
