"""Faults of the projector, each counted (docs/faults.md): killed with SIGKILL mid-batch 20
times (50 in ``make faults``) while tables play, two copies racing, a poison event. Every
projection of the catalog, on SQLite and PostgreSQL; the projector is a child process running
``Projector.run``."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from fault_scale import sized
from projector_child import ProjectorChild, positions, wait_caught_up
from rebuild_kit import EVERY, VARIANTS, Series, commands_of, compare_with_rebuild, interleaved

from events.envelope import RecordedEvent
from events.store import open_store
from events.store.base import EventStore
from readmodels.base import Rows, TableSpec
from readmodels.db import ProjectionDB, open_projection_db
from readmodels.runner import Projector

KILLS = sized(20, 50)  # make test, make faults
CHECK_EVERY = 10  # after every tenth kill: restart, catch up, compare with a rebuild


def endless_play(store: EventStore, run: str) -> Iterator[int]:
    """Tables one after another (each variant in turn, a leaver every third), a command a step."""
    for n in itertools.count():
        leaver = n % 4 if n % 3 == 2 else None
        series = Series(f"{run}-{n}", VARIANTS[n % len(VARIANTS)], seed=1000 + n, leaver=leaver)
        yield from commands_of(store, series)


def wait_moved(db: ProjectionDB, before: dict[str, int], timeout: float = 10.0) -> bool:
    """Until some live build has moved past where it was (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if positions(db, EVERY) != before:
            return True
        time.sleep(0.001)
    return False


def caught_up_after_the_kill(
    projector: Projector, store: EventStore, db: ProjectionDB, timeout: float = 30.0
) -> None:
    """Catch up every build, waiting (bounded) while the killed projector's leases are still
    held: its server session may outlive the process for a moment, and a build whose lease
    another holds is not stepped: every round asks again for the leases it lacks (as
    ``Projector.run`` does every ``refresh_seconds``), or a build still held at ``attach``
    would never be taken up."""
    deadline = time.monotonic() + timeout
    while True:
        projector.refresh()
        projector.catch_up()
        head = store.last_position()  # type: ignore[attr-defined]
        at = positions(db, EVERY)
        if min(at.values()) >= head:
            return
        if time.monotonic() >= deadline:
            held = {c.projection.name: c.lease is not None for c in projector.consumers}
            errors = {b.name: b.error for p in EVERY for b in db.builds(p.name) if b.error}
            raise AssertionError(f"not caught up with {head} in {timeout:g} s: {at};"
                                 f" leases held here {held}; errors {errors}")  # fmt: skip
        time.sleep(0.05)


def store_name(url: str) -> str:
    return "SQLite" if url.startswith("sqlite") else "PostgreSQL"


def test_a_projector_killed_over_and_over_mid_batch_keeps_rows_equal_to_a_rebuild(url: str) -> None:
    store, db = open_store(url), open_projection_db(url)
    child = ProjectorChild(url, EVERY)
    play, rng = endless_play(store, "kill"), random.Random(50)
    behind, checks, commands = 0, [], 0
    try:
        for kill in range(1, KILLS + 1):
            for _ in range(rng.randint(20, 60)):  # a backlog for it (the tables go on
                commands = next(play)  # while it is down, as they would)
            before = positions(db, EVERY)
            child.start(batch=rng.choice([1, 2, 5, 13]))
            assert wait_moved(db, before)  # it is projecting: kill it a moment later
            for _ in range(rng.randint(0, 3)):
                commands = next(play)
            time.sleep(rng.uniform(0, 0.005))
            head = store.last_position()  # type: ignore[attr-defined]
            behind += min(positions(db, EVERY).values()) < head  # it had work in hand
            child.kill()
            if kill % CHECK_EVERY == 0:
                restarted = Projector(store, db, EVERY, batch=rng.choice([3, 50]))
                restarted.attach()
                caught_up_after_the_kill(restarted, store, db)
                restarted.close()  # its leases, so that the next child leads
                checks.append(compare_with_rebuild(store, db))
        child.start()
        for _ in range(50):
            commands = next(play)
        assert wait_caught_up(store, db, EVERY)
        assert child.stop() == 0
        checks.append(compare_with_rebuild(store, db))
    finally:
        db.close()
        store.close()
    print(f"\nFAULT projector SIGKILL x{KILLS} ({store_name(url)}): events {checks[-1].events},"
          f" rows {checks[-1].rows}, kills with events not yet projected {behind},"
          f" checks {len(checks)}, checks differing {sum(bool(c.differing) for c in checks)}"
          f" (last table's commands {commands})")  # fmt: skip
    assert [c.differing for c in checks] == [[]] * (KILLS // CHECK_EVERY + 1)
    assert behind >= KILLS // 2  # the kills landed while it was projecting, not idle


def test_two_projector_processes_racing_while_tables_play_count_nothing_twice(
    url: str, tmp_path: Path
) -> None:
    """Both race for every batch on SQLite (the compare-and-set fences them); on PostgreSQL
    one leads and the other stands by, and takes over while the first is restarted."""
    store, db = open_store(url), open_projection_db(url)
    children = [ProjectorChild(url, EVERY, tmp_path / name) for name in ("first", "second")]
    try:
        for projection in EVERY:
            db.ensure_live(projection)  # the live builds, before the race starts
        for child, batch in zip(children, (5, 11), strict=True):
            child.start(batch=batch)
        tables = [Series(f"race-{n}", VARIANTS[n], seed=77 + n, leaver=n if n % 2 else None)
                  for n in range(4)]  # fmt: skip
        for _ in interleaved(store, tables[:2], random.Random(2)):
            pass
        assert children[0].stop() == 0  # a clean stop (a deploy): the other takes over
        for _ in commands_of(store, tables[2]):
            pass
        assert wait_caught_up(store, db, EVERY)
        children[0].start(batch=5)
        for _ in commands_of(store, tables[3]):
            pass
        assert wait_caught_up(store, db, EVERY)
        assert [child.stop() for child in children] == [0, 0]
        head = store.last_position()  # type: ignore[attr-defined]
        comparison = compare_with_rebuild(store, db)
    finally:
        db.close()
        store.close()
    runs = [*children[0].reports(), *children[1].reports()]
    per_build: dict[str, int] = {}
    for applied in runs:
        for build, n in applied.items():
            per_build[build] = per_build.get(build, 0) + n
    print(f"\nFAULT two projectors racing ({store_name(url)}): events {head},"
          f" applied by each run (summed over builds) {[sum(a.values()) for a in runs]},"
          f" builds {len(per_build)}, events applied twice"
          f" {sum(n - head for n in per_build.values() if n > head)},"
          f" tables differing from a rebuild {len(comparison.differing)}")  # fmt: skip
    assert len(runs) == 3
    assert per_build == {b: head for b in per_build}  # every event applied once per build
    assert len(per_build) == len(EVERY)
    assert comparison.differing == []


class Poisoned:
    """Counts settled hands, and has no rule for one table's settlement (a poison event)."""

    name: ClassVar[str] = "poisoned"
    code_version: ClassVar[int] = 1
    tables: ClassVar[tuple[TableSpec, ...]] = (
        TableSpec("poisoned_hands", (("table_id", "text"), ("hands", "int")), ("table_id",)),
    )

    def apply(self, event: RecordedEvent, rows: Rows) -> None:
        if event.type != "hand_settled":
            return
        if event.stream_id == "poison-1":
            raise ValueError("a settlement this projection has no rule for")
        rows.add("poisoned_hands", {"table_id": event.stream_id}, {"hands": 1})


def test_a_poison_event_stops_its_projection_there_saying_why_and_the_others_go_on(
    url: str,
) -> None:
    store, db = open_store(url), open_projection_db(url)
    child = ProjectorChild(url, (*EVERY, Poisoned()))
    try:
        child.start(batch=25)
        for n in range(3):
            for _ in commands_of(store, Series(f"poison-{n}", VARIANTS[n], seed=5 + n)):
                pass
        assert wait_caught_up(store, db, EVERY)
        child.kill()  # and started again: the stopped build stays where it stopped
        (poison,) = [e for e in store.read_stream("poison-1") if e.type == "hand_settled"]
        stopped = db.active_build("poisoned")
        child.start(batch=25)
        for _ in commands_of(store, Series("poison-3", VARIANTS[3], seed=8)):
            pass
        assert wait_caught_up(store, db, EVERY)
        assert child.stop() == 0
        again = db.active_build("poisoned")
        with db.reader(Poisoned(), again.build) as rows:  # type: ignore[union-attr]
            counted = rows.select("poisoned_hands", {}, order=("table_id",))
        comparison = compare_with_rebuild(store, db)
        head = store.last_position()  # type: ignore[attr-defined]
    finally:
        db.close()
        store.close()
    print(f"\nFAULT poison event ({store_name(url)}): stopped at {poison.position} of {head};"
          f" others at the head {len(EVERY)}/{len(EVERY)}; error: {again.error}")  # fmt: skip
    assert stopped is not None and again is not None and stopped == again  # nothing moved
    assert again.error_position == poison.position and again.position == poison.position - 1
    assert again.error is not None
    assert f"position {poison.position} (hand_settled of poison-1 v{poison.version})" in again.error
    assert "ValueError: a settlement this projection has no rule for" in again.error
    assert counted == [{"table_id": "poison-0", "hands": 1}]  # the hand before it, no other
    assert comparison.differing == []  # the others: equal to a rebuild, head included
