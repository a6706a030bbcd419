"""Timeouts through the table service: a timer fires what ``deadlines`` announced, and one that
fires late is refused with nothing stored (the ``TimeOut`` carries the version of its wait)."""

from __future__ import annotations

from events.store import open_store
from services.rules.table.commands import ReportDisconnect, StartHand
from services.rules.table.deadlines import deadlines
from services.tables import Accepted, Rejected, TableService

PLAYERS = ("ann", "bo", "cy", "di")


def test_a_timer_fires_the_deadline_and_a_late_one_stores_nothing(store_url: str) -> None:
    store = open_store(store_url)
    service = TableService(store)
    service.open_table("t1", "shanghai", PLAYERS, command_id="open")
    dealt = service.handle("t1", StartHand(), command_id="deal")
    assert isinstance(dealt, Accepted) and dealt.state is not None
    turn = deadlines(dealt.state)[0]
    assert turn.wait == "turn"
    # another seat drops meanwhile: the turn's clock, and so its timeout, stay as they were
    service.handle("t1", ReportDisconnect(seat=(turn.seats[0] + 1) % 4), command_id="drop")
    fired = service.handle("t1", turn.timeout, command_id="timer-1")
    assert isinstance(fired, Accepted)
    assert [e.type for e in fired.events[:2]] == ["wait_timed_out", "seat_autoplayed"]
    assert all(e.actor.kind == "system" for e in fired.events)
    head = store.read_stream("t1")[-1].version
    late = service.handle("t1", turn.timeout, command_id="timer-2")
    assert isinstance(late, Rejected) and "no turn wait began at version" in late.reason
    assert store.read_stream("t1")[-1].version == head
    store.close()
