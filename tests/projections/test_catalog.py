"""The catalog: each projection once, by a name of its own, and a clear error for any other."""

from __future__ import annotations

import pytest

from readmodels import catalog


def test_every_projection_has_a_name_and_tables_of_its_own() -> None:
    names = [p.name for p in catalog.ALL]
    assert "points" in names and len(names) == len(set(names))
    tables = [t.name for p in catalog.ALL for t in p.tables]
    assert len(tables) == len(set(tables))


def test_a_projection_is_found_by_its_name() -> None:
    for projection in catalog.ALL:
        assert catalog.by_name(projection.name) is projection


def test_an_unknown_name_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(catalog.UnknownProjectionError, match=r"no projection 'pionts'.*points"):
        catalog.by_name("pionts")


def test_the_catalog_alone_knows_every_event_shape_its_projections_read() -> None:
    """A projector process imports the catalog and nothing of the engine: the event types the
    projections upcast must be registered by that import alone."""
    import subprocess
    import sys

    code = (
        "from readmodels.catalog import ALL\n"
        "from events.registry import registry\n"
        "for kind in ('hand_settled', 'penalty_adjudicated', 'points_adjusted', 'table_opened'):\n"
        "    registry.upcast(kind, 1, {})\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
