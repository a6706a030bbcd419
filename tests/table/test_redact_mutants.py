"""``redact``: the rules that a mutation run of ``services/rules/table/redact.py`` found no test
holding (issue 28): each test names the rule, given events and what each viewer is sent."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, Literal

import pytest

from events.base import DomainEvent
from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table import TableState
from services.rules.table.redact import (
    POLICIES,
    PUBLIC,
    Field,
    Seen,
    apply,
    event_for,
    everyone,
    hidden,
    shown,
)

from .builders import Table
from .test_bao import ready_seat_one
from .test_redact import folded

Viewer = int | Literal["spectator", "operator"]
SEATS: tuple[Viewer, ...] = (0, 1, 2, 3)
VIEWERS: tuple[Viewer, ...] = (*SEATS, "spectator", "operator")


def _first(table: Table, kind: type[DomainEvent]) -> tuple[TableState, Any]:
    """The first event of ``kind`` at ``table``, with the table just before it."""
    return next((b, e) for b, e in folded(table) if isinstance(e, kind))


def _dealt() -> tuple[TableState, ev.TilesDealt]:
    table = Table("shanghai")
    table.start()
    return _first(table, ev.TilesDealt)


# -- the deal -------------------------------------------------------------------------------------
def test_a_spectator_is_sent_four_empty_hands_one_per_seat() -> None:
    before, dealt = _dealt()
    assert event_for("spectator", dealt, before)["hands"] == [None, None, None, None]


def test_every_viewer_is_told_how_many_tiles_each_seat_was_dealt() -> None:
    """The dealer 14, the others 13: what every viewer sees of the others' hands at the table."""
    before, dealt = _dealt()
    counts = [len(hand) for hand in dealt.hands]
    assert sorted(counts) == [13, 13, 13, 14]
    for viewer in VIEWERS:
        assert event_for(viewer, dealt, before)["counts"] == counts, viewer


def test_the_deal_would_send_even_a_seat_it_named_only_that_seats_own_hand() -> None:
    """A deal is about no seat, so every seat gets the ``seats`` rule; the rule for the seat an
    event is about is the same (its own hand only), so naming a seat leaks no other hand."""
    before, dealt = _dealt()
    payload = {**dealt.model_dump(mode="json"), "seat": 2}
    hands = apply(POLICIES["tiles_dealt"], 2, payload, before)["hands"]
    assert hands == [None, None, payload["hands"][2], None]


# -- the 宝 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_a_discard_that_does_not_declare_ready_tells_no_seat_the_bao(variant: str) -> None:
    """Only the discard that declares 听 carries the 宝, to its seat: seat 0's first discard,
    with the 宝 set aside and nobody ready, carries none, to seat 0 as to the others."""
    table = ready_seat_one(variant, ["8p"])
    before, discard = _first(table, ev.TileDiscarded)
    assert discard.seat == 0 and discard.ready is None
    assert before.hand is not None and before.hand.bao is not None
    for viewer in VIEWERS:
        assert "bao" not in event_for(viewer, discard, before), viewer


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_a_new_bao_is_sent_to_the_ready_seats_and_the_operator_only(variant: str) -> None:
    """换宝: the old 宝 goes to the discards, in view of all; the new one is told to a seat
    that is 听 (seat 1 here), never to a seat that is not nor to a spectator."""
    before = ready_seat_one(variant, ["8p"]).state
    changed = ev.BaoChanged(old="3s", new="2m")
    for viewer, new in ((1, "2m"), ("operator", "2m"), (0, None), (2, None), ("spectator", None)):
        assert event_for(viewer, changed, before) == {
            "type": "bao_changed",
            "old": "3s",
            "new": new,
        }, viewer


@pytest.mark.parametrize("variant", ["mudanjiang", "harbin"])
def test_a_new_bao_would_not_be_told_to_a_seat_not_ready_even_were_the_event_about_it(
    variant: str,
) -> None:
    """A 换宝 is about no seat; the rule for a seat an event is about is the same: 听 first."""
    before = ready_seat_one(variant, ["8p"]).state
    policy = POLICIES["bao_changed"]
    for seat, new in ((2, None), (1, "2m")):
        payload = {"type": "bao_changed", "old": "3s", "new": "2m", "seat": seat}
        assert apply(policy, seat, payload, before)["new"] == new, seat


# -- who is waited on -----------------------------------------------------------------------------
@pytest.mark.parametrize("wait", ["turn", "autoplay_window", "reconnect_grace"])
def test_a_timeout_of_anything_but_a_claim_window_names_its_seat_to_every_viewer(wait: str) -> None:
    """A turn, an 超时托管 window and a reconnect grace are public, as at a real table."""
    timed_out = pe.WaitTimedOut(wait=wait, seats=(2,))  # type: ignore[arg-type]
    for viewer in VIEWERS:
        seen = event_for(viewer, timed_out, TableState())
        assert seen == {"type": "wait_timed_out", "wait": wait, "seats": [2]}, viewer


def test_a_claim_windows_timeout_would_name_no_other_seat_even_to_a_seat_it_named() -> None:
    """A timeout is about no seat; were it to name one, that seat would still be told of the
    seats the window asked only itself (issue 21)."""
    payload = {"type": "wait_timed_out", "wait": "claim", "seats": [1, 2], "seat": 2}
    policy = POLICIES["wait_timed_out"]
    assert apply(policy, 2, payload, TableState())["seats"] == [2]
    assert apply(policy, 3, payload, TableState())["seats"] == []
    assert apply(policy, "operator", payload, TableState())["seats"] == [1, 2]


# -- a win ----------------------------------------------------------------------------------------
def _won() -> ev.HandWon:
    win = ev.Win(seat=2, tile="7p", self_drawn=True, concealed=("7p", "7p"), fan=3)
    return ev.HandWon(wins=(win,))


def test_a_win_is_laid_open_to_every_viewer() -> None:
    won = _won()
    for viewer in VIEWERS:
        seen = event_for(viewer, won, TableState())
        assert seen == {"type": "hand_won", **won.model_dump(mode="json")}, viewer


def test_a_field_of_a_win_that_no_rule_names_is_sent_to_nobody() -> None:
    """Fail closed inside a win too: a field added to ``Win`` with no rule in ``WIN_POLICY``
    stays secret, even to the operator."""
    payload = _won().model_dump(mode="json")
    payload["wins"][0]["wall"] = ["1m", "2m"]
    for viewer in VIEWERS:
        wins = apply(POLICIES["hand_won"], viewer, payload, TableState())["wins"]
        assert len(wins) == 1 and "wall" not in wins[0], viewer
        assert wins[0]["concealed"] == ["7p", "7p"]


# -- the allow-list's machinery -------------------------------------------------------------------
def test_everyone_gives_the_seat_an_event_is_about_the_same_rule_as_every_other_viewer() -> None:
    policy = {"seat": PUBLIC, "tile": everyone(hidden)}
    payload = {"type": "tile_drawn", "seat": 1, "tile": "5m"}
    for viewer in VIEWERS:  # seat 1 is the owner
        assert apply(policy, viewer, payload, TableState()) == {
            "type": "tile_drawn",
            "seat": 1,
            "tile": None,
        }, viewer


def test_a_field_left_out_for_a_viewer_does_not_stop_the_fields_after_it() -> None:
    """The 宝 goes with a 听 discard to its seat only: the other seats are still sent the tile
    after it, whatever the order the policy names its fields in."""
    policy = {"bao": Field(owner=shown), "seat": PUBLIC, "tile": PUBLIC}
    payload = {"type": "tile_discarded", "seat": 1, "tile": "8p", "bao": "3s"}
    assert apply(policy, 1, payload, TableState()) == {**payload}
    for viewer in (0, 2, 3, "spectator", "operator"):
        assert apply(policy, viewer, payload, TableState()) == {
            "type": "tile_discarded",
            "seat": 1,
            "tile": "8p",
        }


def test_a_fields_rules_cannot_be_changed_once_written() -> None:
    """A policy is shared by every table: no code can turn a field's rule to shown later."""
    with pytest.raises(FrozenInstanceError):
        PUBLIC.seats = hidden  # type: ignore[misc]


def test_a_field_holds_a_rule_for_the_four_kinds_of_viewer_and_nothing_else() -> None:
    """No rule can be hung on a field under another name (a slotted class: no ``__dict__``)."""
    field = Field(owner=shown)
    assert not hasattr(field, "__dict__")
    with pytest.raises(AttributeError):
        object.__setattr__(field, "spectators", shown)


def _seen_by_a_rule(viewer: Viewer) -> Seen:
    """The context a rule is handed, for ``viewer`` looking at a discard of seat 1."""
    handed: list[Seen] = []

    def rule(value: Any, seen: Seen) -> Any:
        handed.append(seen)
        return value

    field = Field(owner=rule, seats=rule, spectator=rule, operator=rule)
    apply({"tile": field}, viewer, {"type": "tile_discarded", "seat": 1}, TableState())
    return handed[0]


def test_a_rule_cannot_change_who_looks_or_what_it_looks_at() -> None:
    """A rule is handed who looks, the event and the table read-only: it cannot make the
    spectator the operator for the rules after it."""
    seen = _seen_by_a_rule("spectator")
    assert seen.viewer == "spectator"
    with pytest.raises(FrozenInstanceError):
        seen.viewer = "operator"  # type: ignore[misc]


def test_a_rule_is_handed_who_looks_the_event_and_the_table_and_nothing_else() -> None:
    """A slotted context: no rule can leave a note on it for the rules after it."""
    seen = _seen_by_a_rule(2)
    assert (seen.viewer, seen.payload["seat"]) == (2, 1)
    assert not hasattr(seen, "__dict__")
