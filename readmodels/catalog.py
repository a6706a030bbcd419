"""Every projection the projector keeps, by name (``paiju projections``, ``paiju projector``).

A new read model registers here: its class in ``ALL``, once. Names are unique; a build's
tables are named after its projection's tables, so two projections never share a table.
"""

from __future__ import annotations

from readmodels.base import Projection
from readmodels.leaderboards import Leaderboards
from readmodels.levels import Levels
from readmodels.live_tables import LiveTables
from readmodels.penalties import Penalties
from readmodels.points import Points
from readmodels.rooms import Rooms
from readmodels.stats import PlayerStats

ALL: tuple[Projection, ...] = (
    Points(), Levels(), Leaderboards(), Penalties(), PlayerStats(), LiveTables(), Rooms()
)


class UnknownProjectionError(LookupError):
    """A projection name that is not in the catalog."""


def names() -> list[str]:
    return [p.name for p in ALL]


def by_name(name: str) -> Projection:
    """The projection called ``name``; an error naming the known ones otherwise."""
    for projection in ALL:
        if projection.name == name:
            return projection
    raise UnknownProjectionError(
        f"no projection {name!r}; known: {', '.join(sorted(names())) or 'none'}"
    )
