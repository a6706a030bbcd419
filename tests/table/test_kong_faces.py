"""暗杠 faces in the event stream (decision 4): what each seat is told, and when.

``000``: 如果暗杠前已经"开门"了，则暗杠明示；如果暗杠前没有开门，则暗杠的4张牌倒扣在桌面上，开门后
暗杠自动明示显示在桌面上。 ``001``: 碰或杠牌后必须亮明暗杠除外. Every hand is laid open when it ends.
"""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.table.redact import event_for

from .builders import VARIANTS, Table, concealed_kong_before_opening, play_out


def _open_seat_zero(table: Table) -> list[ev.DomainEvent]:
    table.play(0, "6m")
    table.play(1, table.drawn(1))
    table.discard(2, "9p")
    table.pass_all(but=[0])
    events = table.pung(0)
    assert table.seat(0).is_open
    return events


def _as_seen(table: Table, viewer: int, kind: type) -> list[dict]:
    """Each event of ``kind`` as ``viewer`` receives it (folding the stream as it goes)."""
    state = Table(table.variant).state
    seen = []
    from services.rules.table import evolve

    for event in table.events:
        if isinstance(event, kind):
            seen.append(event_for(viewer, event, state))
        state = evolve(state, event)
    return seen


def test_mudanjiang_turns_a_concealed_kong_face_up_in_the_stream_when_its_seat_opens() -> None:
    table = concealed_kong_before_opening("mudanjiang")
    events = _open_seat_zero(table)
    shown = table.of_type(ev.ConcealedKongsShown, events)
    assert [(e.seat, e.tiles) for e in shown] == [(0, ("1m",))]
    claimed = events.index(table.of_type(ev.TileClaimed, events)[0])
    assert events.index(shown[0]) == claimed + 1  # as the 碰 opens the hand
    for viewer in (1, 2, 3):
        assert [e["tiles"] for e in _as_seen(table, viewer, ev.ConcealedKongsShown)] == [["1m"]]


def test_harbin_keeps_a_concealed_kong_face_down_in_the_stream_after_its_seat_opens() -> None:
    table = concealed_kong_before_opening("harbin")
    _open_seat_zero(table)
    assert not table.of_type(ev.ConcealedKongsShown)
    for viewer in (1, 2, 3):
        assert [e["tiles"] for e in _as_seen(table, viewer, ev.KongDeclared)] == [None]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_concealed_kong_still_face_down_is_turned_up_when_the_hand_ends(variant: str) -> None:
    table = concealed_kong_before_opening(variant)
    play_out(table)
    shown = table.of_type(ev.ConcealedKongsShown)
    assert [(e.seat, e.tiles) for e in shown] == [(0, ("1m",))]
    assert table.events.index(shown[0]) < table.events.index(table.last(ev.HandSettled))


def test_mudanjiang_does_not_show_a_kong_twice_at_the_end() -> None:
    table = concealed_kong_before_opening("mudanjiang")
    _open_seat_zero(table)
    play_out(table)
    assert len(table.of_type(ev.ConcealedKongsShown)) == 1
