"""How much of the wall may still be drawn, that the mutation run of
``services/rules/table/walls.py`` found no test holding: the last tile of a variant that keeps no
last draws for 自摸 can still be claimed when the system throws it; a version of the rules that
keeps only the very last draw for 自摸 flags that draw; and a 塘沽 混 indicator that lies in the
live wall (a version keeping fewer tiles back than the indicator's place) is stepped over by the
draw that reaches it, never drawn, and still one of the tiles kept back.

Given a dealt hand (a ``Table`` driven by commands, under the engine's rules or a version derived
from them), when the hand is played to its last draws, then the draws and the claim window."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from services.rules.events import hand as ev
from services.rules.table.walls import drawable
from services.rules.variants import VARIANTS
from services.rules.variants import versions as rv

from .builders import Table, head_draws, play_out, tail_for

# -- 塘沽: the last live tile, thrown by the system for a seat after 听 ---------------------------
WAITS_3S_6S = "123m456m789p11s45s"  # seat 1: 听 on 3s and 6s
# kept back, never drawn: the 混 (the indicator 3z 5th from the end) and seat 1's winning tiles
TANGGU_TAIL = ["3z", "3z", "3z", "4z", "3z", "4z", "4z", "4z", *["3s"] * 4, *["6s"] * 4]
WAITS_7Z = "123p456p789s123m7z"  # seat 2: waits on 7z alone
LIVE_DRAWS = 136 - 53 - 34  # 塘沽: 全副的反数第35张牌 is the last tile drawn


def test_tanggu_the_last_live_tile_thrown_by_the_system_for_a_ready_seat_may_still_be_won_on() -> (
    None
):
    """Decision 9: "the 35th from the end (全副的反数第35张牌) is the last tile drawn" — and 塘沽 keeps
    no last draws for 自摸 only (that is 牡丹江/哈尔滨's 荒庄前最后四张牌). So when the seat after 听,
    played by the system, draws that last tile and throws it, the claim window opens on it as on
    any discard, and the seat waiting on it wins (放炮)."""
    seat_1_draws = ["1z"] * 4 + ["2z"] * 4 + ["5z"] * 4 + ["7z"]  # never 3s, 6s nor a 混
    draws: list[str | None] = [None] * LIVE_DRAWS
    for turn, tile in enumerate(seat_1_draws):
        draws[4 * turn] = tile  # seat 1 draws first, every fourth tile, and the last one
    table = Table("tanggu")
    table.start({1: WAITS_3S_6S, 2: WAITS_7Z}, draws=draws, tail=TANGGU_TAIL)
    table.play(0, table.drawn(0) or "")
    table.discard(1, "1z", ready="plain")
    play_out(table, until=lambda t: head_draws(t) == LIVE_DRAWS and t.hand.step != "discard")
    config = table.state.variant.config
    assert drawable(config, table.hand) == 0
    thrown = table.last(ev.TileDiscarded)
    assert (thrown.seat, thrown.tile, thrown.automatic) == (1, "7z", True)
    assert table.hand.step == "claims" and "win" in table.options_of(2)
    assert not table.of_type(ev.HandDrawn)
    table.win(2)
    won = table.last(ev.HandWon).wins[0]
    assert (won.seat, won.self_drawn) == (2, False)


# -- a version of the rules that keeps only the last draw for 自摸 ---------------------------------
def _harbin_last_draw_only() -> rv.RulesVersion:
    harbin = VARIANTS["harbin"]
    changed = dataclasses.replace(
        harbin, config=dataclasses.replace(harbin.config, last_draws_auto=1)
    )
    return rv.ENGINE.derived(
        "paiju-rules/walls-last-1", "哈尔滨: the last draw only", harbin=changed
    )


LAST_DRAW_ONLY = _harbin_last_draw_only()


@pytest.fixture
def last_draw_only() -> Iterator[None]:
    with rv.known_only(rv.ENGINE, LAST_DRAW_ONLY, current=LAST_DRAW_ONLY.id):
        yield


@pytest.mark.usefixtures("last_draw_only")
def test_a_version_keeping_only_the_last_tile_for_self_draw_flags_that_draw_alone() -> None:
    """001: 荒庄前最后四张牌（宝牌不算在内）系统按顺序轮流发给玩家看是否能自摸 — how many is the
    variant's ``last_draws_auto``; a rules version that keeps one tile for 自摸 draws the very last
    tile (the 宝 excluded) for 自摸 only, and every draw before it in the ordinary way."""
    table = Table("harbin")
    assert table.state.rules_version == LAST_DRAW_ONLY.id
    table.start(tail=tail_for("harbin"))
    play_out(table)
    assert table.of_type(ev.HandDrawn)
    draws = [e for e in table.of_type(ev.TileDrawn) if not e.from_tail]
    assert draws[-1].last_draws
    assert not any(e.last_draws for e in draws[:-1])


# -- a 塘沽 version whose 混 indicator lies in the live wall -----------------------------------------
KEPT_BACK = 14  # seven stacks, fewer than the indicator's place
DICE_24 = (6, 6, 6, 6)  # the indicator is the 24th tile from the end: index 112
INDICATOR = 136 - 24
AFTER_INDICATOR = ["7z", "6z", "5z"]  # the tiles at indices 113, 114 and 115


def _tanggu_short_dead_wall() -> rv.RulesVersion:
    tanggu = VARIANTS["tanggu"]
    changed = dataclasses.replace(
        tanggu, config=dataclasses.replace(tanggu.config, dead_wall=KEPT_BACK)
    )
    return rv.ENGINE.derived("paiju-rules/walls-short-tail", "塘沽 keeps 14", tanggu=changed)


SHORT_DEAD_WALL = _tanggu_short_dead_wall()


@pytest.fixture
def short_dead_wall() -> Iterator[Table]:
    """A 塘沽 table under the version keeping 14 tiles back, the indicator (3z) 24th from the end
    and 7z, 6z, 5z right after it in draw order."""
    with rv.known_only(rv.ENGINE, SHORT_DEAD_WALL, current=SHORT_DEAD_WALL.id):
        table = Table("tanggu")
        tail = tail_for("tanggu", dice=DICE_24)
        tail[23 - 3 : 23] = list(reversed(AFTER_INDICATOR))  # counted back from the end
        table.start(tail=tail, dice=DICE_24)
        assert table.hand.indicator_index == INDICATOR
        yield table


def test_a_draw_that_reaches_the_indicator_steps_over_it_to_the_next_tile(
    short_dead_wall: Table,
) -> None:
    """Decision 9: "The indicator stays face up where it lies"; walls: the 混 indicator "is never
    drawn" — the draw that reaches it takes the tile after it, and the next draw the one after
    that."""
    table = short_dead_wall
    play_out(table)
    drawn = [e.tile for e in table.of_type(ev.TileDrawn) if not e.from_tail]
    taken = drawn[INDICATOR - 53 : INDICATOR - 53 + 3]
    assert taken == AFTER_INDICATOR
    assert table.view(0)["hand"]["indicator"] == "3z"


def test_the_indicator_stays_one_of_the_tiles_kept_back_wherever_it_lies(
    short_dead_wall: Table,
) -> None:
    """Decision 9: "The indicator is one of the 34 wherever it lies" (walls: "one of the reserved
    tiles wherever it lies … once a draw or a replacement has stepped over it"): the tiles kept
    back are the indicator and the 13 last ones, so exactly 136 − 53 − 14 tiles are drawn, and
    the count of tiles left falls by one with each draw, the draw that steps over the indicator
    too."""
    table = short_dead_wall
    config = table.state.variant.config
    left: dict[int, int] = {}  # tiles left to draw, after so many draws

    def count_after_each_draw(t: Table) -> bool:
        if t.hand.step == "discard":
            done = sum(1 for e in t.of_type(ev.TileDrawn) if not e.from_tail)
            left.setdefault(done, drawable(config, t.hand))
        return False

    play_out(table, until=count_after_each_draw)
    assert table.of_type(ev.HandDrawn)
    live = 136 - 53 - KEPT_BACK
    assert left == {done: live - done for done in range(live + 1)}
    assert head_draws(table) == live + 1  # the indicator stepped over
    assert table.hand.tail - table.hand.head == KEPT_BACK - 1
    assert table.view(0)["hand"]["wall_remaining"] == 0
