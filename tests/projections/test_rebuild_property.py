"""Property: for random series played through the table service, the rows a projector keeps
batch by batch while the tables play equal the rows of a rebuild from position 0, for every
table of every projection in the catalog, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import uuid
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rebuild_kit import EVERY, VARIANTS, Series, compare_with_rebuild, interleaved

from events.store import open_store
from readmodels.db import open_projection_db
from readmodels.runner import Projector

BATCHES = (1, 2, 3, 5, 8, 13, 40, 500)

a_series = st.tuples(
    st.sampled_from(VARIANTS),
    st.integers(min_value=0, max_value=99_999_999),
    st.one_of(st.none(), st.integers(min_value=0, max_value=3)),  # a leaver, sometimes
)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    series=st.lists(a_series, min_size=1, max_size=3),
    schedule=st.integers(min_value=0, max_value=2**32),
    step_chance=st.sampled_from([0.02, 0.1, 0.3]),
)
def test_rows_kept_batch_by_batch_while_tables_play_equal_a_rebuild_from_zero(
    url: str,
    series: list[tuple[str, int, int | None]],
    schedule: int,
    step_chance: float,
) -> None:
    # one database for all examples (the fixture is the test's): later examples start with
    # the earlier ones' events already projected, as a live projector would
    store, db = open_store(url), open_projection_db(url)
    try:
        run = uuid.uuid4().hex[:6]
        tables = [Series(f"p{run}-{n}", variant, seed, hands=1, leaver=leaver)
                  for n, (variant, seed, leaver) in enumerate(series)]  # fmt: skip
        rng = random.Random(schedule)
        projector = Projector(store, db, EVERY)
        projector.attach()
        for _ in interleaved(store, tables, rng):
            if rng.random() < step_chance:
                projector.batch = rng.choice(BATCHES)
                projector.step()
        projector.batch = rng.choice(BATCHES)
        projector.catch_up()
        projector.close()
        assert all(c.stopped is None for c in projector.consumers), [
            c.stopped for c in projector.consumers
        ]
        head = store.last_position()  # type: ignore[attr-defined]
        assert {b.position for p in EVERY for b in db.builds(p.name)} == {head}
        comparison = compare_with_rebuild(store, db)
        assert comparison.differing == []
        assert comparison.rows > 0
    finally:
        db.close()
        store.close()


def test_the_comparison_finds_a_hand_counted_twice_in_the_live_rows(url: str) -> None:
    store, db = open_store(url), open_projection_db(url)
    try:
        for _ in interleaved(store, [Series("twice", "harbin", 7)], random.Random(1)):
            pass
        projector = Projector(store, db, EVERY)
        projector.attach()
        projector.catch_up()
        projector.close()
        assert compare_with_rebuild(store, db).differing == []
        settled = [e for e in store.read_stream("twice") if e.type == "hand_settled"]
        points = next(c for c in projector.consumers if c.projection.name == "points")
        with db.batch(points.projection, points.build.build, points.position,
                      points.position) as rows:  # fmt: skip
            points.projection.apply(replace(settled[0], position=10**9), rows)  # once more
        assert "points.points_balances" in compare_with_rebuild(store, db).differing
    finally:
        db.close()
        store.close()
