"""The table tests: given events, when a command, then events (see ``builders``)."""

from __future__ import annotations

import pytest

from .builders import Table


@pytest.fixture
def make_table():
    """``make_table("harbin", option=True)``: an open table of that variant."""

    def make(variant: str, **options: bool) -> Table:
        return Table(variant, options=dict(options))

    return make
