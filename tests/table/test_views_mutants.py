"""``player_view``: what each viewer (a seat, a spectator, the operator) is shown, in the rules a
mutation run of ``services/rules/table/views.py`` found no test holding: every viewer is shown only
what it may learn (a claim window never names who may claim), yet what is public at a real table
(whose 超时托管 window runs) is named to all; a view is asked for a seat 0–3, a spectator or the
operator, and says which of them it is; the 宝 is said to be hidden only when there is one and the
viewer may not see it (``docs/security.md``, "What each viewer may learn").

Given events (a ``Table`` driven through ``decide``/``evolve``), when a viewer's view is built,
then what it shows."""

from __future__ import annotations

import pytest

from services.rules.table.views import player_view

from .builders import BAO_VARIANTS, STD, Table, play_out, tail_for
from .test_autoplay_at_table import back_to_seat_0, only
from .test_bao import ready_seat_one

NO_BAO_VARIANTS = ("shandong", "shanghai", "tanggu")


def dealt(variant: str) -> Table:
    """The standard deal: seat 0 deals and is to play."""
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    return table


# -- who is waited on ----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["harbin", "shandong"])
def test_a_seats_timeout_autoplay_window_is_named_to_every_viewer(variant: str) -> None:
    """``docs/security.md``: every viewer is shown only what it may learn (a claim window never
    names who may claim), and a seat "sees … whose turn it is, who is disconnected or in 托管":
    the 超时托管 window of the seat on its turn (``000``: 在超时托管状态下，每次轮到当前玩家出牌时，
    进行倒计时3秒) is public, as at a table; only a claim wait is cut down to the viewer itself."""
    table = dealt(variant)
    table.do(only(table, "turn").timeout)  # seat 0 falls into 超时托管
    back_to_seat_0(table)
    only(table, "autoplay_window")
    for viewer in (0, 1, 2, 3, None):
        waits = table.view(viewer)["waits"]
        assert [(w["wait"], w["seats"]) for w in waits] == [("autoplay_window", [0])], viewer
    operator = player_view(table.state, None, operator=True)["waits"]
    assert [(w["wait"], w["seats"]) for w in operator] == [("autoplay_window", [0])]


# -- which viewers there are ---------------------------------------------------------------------
@pytest.mark.parametrize("seat", [-1, 4])
def test_a_view_for_a_seat_outside_zero_to_three_is_refused_before_and_during_a_hand(
    seat: int,
) -> None:
    """Rules notes, "Seats and direction": Seats are 0–3 in turn order. A view is built for one
    of them, a spectator (``None``) or the operator, never for a seat the table does not have."""
    for variant in ("harbin", "shandong"):
        before_a_hand = Table(variant)
        with pytest.raises(ValueError, match="seat must be 0–3"):
            player_view(before_a_hand.state, seat)
        during_a_hand = dealt(variant)
        with pytest.raises(ValueError, match="seat must be 0–3"):
            player_view(during_a_hand.state, seat)


def test_the_seats_at_the_edge_of_the_table_are_given_their_views() -> None:
    """Rules notes: Seats are 0–3; the first and the last are seats like any other."""
    table = dealt("harbin")
    assert table.view(0)["viewer"] == 0
    assert table.view(3)["viewer"] == 3


@pytest.mark.parametrize("variant", ["harbin", "shandong"])
def test_a_view_says_which_viewer_it_was_built_for(variant: str) -> None:
    """``docs/security.md``: every viewer is shown only what it may learn, so a view names the
    viewer it is for: the seat, ``None`` for a spectator, ``"operator"`` for the operator (who
    sees everything) — a seat's view never passes itself off as the operator's."""
    table = dealt(variant)
    for seat in (0, 1, 2, 3):
        assert table.view(seat)["viewer"] == seat
    assert table.view(None)["viewer"] is None
    assert player_view(table.state, None, operator=True)["viewer"] == "operator"
    assert player_view(table.state, 2, operator=True)["viewer"] == "operator"


# -- whether the 宝 is hidden ----------------------------------------------------------------------
@pytest.mark.parametrize("variant", NO_BAO_VARIANTS)
def test_a_variant_without_a_bao_hides_no_bao_from_any_viewer(variant: str) -> None:
    """Rules notes: 山东, 上海 and 塘沽 have no 宝 (wildcard: none; 塘沽's 混 are shown to all), so
    no viewer is told that a 宝 is kept from it."""
    table = dealt(variant)
    for viewer in (0, 1, 2, 3, None):
        hand = table.view(viewer)["hand"]
        assert hand["bao"] is None and hand["bao_hidden"] is False, viewer
    operator = player_view(table.state, None, operator=True)["hand"]
    assert operator["bao"] is None and operator["bao_hidden"] is False


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_bao_is_not_hidden_from_the_seat_that_declared_ready(variant: str) -> None:
    """``docs/security.md``: a seat sees the 宝 only once it is 听 (哈尔滨, 牡丹江) — and then it is
    shown, not hidden; from the seats not yet 听 it is still hidden; the operator sees it."""
    table = ready_seat_one(variant, ["8p"])
    ready = table.view(1)["hand"]
    assert ready["bao"] == "3s" and ready["bao_hidden"] is False
    for viewer in (0, 2, 3, None):
        assert table.view(viewer)["hand"]["bao_hidden"] is True, viewer
    operator = player_view(table.state, None, operator=True)["hand"]
    assert operator["bao"] == "3s" and operator["bao_hidden"] is False


@pytest.mark.parametrize("variant", BAO_VARIANTS)
def test_the_bao_is_hidden_from_nobody_once_the_hand_ends(variant: str) -> None:
    """The 宝 is hidden until 听 only while the hand lasts: at its end every viewer sees it."""
    table = dealt(variant)
    play_out(table)
    for viewer in (0, 1, 2, 3, None):
        hand = table.view(viewer)["hand"]
        assert hand["bao"] == "9s" and hand["bao_hidden"] is False, viewer
