"""The table's state as plain frozen data (``services/rules/table/state.py``), held where the
mutation run found no test: every state the engine folds, down to a seat's answer in a claim
window, the window itself, the hand, the series and a seat's presence, is frozen and holds its
fields only, so a state once folded cannot be changed in place (replay equals live state); a
table with no facts yet carries the stake a table opens with by default; an option a table was
opened without reads as off; ``patch`` names the first field a class lacks.

Given events (a ``Table`` driven by commands through ``decide``/``evolve``), then the states
they folded into."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.table import replay
from services.rules.table.commands import OpenTable, ReportDisconnect
from services.rules.table.deadlines import deadlines
from services.rules.table.options import known_options
from services.rules.table.state import ClaimWindow, SeatState, patch

from .builders import Table, tail_for

DEALER_QUIET = "147p258s369p4s5m6m8m"  # seat 0's 13 quiet tiles; its 14th is the tile it throws
READY_BY_CHI = "23m555p789s11s46p9m"  # seat 2: may 吃听 seat 0's 1m with 23m
PUNGS_1M = "11m2p2p3s3s6s6s7m7m9s4m1p"  # seat 3: may 碰 seat 0's 1m


def pong_answered() -> Table:
    """牡丹江: seat 0 throws 1m, seat 3 answers 碰; the window waits on seat 2 (吃听)."""
    table = Table("mudanjiang")
    hands = {0: DEALER_QUIET + "1m", 2: READY_BY_CHI, 3: PUNGS_1M}
    table.start(hands, draws=["8p", "8p"], tail=tail_for("mudanjiang"))
    table.discard(0, "1m")
    assert "ready_chi" in table.options_of(2) and "pong" in table.options_of(3)
    table.pung(3)
    window = table.state.hand.window  # type: ignore[union-attr]
    assert window is not None and window.answer_of(3) is not None
    return table


def test_patch_names_the_first_field_the_class_does_not_have() -> None:
    """``patch``: "an unknown field is a ``TypeError``", naming the first unknown field asked
    for, in the order the changes were written."""
    with pytest.raises(TypeError, match="SeatState has no field 'drawm'"):
        patch(SeatState(), drawn=3, drawm=3, shwn=True)


def test_a_seats_answer_in_a_claim_window_holds_its_fields_and_nothing_else() -> None:
    """State is "plain frozen data": a seat's answer (``Claim``), once folded, is frozen and
    slotted, so nothing can be written on it, not even an attribute beside its fields."""
    claim = pong_answered().state.hand.window.answer_of(3)  # type: ignore[union-attr]
    assert claim is not None and claim.kind == "pong"
    with pytest.raises(dataclasses.FrozenInstanceError):
        claim.kind = "pass"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        object.__setattr__(claim, "remark", "changed in place")
    assert not hasattr(claim, "__dict__")


def test_an_open_claim_window_cannot_be_changed_in_place() -> None:
    """State is "plain frozen data": the claim window a discard opened is frozen, so the live
    table and a replay of its events cannot come to differ by a write to it."""
    table = pong_answered()
    window = table.state.hand.window  # type: ignore[union-attr]
    assert window is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        window.answers = ()  # type: ignore[misc]
    assert window.answer_of(3) is not None
    assert replay(table.events) == table.state


def test_the_hand_in_play_cannot_be_changed_in_place() -> None:
    """State is "plain frozen data": the hand in play is frozen; a new hand state is a copy."""
    table = pong_answered()
    hand = table.state.hand
    assert hand is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        hand.turn = 2  # type: ignore[misc]
    assert hand.turn != 2 and replay(table.events) == table.state


def test_the_series_a_table_carries_is_frozen_and_holds_its_fields_only() -> None:
    """State is "plain frozen data": what a table carries from hand to hand (``Series``) is
    frozen and slotted: no field can be rewritten and nothing can be hung on it."""
    series = pong_answered().state.series
    with pytest.raises(dataclasses.FrozenInstanceError):
        series.scores = (9, -9, 0, 0)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        object.__setattr__(series, "remark", "changed in place")
    assert not hasattr(series, "__dict__") and series.scores == (0, 0, 0, 0)


def test_a_seats_presence_cannot_be_changed_in_place() -> None:
    """State is "plain frozen data": a seat whose connection dropped is recorded in a frozen
    ``Presence``; a seat coming back gets a new one, never a write to the old."""
    table = pong_answered()
    table.do(ReportDisconnect(seat=1))
    away = table.state.presence[1]
    assert not away.connected
    with pytest.raises(dataclasses.FrozenInstanceError):
        away.connected = True  # type: ignore[misc]
    assert not table.state.presence[1].connected and replay(table.events) == table.state


def test_a_table_with_no_facts_yet_carries_the_stake_a_table_opens_with() -> None:
    """底注: a table opened without naming its stake plays for one point a fan
    (``OpenTable.base_stake`` defaults to 1); the empty table, before any fact, says the same."""
    empty = replay([])
    opening = OpenTable(table_id="t-1", variant="harbin", players=("a", "b", "c", "d"))
    assert empty.base_stake == opening.base_stake == 1
    assert Table("harbin").state.base_stake == empty.base_stake


@pytest.mark.parametrize(
    ("variant", "option"), [("tanggu", "pair_258_only"), ("shanghai", "discarder_pays_alone")]
)
def test_an_option_the_table_was_opened_without_reads_as_off(variant: str, option: str) -> None:
    """Room options are "named fields of the variant's scoring config, switched per table"
    (塘沽 ``pair_258_only``: "乱将 by default"; 上海 ``discarder_pays_alone``): a table opened
    without one reads it as off, as the scorer's default has it; one switched on reads on."""
    assert known_options(variant)[option] is False
    assert Table(variant).state.option(option) is False
    assert Table(variant, options={option: True}).state.option(option) is True


def test_a_seat_of_the_hand_in_play_cannot_be_changed_in_place() -> None:
    """State is "plain frozen data": a seat of the folded hand (``SeatState``) is frozen, so a
    seat's tiles change only by a new fact folded into a copy, and replay equals live state."""
    table = pong_answered()
    seat = table.state.hand.seat(0)  # type: ignore[union-attr]
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.discards = ()  # type: ignore[misc]
    assert seat.discards and replay(table.events) == table.state


def test_patch_copies_a_dataclass_without_slots_as_replace_does() -> None:
    """``patch`` is "``dataclasses.replace`` for the state classes", and a class without slots
    is "set by name": its copy has the changed fields changed and every other one kept."""

    @dataclasses.dataclass(frozen=True)
    class Plain:
        tile: int = 0
        seat: int = 1

    copied = patch(Plain(tile=3, seat=2), tile=5)
    assert copied == Plain(tile=5, seat=2) == dataclasses.replace(Plain(tile=3, seat=2), tile=5)


def test_a_table_with_no_facts_yet_has_waited_on_nothing_since_version_zero() -> None:
    """``wait_since`` is "the version at which what the table waits on last changed": the
    empty table, version 0, has had no wait begin after it, nor any before it; once facts are
    folded the wait began at a version the table has reached."""
    empty = replay([])
    assert empty.version == 0 and empty.wait_since == 0 and deadlines(empty) == ()
    table = pong_answered()
    assert 0 < table.state.wait_since <= table.state.version


def test_an_open_claim_window_holds_its_fields_and_nothing_else() -> None:
    """State is "plain frozen data": the claim window a discard opened is slotted, so nothing
    can be hung on it beside its fields, and a replay of the events folds the same window."""
    table = pong_answered()
    window = table.state.hand.window  # type: ignore[union-attr]
    assert window is not None
    with pytest.raises(AttributeError):
        object.__setattr__(window, "remark", "changed in place")
    assert not hasattr(window, "__dict__") and replay(table.events) == table.state


def test_the_hand_in_play_holds_its_fields_and_nothing_else() -> None:
    """State is "plain frozen data": the hand in play is slotted, so nothing can be hung on it
    beside its fields, and a replay of the events folds the same hand."""
    table = pong_answered()
    hand = table.state.hand
    assert hand is not None
    with pytest.raises(AttributeError):
        object.__setattr__(hand, "remark", "changed in place")
    assert not hasattr(hand, "__dict__") and replay(table.events) == table.state


def test_a_seat_of_the_hand_in_play_holds_its_fields_and_nothing_else() -> None:
    """State is "plain frozen data": a seat of the folded hand (``SeatState``) is slotted, so
    nothing can be hung on it beside its fields, and a replay of the events folds the same seat."""
    table = pong_answered()
    seat = table.state.hand.seat(3)  # type: ignore[union-attr]
    with pytest.raises(AttributeError):
        object.__setattr__(seat, "remark", "changed in place")
    assert not hasattr(seat, "__dict__") and replay(table.events) == table.state


def test_a_seats_presence_holds_its_fields_and_nothing_else() -> None:
    """State is "plain frozen data": the ``Presence`` a dropped connection folds into is
    slotted, so nothing can be hung on it beside its fields; a replay folds the same one."""
    table = pong_answered()
    table.do(ReportDisconnect(seat=1))
    away = table.state.presence[1]
    assert not away.connected
    with pytest.raises(AttributeError):
        object.__setattr__(away, "remark", "changed in place")
    assert not hasattr(away, "__dict__") and replay(table.events) == table.state


def test_a_folded_table_cannot_be_changed_in_place() -> None:
    """State is "plain frozen data": the table a stream of facts folds into is frozen, so its
    version moves only by folding a new fact into a copy, and replay equals live state."""
    table = pong_answered()
    state = table.state
    version = state.version
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.version = version + 1  # type: ignore[misc]
    assert state.version == version and replay(table.events) == state


def test_a_folded_table_holds_its_fields_and_nothing_else() -> None:
    """State is "plain frozen data": the folded table (``TableState``) is slotted, so nothing
    can be hung on it beside its fields, and a replay of the events folds the same table."""
    table = pong_answered()
    state = table.state
    with pytest.raises(AttributeError):
        object.__setattr__(state, "remark", "changed in place")
    assert not hasattr(state, "__dict__") and replay(table.events) == state


def test_a_claim_window_named_without_a_robbed_kong_is_the_window_a_discard_opens() -> None:
    """``ClaimWindow``: "Open after a discard (or an 补杠 that can be robbed)"; 抢杠 ("only
    wins, on an 补杠's tile") is the exception a window must say it is: one named with its tile,
    discarder, options and answers only is the very window seat 0's discard of 1m opened."""
    window = pong_answered().state.hand.window  # type: ignore[union-attr]
    assert window is not None and not window.robbing
    named = ClaimWindow(
        tile=window.tile, from_seat=window.from_seat, options=window.options, answers=window.answers
    )
    assert named == window and not named.robbing
