"""A rebuild from position 0 reproduces every row of the level, leaderboard and penalty read
models, after series of every variant (with leavers) played through the table service."""

from __future__ import annotations

import pytest
from boards_kit import project
from projection_kit import play_series
from rebuild_kit import compare_with_rebuild

from events.store import open_store
from readmodels.base import Projection
from readmodels.leaderboards import Leaderboards
from readmodels.levels import Levels
from readmodels.penalties import Penalties

PLAYERS = ("ann", "bo", "cy", "di")


@pytest.mark.parametrize("projection", [Levels(), Leaderboards(), Penalties()], ids=lambda p: p.name)
def test_a_rebuild_from_position_zero_gives_the_same_rows(url: str, projection: Projection) -> None:
    store = open_store(url)
    for n, variant in enumerate(("mudanjiang", "harbin", "shandong", "shanghai", "tanggu")):
        play_series(store, f"t{n}", variant, PLAYERS, hands=2, leaver=n % 4, seed=n)
    db = project(url, projection)
    compared = compare_with_rebuild(store, db, [projection])
    assert compared.rows > 0 and compared.differing == []
