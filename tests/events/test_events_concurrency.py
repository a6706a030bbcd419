"""Concurrent writers and tailers, in threads and in separate processes."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator

import pytest
from store_kit import StoreSpec, discard, tail_all, write_commands

from events.hashchain import verify_chain
from events.store.base import ConcurrencyError, EventStore

SPAWN = multiprocessing.get_context("spawn")


def test_of_several_threads_racing_for_each_version_exactly_one_wins(spec: StoreSpec) -> None:
    threads, rounds = 4, 8
    stores = [spec.open() for _ in range(threads)]
    barrier = threading.Barrier(threads)
    outcomes: dict[int, list[str]] = {r: [] for r in range(rounds)}
    errors: list[BaseException] = []

    def race(store: EventStore, seat: int) -> None:
        try:
            for version in range(rounds):
                barrier.wait(timeout=30)
                try:
                    store.append("hot", version, [discard(seat)], command_id=f"{seat}-{version}")
                    outcomes[version].append("won")
                except ConcurrencyError as lost:
                    assert (lost.expected, lost.actual) == (version, version + 1)
                    outcomes[version].append("lost")
        except BaseException as exc:  # surfaced below
            errors.append(exc)
            barrier.abort()

    workers = [threading.Thread(target=race, args=(s, n)) for n, s in enumerate(stores)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for s in stores:
        s.close()
    assert not errors, errors
    assert all(sorted(o) == ["lost"] * (threads - 1) + ["won"] for o in outcomes.values()), outcomes
    reader = spec.open()
    events = reader.read_stream("hot")
    reader.close()
    assert [e.version for e in events] == list(range(1, rounds + 1))
    verify_chain(events)


@pytest.fixture
def slow_commits(spec: StoreSpec) -> Iterator[None]:
    """PostgreSQL: stall each append after its positions are drawn and before it commits.

    Without the append lock, a later position would often commit before an earlier
    one and a tailer reading ``position >= p`` would skip the earlier for good.
    """
    if spec.kind == "postgres":
        spec.execute(
            "CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN PERFORM pg_sleep(random() * 0.004); RETURN NULL; END $$"
        )
        spec.execute("CREATE TRIGGER stall AFTER INSERT ON events"
                     " FOR EACH STATEMENT EXECUTE FUNCTION stall()")
    yield
    if spec.kind == "postgres":
        spec.execute("DROP TRIGGER stall ON events")
        spec.execute("DROP FUNCTION stall()")


@pytest.mark.usefixtures("slow_commits")
def test_tailers_never_skip_or_repeat_an_event_while_processes_append(spec: StoreSpec) -> None:
    writers, commands, tailers = 3, 40, 2
    expected = writers * commands
    # every writer shares the hot stream with the others, plus one stream of its own
    jobs = [(spec, w, ["hot", f"own-{w}"], commands) for w in range(writers)]
    with SPAWN.Pool(writers + tailers) as pool:
        tailing = [pool.apply_async(tail_all, (spec, expected, 7, 90.0)) for _ in range(tailers)]
        writing = [pool.apply_async(write_commands, job) for job in jobs]
        for w in writing:
            w.get(timeout=120)
        seen = [t.get(timeout=120) for t in tailing]
    store = spec.open()
    everything = store.read_all(0, limit=10 * expected)
    hot = store.read_stream("hot")
    store.close()
    positions = [e.position for e in everything]
    assert len(positions) == expected
    for seen_by_one in seen:
        assert seen_by_one == positions  # same events, same order: none skipped, none repeated
    assert [e.version for e in hot] == list(range(1, len(hot) + 1))
    verify_chain(everything)
