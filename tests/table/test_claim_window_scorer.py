"""The claim window asks the scorer: a seat is offered 胡 on a discard only when the variant's
scorer would settle that win, not merely when the tiles complete a shape (settle.may_win)."""

from __future__ import annotations

from services.rules.events import hand as ev
from services.rules.table.commands import DeclareWin

from .builders import Table, tail_for

DEALER = "147p258s369p6z7z1s2z"  # 13 quiet tiles; the 14th is the tile seat 0 throws first
WAITS_5P_ON_EAST = "123m789m789s11z46p"  # complete on 5p, paired on 东 (not a 2, 5 or 8)
WAITS_5P_ON_8S = "123m789m789s88s46p"  # complete on 5p, paired on 8s: a 二五八将
TANGGU_DICE = (1, 2, 1, 1)


def _tanggu(options: dict[str, bool], seat1: str, first: str = "5p") -> Table:
    table = Table("tanggu", options=options)
    table.start({0: DEALER + first, 1: seat1}, tail=tail_for("tanggu"), dice=TANGGU_DICE)
    return table


def test_tanggu_258_pair_a_hand_paired_on_an_honour_is_not_offered_a_win_on_a_discard() -> None:
    """README 10: 乱将 (any pair) is the default, 二五八将 an option: with the option on, a hand
    complete by shape but paired on 东 is no win, so the window does not offer 胡 on it."""
    table = _tanggu({"pair_258_only": True}, WAITS_5P_ON_EAST)
    table.discard(0, "5p")
    assert "win" not in table.options_of(1)
    if table.window is not None:
        assert table.refuse(DeclareWin(seat=1))


def test_tanggu_258_pair_a_hand_paired_on_an_8_is_offered_the_win() -> None:
    """二五八将: a pair of 8s is a 将, so the same discard is a win to offer."""
    table = _tanggu({"pair_258_only": True}, WAITS_5P_ON_8S)
    table.discard(0, "5p")
    assert "win" in table.options_of(1)
    table.win(1)
    table.pass_all()
    assert [w.seat for w in table.last(ev.HandWon).wins] == [1]


def test_tanggu_any_pair_by_default_the_honour_paired_hand_is_offered_the_win() -> None:
    """乱将 by default (塘沽麻将主要是乱将): the hand paired on 东 wins on the discard."""
    table = _tanggu({}, WAITS_5P_ON_EAST)
    table.discard(0, "5p")
    assert "win" in table.options_of(1)


def test_tanggu_a_xianggong_seat_is_not_offered_a_win_on_a_discard() -> None:
    """004: 误将“混”打出，称为“相公”，本副牌不可“和”牌 — the window offers it no 胡."""
    table = Table("tanggu")
    table.start(
        {0: DEALER + "1m", 1: WAITS_5P_ON_EAST},
        draws=["3z", "5p"],
        tail=tail_for("tanggu"),
        dice=TANGGU_DICE,
    )
    table.play(0, "1m")
    table.discard(1, "3z")  # a 混: seat 1 is 相公
    table.pass_all()
    table.discard(2, "5p")
    assert table.seat(1).xianggong and "win" not in table.options_of(1)


def test_shandong_ming_lou_is_not_offered_a_win_on_a_discard_but_an_lou_is() -> None:
    """README 11: 明楼 … wins only by 自摸; 暗楼 … still wins on discards."""
    offered = {}
    for mode in ("open", "hidden"):
        table = Table("shandong")
        table.start({0: DEALER + "1m", 1: WAITS_5P_ON_EAST}, draws=["6z", "5p"])
        table.play(0, "1m")
        table.discard(1, "6z", ready=mode)
        table.pass_all()
        table.discard(2, "5p")
        offered[mode] = "win" in table.options_of(1)
    assert offered == {"open": False, "hidden": True}
