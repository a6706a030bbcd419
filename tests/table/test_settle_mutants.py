"""The settlement of a hand, that the mutation run of ``services/rules/table/settle.py`` found no
test holding: the scorer is told every seat's own 听 and 相公, never a neighbour's, and the hands
shown at the end are each seat's own; a win claim is a value nobody may change.

The tables here give the four seats four different states (who is 听, who is 相公, what each
holds), so that reading one seat's entry for another's shows."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from services.rules.events import hand as ev
from services.rules.table.settle import WinClaim
from services.rules.tiles import parse_tiles, tile, to_string

from .builders import Table, play_out, tanggu_table

# -- a win claim is a value ---------------------------------------------------------------------


def test_a_win_claim_cannot_be_altered_once_made() -> None:
    """A claim on a discard is settled as it was made: the seat, the tile and the discarder a
    window closed on are fixed (a claim is a frozen, hashable value)."""
    claim = WinClaim(seat=1, tile=tile("5p"), self_drawn=False, discarder=0)
    with pytest.raises(FrozenInstanceError):
        claim.seat = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        claim.discarder = 3  # type: ignore[misc]
    assert claim.seat == 1 and claim.discarder == 0
    assert hash(claim) == hash(WinClaim(1, tile("5p"), False, 0))


# -- 塘沽: only the 相公 seat itself is barred from winning ----------------------------------------
# 混 = 西 (3z, the indicator's other copies) and 北 (4z). The winner holds no 混 and waits on 3p/6p.
WINNER = "123m456m789m11p45p"
DEALER_WITH_HUN = "147p258s369p6z7z3s9s" + "4z"  # 13 quiet tiles, and a 混 dealt 14th


def _everyone_else_xianggong(winner: int) -> Table:
    """Each seat but ``winner`` throws a 混 at its first turn (相公); the winner throws its first
    draw, and draws 3p at its second turn."""
    draws: list[str | None] = []
    filler = iter(["8p", "2s", "5s", "8s", "8p", "2s"])
    last = 3 if winner == 0 else winner + 3  # the winner's second draw (draw i goes to seat i+1)
    for i in range(last + 1):
        seat = (i + 1) % 4
        if i == last:
            draws.append("3p")
        elif i < 3 and seat != winner:
            draws.append("4z")
        else:
            draws.append(next(filler))
    hands = {0: WINNER + "9s" if winner == 0 else DEALER_WITH_HUN}
    if winner != 0:
        hands[winner] = WINNER
    table = tanggu_table(hands, draws=draws)
    play_out(table, until=lambda t: t.hand.turn == winner and t.drawn(winner) == "3p")
    assert _xianggong(table) == tuple(seat != winner for seat in range(4))
    return table


def _xianggong(table: Table) -> tuple[bool, ...]:
    return tuple(table.seat(s).xianggong for s in range(4))


@pytest.mark.parametrize("winner", [0, 1, 2, 3])
def test_tanggu_a_seat_that_kept_its_hun_wins_though_every_other_seat_is_xianggong(
    winner: int,
) -> None:
    """004: 误将"混"打出，称为"相公"，本副牌不可"和"牌 — the bar falls on the seat that threw the
    混, and on no other: a seat that kept its 混 wins by self-draw whatever its neighbours did."""
    table = _everyone_else_xianggong(winner)
    won = table.of_type(ev.HandWon, table.win(winner))
    assert len(won) == 1 and [w.seat for w in won[0].wins] == [winner]
    win = won[0].wins[0]
    assert win.self_drawn and win.tile == "3p" and win.payments[winner] > 0


# -- 上海: only a seat that is 听 itself may win; two 听 seats win on one discard ------------------
# seat 0 (dealer) and seat 2 declare 听 on 5p; seats 1 and 3 never do; seat 3 throws 5p.
SEAT0 = "123m789m789s11z46p"
SEAT1 = "147m258m369m1s4s7s1z"
SEAT2 = "123s789p456s22z46p"
SEAT3 = "2m5m8m3p6p9p1s4s7s3z4z5z5z"


def _two_ready_seats_on_one_discard() -> Table:
    table = Table("shanghai")
    table.start(
        {0: SEAT0 + "6z", 1: SEAT1, 2: SEAT2, 3: SEAT3},
        draws=["8p", "6z", "5p"],
        dice=(2, 3),
    )
    table.discard(0, "6z", ready="plain")
    table.pass_all()
    table.play(1, "8p")
    table.discard(2, "6z", ready="plain")
    table.pass_all()
    assert tuple(table.seat(s).ready for s in range(4)) == ("plain", None, "plain", None)
    assert table.drawn(3) == "5p"
    table.discard(3, "5p")
    return table


def test_shanghai_two_ready_seats_both_win_on_a_discard_though_their_neighbours_are_not_ready() -> (
    None
):
    """003: 不听不胡 (decision 8's scorer option ``require_ready``) is about the winner's own 听;
    decision 2: Shanghai allows several winners on one discard (一炮多响). Seats 0 and 2 are 听,
    seats 1 and 3 are not: both 听 seats are offered the 5p and both win."""
    table = _two_ready_seats_on_one_discard()
    assert "win" in table.options_of(0) and "win" in table.options_of(2)
    assert "win" not in table.options_of(1)
    table.win(0)
    events = table.win(2)
    won = table.of_type(ev.HandWon, events)
    assert len(won) == 1 and [w.seat for w in won[0].wins] == [0, 2]
    assert all(w.discarder == 3 and not w.self_drawn for w in won[0].wins)


def test_the_hands_shown_at_the_end_are_each_seats_own() -> None:
    """The settlement reveals every seat's concealed tiles (HandSettled.hands, indexed by seat
    0–3 as every per-seat tuple is): four seats holding four different hands each see their own
    in their own place — the nearest winner with the one 5p both won on (on 一炮多响 the tile goes
    to the first winner), the others as they were dealt."""
    table = _two_ready_seats_on_one_discard()
    table.win(0)
    table.win(2)
    settled = table.last(ev.HandSettled)
    shown = [to_string(tile(t) for t in hand) for hand in settled.hands]
    expected = [SEAT0 + "5p", SEAT1, SEAT2, SEAT3]
    assert shown == [to_string(parse_tiles(h)) for h in expected]
    assert shown == [to_string(table.seat(s).hand) for s in range(4)]
