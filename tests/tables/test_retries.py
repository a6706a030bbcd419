"""A command delivered twice, the two deliveries interleaved at the store as a queue can make them:
the retry always gets the first result, and no service remembers a state the store does not hold.

Each interleaving is forced: the retry's service talks to the store through ``Interleaved``,
which lets the first delivery run at one chosen point of the retry (right before it loads the
table, or between its load and its append). No threads, no sleeps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from games import Bots, legal, opened

from events.envelope import RecordedEvent
from events.store.base import EventStore
from services.rules.table import TableState
from services.rules.table.commands import Command, DiscardTile, PassClaim
from services.tables import Accepted, TableService
from services.tables.codec import command_record
from services.tables.loader import load
from services.tables.verify import verify_table


class Interleaved:
    """``store``, except that ``hook`` runs once, right before (or after) the first call of
    ``method``."""

    def __init__(
        self, store: EventStore, method: str, hook: Callable[[], None], before: bool = True
    ) -> None:
        self._store, self._method, self._hook, self._before = store, method, hook, before

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if name != self._method:
            return attribute

        def hooked(*args: Any, **kwargs: Any) -> Any:
            hook, self._hook = self._hook, lambda: None
            if self._before:
                hook()
            result = attribute(*args, **kwargs)
            if not self._before:
                hook()
            return result

        return hooked


def recorded_for(store: EventStore, command_id: str, command: Command) -> list[RecordedEvent]:
    found = store.find_command(command_id, "t1", command_record(command))
    assert found is not None
    return found


def until_the_bot_would(bots: Bots, state: TableState, kind: type[Command]) -> TableState:
    return bots.play_until(state, lambda s: isinstance(bots.next_command(s), kind))


def about_to(store: EventStore, kind: type[Command]) -> tuple[TableService, Bots, Command]:
    """A first server that opened t1 and played it until its bot's next command is a ``kind``."""
    first = TableService(store)
    bots = Bots(first)
    return first, bots, bots.next_command(until_the_bot_would(bots, opened(first), kind))


def test_a_retry_decided_on_a_later_table_gets_the_first_result_and_caches_nothing_of_its_own(
    store: EventStore,
) -> None:
    first, bots, passing = about_to(store, PassClaim)

    def first_delivery_then_the_table_moves_on() -> None:
        # The first delivery commits, and play goes on until the same pass is legal again:
        # the retry will load that table and could record a second, different pass.
        after = first.handle("t1", passing, command_id="the-pass")
        assert isinstance(after, Accepted) and after.state is not None
        bots.play_until(after.state, lambda s: legal(s, passing))

    retry = TableService(Interleaved(store, "read_stream", first_delivery_then_the_table_moves_on))
    outcome = retry.handle("t1", passing, command_id="the-pass")

    assert isinstance(outcome, Accepted) and outcome.state is None
    assert outcome.events == recorded_for(store, "the-pass", passing)
    assert sum(e.command_id == "the-pass" for e in store.read_stream("t1")) == len(outcome.events)
    assert retry.load("t1") == load(store, "t1").state == first.load("t1")
    verdict = verify_table(store.read_stream("t1"))
    assert verdict.ok, verdict.lines()


def test_a_retry_refused_by_the_table_the_first_delivery_left_gets_the_first_result(
    store: EventStore,
) -> None:
    first, bots, discard = about_to(store, DiscardTile)

    def first_delivery() -> None:
        assert isinstance(first.handle("t1", discard, command_id="the-discard"), Accepted)

    retry = TableService(Interleaved(store, "read_stream", first_delivery))
    outcome = retry.handle("t1", discard, command_id="the-discard")

    assert isinstance(outcome, Accepted), outcome  # not Rejected: the command was accepted
    assert outcome.events == recorded_for(store, "the-discard", discard)
    assert retry.load("t1") == load(store, "t1").state


def test_a_timer_s_retry_after_the_table_moved_on_gets_the_first_result(store: EventStore) -> None:
    first, bots, discard = about_to(store, DiscardTile)
    version = store.stream_version("t1")

    def first_delivery() -> None:
        outcome = first.handle("t1", discard, command_id="timer-7", if_version=version)
        assert isinstance(outcome, Accepted)

    retry = TableService(Interleaved(store, "read_stream", first_delivery))
    outcome = retry.handle("t1", discard, command_id="timer-7", if_version=version)
    assert isinstance(outcome, Accepted)
    assert outcome.events == recorded_for(store, "timer-7", discard)


def test_a_retry_whose_append_meets_the_first_delivery_caches_only_what_the_store_holds(
    store: EventStore,
) -> None:
    first, bots, discard = about_to(store, DiscardTile)

    def first_delivery_and_two_more_moves() -> None:
        after = first.handle("t1", discard, command_id="the-discard")
        assert isinstance(after, Accepted) and after.state is not None
        bots.play(bots.play(after.state))

    # The retry decides on the table it folded before the first delivery committed (its own
    # last fold, unread) and appends after it.
    retry = TableService(store)
    retry.load("t1")
    retry.store = Interleaved(  # type: ignore[assignment]
        store, "append", first_delivery_and_two_more_moves
    )
    outcome = retry.handle("t1", discard, command_id="the-discard")
    retry.store = store

    assert isinstance(outcome, Accepted) and outcome.state is None  # not its own decision
    assert outcome.events == recorded_for(store, "the-discard", discard)
    assert retry.load("t1") == load(store, "t1").state
    state = retry.load("t1")
    moved = retry.handle("t1", bots.next_command(state), command_id="after-the-race")
    assert isinstance(moved, Accepted)
    assert verify_table(store.read_stream("t1")).ok


def test_four_racing_deliveries_of_each_command_all_get_its_one_result(store_url: str) -> None:
    """The issue's race, let loose rather than forced: every command delivered four times at once,
    each delivery through its own service and store connection."""
    from events.store import open_store

    stores = [open_store(store_url) for _ in range(4)]
    services = [TableService(s) for s in stores]
    try:
        bots = Bots(services[0])
        state = opened(services[0])
        for step in range(25):
            command = bots.next_command(state)
            outcomes = delivered_at_once(services, command, f"race-{step}")
            assert all(isinstance(o, Accepted) for o in outcomes), outcomes
            results = {tuple(e.event_id for e in o.events) for o in outcomes}  # type: ignore[union-attr]
            assert len(results) == 1
            states = {repr(s.load("t1")) for s in services}
            assert len(states) == 1
            state = services[0].load("t1")
        assert verify_table(stores[0].read_stream("t1")).ok
    finally:
        for s in stores:
            s.close()


def delivered_at_once(
    services: list[TableService], command: Command, command_id: str
) -> list[object]:
    """``command`` handed to every service at the same moment, each on its own thread."""
    outcomes: list[object] = [None] * len(services)
    gate = threading.Barrier(len(services))

    def deliver(n: int) -> None:
        gate.wait()
        outcomes[n] = services[n].handle("t1", command, command_id=command_id)

    threads = [threading.Thread(target=deliver, args=(n,)) for n in range(len(services))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_a_process_whose_fold_went_stale_decides_again_on_the_table_as_stored(
    store: EventStore,
) -> None:
    """A service decides on its own last fold without reading the table first; when another
    process moved the table on meanwhile, its append is refused and it reads and decides
    again, and a command its stale fold would refuse is not refused for that."""
    here = TableService(store)
    state = opened(here)  # folded here: the next command is decided on it, unread
    elsewhere = Bots(TableService(store), seed=11)
    moved = elsewhere.play(elsewhere.play(state))  # two moves by another process
    command = elsewhere.next_command(moved)
    assert not legal(state, command)  # the stale fold here would refuse it
    outcome = here.handle("t1", command, command_id="after-the-others")
    assert isinstance(outcome, Accepted) and outcome.state is not None
    assert outcome.events[0].version == moved.version + 1  # appended after the others
    assert here.load("t1") == load(store, "t1").state
    assert verify_table(store.read_stream("t1")).ok
