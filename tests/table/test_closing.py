"""关桌: the platform closes a table after the hand in play (given events, when a command, then
the events), and a closed table deals, waits on and charges nobody again."""

from __future__ import annotations

import pytest

from services.rules.events import hand as ev
from services.rules.events import presence as pe
from services.rules.table.commands import (
    CloseTable,
    DissolveTable,
    LeaveTable,
    RequestAutoplay,
    StartHand,
)
from services.rules.table.deadlines import deadlines
from services.rules.table.evolve import replay
from services.rules.table.legal import legal_commands

from .builders import STD, VARIANTS, Table, play_out, tail_for


def dealt(variant: str) -> Table:
    table = Table(variant)
    table.start(STD, tail=tail_for(variant))
    return table


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_table_closed_mid_hand_settles_that_hand_then_closes_and_deals_no_other(
    variant: str,
) -> None:
    table = dealt(variant)
    waits = deadlines(table.state)
    assert table.do(CloseTable(reason="the demo stopped")) == [
        pe.TableCloseRequested(reason="the demo stopped", mid_hand=True)
    ]
    assert deadlines(table.state) == waits  # the turn's clock runs on: the hand is played
    play_out(table)
    settled = table.events.index(table.last(ev.HandSettled))
    assert table.events[-1] == pe.TableClosed(reason="the demo stopped", hands=1)
    assert table.events.index(table.events[-1]) > settled
    assert table.state.closed and deadlines(table.state) == ()
    assert "closed (the demo stopped)" in table.refuse(StartHand(seed="next-hand-seed"))


def test_a_table_closed_between_hands_closes_at_once() -> None:
    table = dealt("harbin")
    play_out(table)
    assert table.do(CloseTable(reason="")) == [
        pe.TableCloseRequested(reason="", mid_hand=False),
        pe.TableClosed(reason="", hands=1),
    ]


def test_a_table_opened_and_never_dealt_may_be_closed() -> None:
    table = Table("shanghai")
    assert table.do(CloseTable(reason="nobody came"))[-1] == pe.TableClosed(
        reason="nobody came", hands=0
    )


def test_a_closed_table_refuses_every_command_and_offers_its_seats_none() -> None:
    table = Table("tanggu")
    table.do(CloseTable(reason="done"))
    for command in (LeaveTable(seat=0), RequestAutoplay(seat=1), DissolveTable(), CloseTable()):
        assert "is closed (done)" in table.refuse(command)
    assert all(legal_commands(table.state, seat) == [] for seat in range(4))


def test_a_close_asked_for_twice_is_refused_the_second_time() -> None:
    table = dealt("shandong")
    table.do(CloseTable(reason="first"))
    assert "already" in table.refuse(CloseTable(reason="second"))


def test_a_seat_leaving_a_closing_table_ends_its_series_before_the_table_closes() -> None:
    table = dealt("harbin")
    table.do(CloseTable())
    table.do(LeaveTable(seat=2))
    play_out(table)
    kinds = [type(e) for e in table.events[-2:]]
    assert kinds == [pe.SeriesEnded, pe.TableClosed]


def test_dissolving_a_closing_table_abandons_its_hand_and_closes_it_with_nothing_paid() -> None:
    table = dealt("mudanjiang")
    table.play(0, "2m")
    table.do(CloseTable(reason="closing"))
    events = table.do(DissolveTable(reason="stuck"))
    assert events[0] == pe.TableDissolved(reason="stuck", mid_hand=True)
    assert table.last(ev.HandSettled).payments == (0, 0, 0, 0)
    assert events[-2:] == [
        pe.SeriesEnded(number=1, reason="dissolved", hands=1),
        pe.TableClosed(reason="closing", hands=1),
    ]
    assert deadlines(table.state) == ()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_closed_table_replayed_from_its_events_is_the_table_played_live(variant: str) -> None:
    table = dealt(variant)
    table.do(CloseTable(reason="replayed"))
    play_out(table)
    assert replay(table.events) == table.state
