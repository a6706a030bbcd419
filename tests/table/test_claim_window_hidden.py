"""A claim window as each seat sees it: its own option, if it has one, and that the table waits
on claims; never which other seats the rules asked (issue 21, item 2).

Which seats the rules ask is read from their concealed tiles, so it is as secret as the tiles:
two tables that differ only in the other seats' hands and options look the same to a seat (in
its view, legal commands, rulings and refusals), and the window's events (answers, 托管's
passes, the timeout) are sent to the other seats alike whoever they are about.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table import TableState
from services.rules.table.commands import (
    Chow,
    Command,
    DeclareWin,
    DiscardTile,
    Kong,
    PassClaim,
    Pung,
    RequestAutoplay,
)
from services.rules.table.deadlines import deadlines
from services.rules.table.decide import _route
from services.rules.table.guards import CommandRejected
from services.rules.table.legal import legal_commands
from services.rules.table.redact import event_for
from services.rules.table.rulings import rulings
from services.rules.table.state import Claim, patch
from services.rules.table.views import player_view
from services.rules.tiles import name

from .builders import STD, Table, tail_for

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)
KINDS = st.sampled_from([(), (), ("pong",), ("chi",), ("win",), ("pong", "kong"), ("win", "pong")])
VIEWERS = st.sampled_from([0, 1, 2, 3, None])


@cache
def window_open() -> TableState:
    """哈尔滨's standard deal after seat 0 throws 2m: seat 1 may 吃, seat 2 may 碰."""
    table = Table("harbin")
    table.start(STD, draws=["9m", "1p", "6p", "3s"], tail=tail_for("harbin", ["6m", "4p"]))
    table.discard(0, "2m")
    return table.state


@st.composite
def other_hands(draw: st.DrawFn, viewer: int | None) -> TableState:
    """The open window with every seat but ``viewer`` given other tiles and other options (and
    perhaps already passed); the viewer's own tiles, option and answer as they were."""
    table = window_open()
    hand = table.hand
    assert hand is not None and hand.window is not None
    window = hand.window
    others = [s for s in range(4) if s != viewer]
    tiles = draw(st.permutations([hand.seat(s).concealed for s in others]))
    seats = list(hand.seats)
    for seat, concealed in zip(others, tiles, strict=True):
        seats[seat] = patch(seats[seat], concealed=concealed)
    options, answers = [], []
    for seat in (1, 2, 3):  # after the discarder, nearest first
        kinds = window.options_of(seat) if seat == viewer else draw(KINDS)
        if kinds:
            options.append((seat, kinds))
            if seat != viewer and draw(st.booleans()):
                answers.append((seat, Claim("pass")))
    if not options:  # a window opens only when some seat may claim
        options = [(3 if viewer != 3 else 2, ("pong",))]
    if len(answers) == len(options):  # and closes once every seat asked has answered
        answers.pop()
    window = patch(window, options=tuple(options), answers=tuple(answers))
    return patch(table, hand=patch(hand, seats=tuple(seats), window=window))


def answer_to(table: TableState, command: Command) -> str:
    """``accepted``, or the refusal's words (the command's own handler, before what follows)."""
    try:
        _route(table, command)
    except CommandRejected as refused:
        return refused.reason
    return "accepted"


def tried_by(seat: int) -> list[Command]:
    held = name(window_open().hand.seat(seat).concealed[0])  # type: ignore[union-attr]
    return [PassClaim(seat=seat), Pung(seat=seat), Kong(seat=seat), DeclareWin(seat=seat),
            Chow(seat=seat, tiles=("3m", "4m")), DiscardTile(seat=seat, tile=held),
            RequestAutoplay(seat=seat)]  # fmt: skip


def asked_on(table: TableState) -> tuple[int, ...]:
    return next(d.seats for d in deadlines(table) if d.wait == "claim")


@SETTINGS
@given(st.data(), VIEWERS)
def test_a_seats_view_of_a_claim_window_is_the_same_whatever_the_other_seats_hold(
    data: st.DataObject, viewer: int | None
) -> None:
    one, other = data.draw(other_hands(viewer)), data.draw(other_hands(viewer))
    assert player_view(one, viewer) == player_view(other, viewer)


@SETTINGS
@given(st.data(), st.sampled_from([0, 1, 2, 3]))
def test_a_seats_legal_commands_rulings_and_refusals_are_the_same_whatever_the_others_hold(
    data: st.DataObject, seat: int
) -> None:
    one, other = data.draw(other_hands(seat)), data.draw(other_hands(seat))
    assert legal_commands(one, seat) == legal_commands(other, seat)
    assert rulings(one, seat) == rulings(other, seat)
    for command in tried_by(seat):
        assert answer_to(one, command) == answer_to(other, command), command


@SETTINGS
@given(st.data(), VIEWERS)
def test_a_claim_windows_timeout_names_to_a_seat_only_itself(
    data: st.DataObject, viewer: int | None
) -> None:
    one, other = data.draw(other_hands(viewer)), data.draw(other_hands(viewer))
    seen = [
        event_for("spectator" if viewer is None else viewer,
                  pe.WaitTimedOut(wait="claim", seats=asked_on(t)), t)
        for t in (one, other)
    ]  # fmt: skip
    assert seen[0] == seen[1]
    assert set(seen[0]["seats"]) <= {viewer}


def test_a_claim_answer_is_sent_to_the_other_seats_without_whose_it_is() -> None:
    table = window_open()
    for viewer in (0, 1, 2, 3, "spectator"):
        seen = {
            repr(event_for(viewer, ev.ClaimAnswered(seat=seat, claim=claim), table))
            for seat in (1, 2, 3)
            if seat != viewer
            for claim in ("pass", "pong", "chi", "win")
        }
        assert len(seen) == 1, (viewer, seen)
        assert event_for(2, ev.ClaimAnswered(seat=2, claim="pong"), table)["seat"] == 2


def test_tuoguans_pass_in_a_claim_window_is_sent_to_the_other_seats_without_whose_it_is() -> None:
    table = window_open()
    for viewer in (0, 1, 2, 3, "spectator"):
        seen = {
            repr(event_for(viewer, pe.SeatAutoplayed(seat=seat, reason=reason, turn=False), table))
            for seat in (1, 2, 3)
            if seat != viewer
            for reason in ("timeout", "requested", "left", "dropped")
        }
        assert len(seen) == 1, (viewer, seen)
    on_turn = event_for(1, pe.SeatAutoplayed(seat=3, reason="left", turn=True), table)
    assert (on_turn["seat"], on_turn["reason"]) == (3, "left")  # a turn is public, as at a table


def test_the_operator_still_sees_who_may_claim() -> None:
    table = window_open()
    assert [w["seats"] for w in player_view(table, None, operator=True)["waits"]] == [[1, 2]]
    timed_out = pe.WaitTimedOut(wait="claim", seats=(1, 2))
    assert event_for("operator", timed_out, table)["seats"] == [1, 2]
    assert event_for("operator", ev.ClaimAnswered(seat=2, claim="pass"), table)["seat"] == 2
