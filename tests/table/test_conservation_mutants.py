"""Tile conservation that the mutation run of ``services/rules/table/conservation.py`` found no
test holding: the check names a stream whose tiles do not add up — a tile missing and another
there once too often, lower or higher than the one lost — and it counts the 混 indicator once
wherever it lies, the head of the live wall having reached it or stepped over it.

Given events (a ``Table`` driven by commands, or its facts with one of them altered and folded
again), then what the check says."""

from __future__ import annotations

import dataclasses

import pytest

from services.rules.events import hand as ev
from services.rules.table import TableState, replay
from services.rules.table.conservation import conservation_errors
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv

from .builders import STD, Table, play_out, tail_for


# -- a stream whose tiles do not add up --------------------------------------------------------------
def wall_with_last_tile(instead: str) -> TableState:
    """山东, the standard deal with 9s as the last tile of the wall; the facts folded again with
    ``instead`` written for that 9s in the hand's wall (a stream altered after it was recorded)."""
    table = Table("shandong")
    table.start(STD, tail=["9s"])
    assert conservation_errors(table.state) is None
    events = list(table.events)
    index = next(i for i, e in enumerate(events) if isinstance(e, ev.HandStarted))
    started = events[index]
    assert (
        isinstance(started, ev.HandStarted)
        and started.wall is not None
        and started.wall[-1] == "9s"
    )
    events[index] = started.model_copy(update={"wall": (*started.wall[:-1], instead)})
    return replay(events)


@pytest.mark.parametrize("instead", ["1m", "8f"])
def test_a_wall_that_holds_another_tile_for_one_of_its_own_is_named_by_the_check(
    instead: str,
) -> None:
    """Every tile of the set is in exactly one place, at every moment (the check ``paiju
    simulate`` makes after every event): a wall with a fifth 1m, or a second 菊 (8f; ``002``'s
    flowers are 春夏秋冬、梅兰竹菊, one of each), in place of a 9s is no set, whether the stranger
    sorts before or after the tile it replaced; the check names both tiles."""
    state = wall_with_last_tile(instead)
    assert conservation_errors(state) == f"tiles missing: 9s; tiles twice: {instead}"


# -- the 混 indicator, counted once wherever it lies ---------------------------------------------------
def tanggu_keeping_the_last(tiles: int) -> rv.RulesVersion:
    """A version whose 塘沽 keeps only the last ``tiles`` tiles undrawn (004 keeps 34): its live
    wall runs up to the 混 indicator and past it."""
    tanggu = VARIANTS["tanggu"]
    changed = dataclasses.replace(
        tanggu, config=dataclasses.replace(tanggu.config, dead_wall=tiles)
    )
    return rv.ENGINE.derived(f"paiju-rules/tanggu-dead-wall-{tiles}-test", tanggu=changed)


def test_the_hun_indicator_is_counted_once_when_the_draws_reach_it_and_step_over_it() -> None:
    """Decision 9: the indicator stays face up where it lies and is never drawn; a draw that
    reaches it steps over it. Every tile of the set stays in exactly one place as the head of
    the wall comes to the indicator and passes it: the indicator is counted once, first as part
    of the undrawn wall, then on its own."""
    with rv.known_only(tanggu_keeping_the_last(4)):
        table = Table("tanggu")
        table.start(STD, tail=tail_for("tanggu"))
        indicator = table.hand.indicator_index
        assert indicator is not None
        heads: list[int] = []

        def conserved(t: Table) -> bool:
            assert conservation_errors(t.state) is None
            heads.append(t.hand.head)
            return False

        play_out(table, until=conserved)
    assert indicator in heads and max(heads) > indicator
    assert table.of_type(ev.HandDrawn)
