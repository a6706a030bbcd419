"""The catalog: each projection once, by a name of its own, and a clear error for any other."""

from __future__ import annotations

import pytest

from workers.projections import catalog


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
