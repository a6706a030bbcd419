"""The timekeeper's loop does not wait for one firing before it looks again: a timer that falls
due while another is still being fired is fired beside it (both stores)."""

from __future__ import annotations

import threading

from store_kit import discard

from events.store.base import EventStore
from events.store.timers import DueTimer, Timer
from workers.timekeeper import Timekeeper

COMMAND = {"command": "time_out", "wait": "turn", "seat": 0, "version": 1}


def test_a_timer_due_while_another_is_being_fired_is_fired_without_waiting_for_it(
    store: EventStore,
) -> None:
    store.append("slow", 0, [discard()], timers=[Timer("turn:0:v1", 0.0, COMMAND)])
    store.append("next", 0, [discard()], timers=[Timer("turn:0:v1", 0.3, COMMAND)])
    next_fired, slow_saw = threading.Event(), threading.Event()

    def fire(timer: DueTimer) -> None:
        if timer.stream_id == "slow":  # still firing until the other one has been fired
            if next_fired.wait(10):
                slow_saw.set()
        else:
            next_fired.set()
        store.drop_timer(timer.stream_id, timer.key)  # type: ignore[attr-defined]

    keeper = Timekeeper(store, fire, threads=2, max_sleep=0.1)  # type: ignore[arg-type]
    stop = threading.Event()
    loop = threading.Thread(target=keeper.run, args=(stop,))
    loop.start()
    try:
        assert next_fired.wait(10), "the second timer was not fired"
    finally:
        stop.set()
        loop.join(15)
    assert slow_saw.is_set(), "the second timer waited for the first one's firing to end"
    assert keeper.fired == 2 and keeper.failed == 0
