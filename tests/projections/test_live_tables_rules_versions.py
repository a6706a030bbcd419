"""Live tables time a table's waits by its variant under the table's rules version: a version
whose 哈尔滨 gives a turn 30 seconds is waited on for 30 at its tables, and the engine's 15 at
the others, whichever version new tables open under."""

from __future__ import annotations

import dataclasses

import pytest
from given_kit import START, Table, caught_up

from events.store import open_store
from readmodels.live_tables import LiveTables
from readmodels.queries_tables import live_table
from services.rules.events.hand import TilesDealt
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv
from services.rules.variants.timing import Timing

HARBIN = VARIANTS["harbin"]
SLOW_TURNS = rv.ENGINE.derived(
    "paiju-rules/slow-turns-test", "哈尔滨 turns of 30 seconds",
    harbin=dataclasses.replace(
        HARBIN, config=dataclasses.replace(HARBIN.config, timing=Timing(turn=30))
    ),
)  # fmt: skip
HANDS = (("1m",) * 14, ("2m",) * 13, ("3m",) * 13, ("4m",) * 13)


@pytest.mark.parametrize("current", [rv.ENGINE.id, SLOW_TURNS.id])
def test_a_turn_is_waited_on_for_the_seconds_of_the_tables_rules_version(
    url: str, current: str
) -> None:
    store = open_store(url)
    for table_id, version in (("slow", SLOW_TURNS.id), ("engine", rv.ENGINE.id)):
        t = Table(store, table_id)
        t.opened("harbin", rules_version=version)  # minute 0
        t.dealt(1)  # minute 1
        t.given(TilesDealt(hands=HANDS))  # minute 2: the dealer's turn begins
    with rv.known_only(rv.ENGINE, SLOW_TURNS, current=current):
        db = caught_up(store, url, LiveTables())
    until = {t: live_table(db, t).model_dump()["wait_until"] for t in ("slow", "engine")}  # type: ignore[union-attr]
    assert until == {"slow": START.replace(minute=2, second=30).isoformat(),
                     "engine": START.replace(minute=2, second=15).isoformat()}  # fmt: skip
