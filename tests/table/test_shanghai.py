"""上海敲麻: no win without 听, no change of hand after it, 抢杠 on 上杠 only, kongs after 听 while
still ready, the 荒番 count across hands and the dice 荒番, level scores."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.commands import DeclareWin, DiscardTile, Kong, StartHand

from .builders import Table, play_out, wall_for

DEALER = "147p258s369p6z7z3s9s"  # 13; the 14th is the tile seat 0 throws first
WAITS_5P_1 = "123m789m789s11z46p"  # seat 1 waits on 5p
WAITS_5P_3 = "123s789p456s22z46p"  # seat 3 waits on 5p


def ready_seat_one(
    draws: list[str | None],
    tail: list[str | None] | None = None,
    hands: dict[int, str] | None = None,
    table: Table | None = None,
    dice: tuple[int, int] = (2, 3),
) -> Table:
    """Seat 1 draws ``draws[0]`` (a 6z) and declares 听 on 5p with it."""
    table = table or Table("shanghai")
    table.start(
        {0: DEALER + "1m", 1: WAITS_5P_1, **(hands or {})},
        draws=["6z", *draws],
        tail=tail or [],
        dice=dice,
    )
    table.play(0, "1m")
    table.discard(1, "6z", ready="plain")
    table.pass_all()
    assert table.seat(1).ready == "plain"
    return table


def test_shanghai_a_complete_hand_cannot_win_by_self_draw_without_ready() -> None:
    table = Table("shanghai")
    table.start({0: DEALER + "1m", 1: WAITS_5P_1}, draws=["5p"], dice=(2, 3))
    table.play(0, "1m")
    assert table.drawn(1) == "5p"
    assert "听" in table.refuse(DeclareWin(seat=1))


def test_shanghai_a_ready_seat_wins_by_self_draw() -> None:
    table = ready_seat_one(["8p", "8p", "8p", "5p"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.self_drawn and won.payments[1] > 0
    # every other seat pays the winner (decision 8)
    assert all(won.payments[s] < 0 for s in (0, 2, 3))


def test_shanghai_after_ready_the_hand_does_not_change() -> None:
    table = ready_seat_one(["8p", "8p", "8p", "9m"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert "drawn tile" in table.refuse(DiscardTile(seat=1, tile="1m"))


def test_shanghai_a_ready_seat_is_offered_no_pong() -> None:
    table = ready_seat_one(["1z"])
    table.discard(2, "1z")  # seat 1 holds 11z
    assert "pong" not in table.options_of(1)


@pytest.mark.parametrize(
    "variant, mode", [("shanghai", "plain"), ("shandong", "hidden"), ("shandong", "open")]
)
def test_a_ready_seat_is_not_offered_a_melded_kong_on_a_discard(variant: str, mode: str) -> None:
    """Decision 4: after 听, Shanghai and Shandong allow a concealed or added kong that keeps the
    hand ready — not a 明杠 on another seat's discard, which takes a tile into the hand."""
    table = Table(variant)
    table.start(
        {0: DEALER + "1m", 1: "555m789m789s22z46p", 2: "5m"},
        draws=["6z", "8p"],
        dice=(2, 3) if variant == "shanghai" else None,
    )
    table.play(0, "1m")
    table.discard(1, "6z", ready=mode)
    table.pass_all()
    table.discard(2, "5m")
    assert "kong" not in table.options_of(1)


def test_shanghai_a_ready_seat_may_kong_its_own_fourth_tile_when_it_stays_ready() -> None:
    table = ready_seat_one(["8p", "8p", "8p", "5m"], hands={1: "555m789m789s22z46p"}, tail=["3z"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    events = table.kong(1, "5m")
    assert table.of_type(ev.KongDeclared, events)[0].kind == "concealed_kong"
    assert table.drawn(1) == "3z" and table.seat(1).ready == "plain"


def test_shanghai_a_ready_seat_may_not_kong_when_the_kong_breaks_its_wait() -> None:
    # 234m 345m 456m 111z 9p waits on 9p; a kong of the fourth 4m leaves 23m 35m 56m: no wait
    table = ready_seat_one(["8p", "8p", "8p", "4m"], hands={1: "234m345m456m9p111z"})
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert table.drawn(1) == "4m"
    assert "not ready" in table.refuse(Kong(seat=1, tile="4m"))


def test_shanghai_rob_the_added_kong() -> None:
    """抢杠 on 上杠: seat 2 adds the fourth 5p to its 碰, seat 3 (听 on 5p) robs it."""
    table = Table("shanghai")
    table.start(
        {
            0: DEALER + "5p",
            1: "147m258m369m1s4s7s1z",
            2: "55p1m4m7m2s5s8s3m6m9m1z5z",
            3: WAITS_5P_3,
        },
        draws=["8p", "8p", "8p", "5p"],
        tail=["6z", "6z"],
        dice=(2, 3),
    )
    table.discard(0, "5p")
    assert "win" not in table.options_of(3)  # not 听 yet
    table.pass_all(but=[2])
    table.pung(2)
    table.play(2, "1z")
    table.discard(3, "8p", ready="plain")
    table.pass_all()
    play_out(table, until=lambda t: t.hand.turn == 2 and t.hand.step == "discard")
    assert table.drawn(2) == "5p"
    table.kong(2, "5p")
    assert table.options_of(3) == ("win",)
    won = table.of_type(ev.HandWon, table.win(3))[0].wins[0]
    assert won.robbed_kong and won.discarder == 2 and won.seat == 3


def test_shanghai_a_concealed_kong_cannot_be_robbed() -> None:
    table = Table("shanghai")
    table.start(
        {0: DEALER + "1m", 2: "555p", 3: WAITS_5P_3}, draws=["8p", "5p"], tail=["6z"], dice=(2, 3)
    )
    table.play(0, "1m")
    table.play(1, "8p")
    assert table.drawn(2) == "5p"
    table.kong(2, "5p")
    assert table.hand.window is None and table.drawn(2) == "6z"


def test_shanghai_a_win_on_a_kong_replacement_is_gang_kai() -> None:
    table = ready_seat_one(["8p", "8p", "8p", "5m"], hands={1: "555m789m789s22z46p"}, tail=["5p"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    table.kong(1, "5m")
    assert table.drawn(1) == "5p"
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.after_kong and "杠开" in won.patterns


# -- 荒番 across hands and the level score -------------------------------------------------------
def _drawn_hand(table: Table, dice: tuple[int, int] = (2, 3)) -> None:
    table.start({0: DEALER + "1m"}, dice=dice)
    play_out(table)
    assert table.of_type(ev.HandDrawn, table.events[-3:])


def test_shanghai_a_drawn_hand_makes_the_next_hand_a_huangfan_hand() -> None:
    table = Table("shanghai")
    _drawn_hand(table)
    settled = table.last(ev.HandSettled)
    assert (
        settled.huangfan == 1 and settled.level_scores == (0, 0, 0, 0) and settled.next_dealer == 0
    )
    ready_seat_one(["8p", "8p", "8p", "5p"], table=table)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert "荒番局" in won.patterns
    assert table.last(ev.HandSettled).huangfan == 0


def test_shanghai_two_drawn_hands_make_the_next_two_huangfan_hands() -> None:
    table = Table("shanghai")
    _drawn_hand(table)
    _drawn_hand(table)
    assert table.last(ev.HandSettled).huangfan == 2
    for expected_after in (1, 0):
        ready_seat_one(["8p", "8p", "8p", "5p"], table=table)
        play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
        won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
        assert "荒番局" in won.patterns
        assert table.last(ev.HandSettled).huangfan == expected_after
    ready_seat_one(["8p", "8p", "8p", "5p"], table=table)
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    assert "荒番局" not in table.of_type(ev.HandWon, table.win(1))[0].wins[0].patterns


@pytest.mark.parametrize(
    "dice, added", [((4, 4), 2), ((1, 1), 2), ((1, 5), 1), ((3, 3), 1), ((2, 3), 0), ((5, 6), 0)]
)
def test_shanghai_dice_huangfan_makes_this_very_hand_a_huangfan_hand(
    dice: tuple[int, int], added: int
) -> None:
    table = Table("shanghai")
    ready_seat_one(["8p", "8p", "8p", "5p"], table=table, dice=dice)
    assert table.state.series.huangfan == added
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert ("荒番局" in won.patterns) == (added > 0)
    assert table.last(ev.HandSettled).huangfan == max(added - 1, 0)


def test_shanghai_level_scores_three_to_the_winner_minus_one_to_each_other_seat() -> None:
    table = ready_seat_one(["8p", "8p", "8p", "5p"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    table.win(1)
    assert table.last(ev.HandSettled).level_scores == (-1, 3, -1, -1)
    assert table.state.series.level_scores == (-1, 3, -1, -1)


def test_shanghai_the_winner_deals_next_and_a_drawn_hand_keeps_the_dealer() -> None:
    table = ready_seat_one(["8p", "8p", "8p", "5p"])
    play_out(table, until=lambda t: t.hand.turn == 1 and t.hand.step == "discard")
    table.win(1)
    assert table.last(ev.HandSettled).next_dealer == 1
    table.do(StartHand(wall=wall_for("shanghai"), dice=(2, 3)))
    assert table.hand.dealer == 1
    play_out(table)
    assert table.last(ev.HandSettled).next_dealer == 1


def test_shanghai_option_the_discarder_pays_alone() -> None:
    table = Table("shanghai", options={"discarder_pays_alone": True})
    ready_seat_one(["5p"], table=table)
    table.discard(2, "5p")
    table.pass_all(but=[1])
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert won.payments[0] == won.payments[3] == 0 and won.payments[2] == -won.payments[1] < 0


def test_shanghai_by_default_every_other_seat_pays_a_win_on_a_discard() -> None:
    table = ready_seat_one(["5p"])
    table.discard(2, "5p")
    table.pass_all(but=[1])
    won = table.of_type(ev.HandWon, table.win(1))[0].wins[0]
    assert all(won.payments[s] < 0 for s in (0, 2, 3))


def test_an_unknown_table_option_is_refused() -> None:
    from services.rules.table import TableState, decide
    from services.rules.table.commands import OpenTable
    from services.rules.table.guards import CommandRejected

    with pytest.raises(CommandRejected, match="unknown option"):
        decide(
            TableState(),
            OpenTable(
                table_id="t",
                variant="shanghai",
                players=("a", "b", "c", "d"),
                options={"no_such": True},
            ),
        )
